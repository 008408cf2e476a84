// The overview on an engine without the table it reads: a message about the runs, not DuckDB's
// `Did you mean "pg_namespace"?`; the run view's row-count check names what the manifest lacks.
import { describe, expect, it } from "vitest";
import { overviewChartData } from "../../../workspace/app/overview-data";
import { overviewError } from "../../../workspace/app/overview-errors";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";

describe("the overview without frames", () => {
  it("says which table no loaded run has, and never suggests pg_namespace", async () => {
    const engine = await createNativeEngine();
    try {
      // what DuckDB says on its own
      await expect(engine.query("SELECT count(*) FROM frames")).rejects.toThrow(
        /pg_namespace|does not exist/,
      );
      const e = await overviewChartData(engine, false).then(
        () => null,
        (x: Error) => x,
      );
      expect(e?.message).toBe(
        "the overview needs table frames, which no loaded run has now (it failed to load, or its run was removed); the run list says why",
      );
      expect(e?.message).not.toContain("pg_namespace");
    } finally {
      await engine.close();
    }
  });

  it("leaves other errors as they are", () => {
    const e = new Error("Binder Error: column x not found");
    expect(overviewError(e)).toBe(e);
  });
});
