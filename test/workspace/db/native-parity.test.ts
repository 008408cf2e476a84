// Parity of the engines (docs/scaling.md): every notebook in notebooks/ run headless on DuckDB-WASM (1.4, the
// browser's engine) and on native DuckDB (@duckdb/node-api 1.5) gives the same value in every cell, and every check
// passes on both. The case notebooks are compared where their checks are tested (test/support/case-notebooks.ts),
// so that each runs once per engine; one engine of each kind serves the file, emptied between notebooks.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cells, parseNotebook } from "../../../workspace/notebook/format";
import { snapshotNotebook } from "../../../workspace/notebook/snapshot";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { differences } from "../../support/snapshot-diff";
import { NOTEBOOKS, unfinishedCells } from "../../support/notebook-paths";
import { CASES_DIR } from "../../support/case-notebooks";
import { sharedHeadless } from "../../support/shared-headless";

const ROOT = join(import.meta.dirname, "../../..");

const OTHERS = NOTEBOOKS.filter((p) => !p.startsWith(`${CASES_DIR}/`));

describe("notebooks give the same values on DuckDB-WASM and on native DuckDB", () => {
  const wasmHeadless = sharedHeadless();
  const nativeHeadless = sharedHeadless(createNativeEngine);

  it("finds the notebooks", () => {
    expect(NOTEBOOKS.map((p) => relative(ROOT, p))).toEqual(
      expect.arrayContaining(["notebooks/triage.md", "notebooks/examples/frames-overview.md"]),
    );
  });

  it("leaves the case notebooks to their own test, and no other", () => {
    expect(OTHERS.length).toBeGreaterThan(3);
    expect(NOTEBOOKS.length - OTHERS.length).toBe(
      readdirSync(CASES_DIR).filter((n) => n.endsWith(".md")).length,
    );
  });

  it.each(OTHERS.map((p) => [relative(ROOT, p), p]))(
    "%s: every cell's value, display and check",
    async (_name, path) => {
      const cellCount = cells(parseNotebook(readFileSync(path, "utf8"))).length;
      const wasm = await wasmHeadless(path);
      const native = await nativeHeadless(path);
      try {
        const [a, b] = [await snapshotNotebook(wasm.runtime), await snapshotNotebook(native.runtime)];
        for (const s of [a, b]) {
          expect(s.cells).toHaveLength(cellCount);
          expect(unfinishedCells(s)).toEqual([]);
        }
        // every check passes on the notebook's own runs, as `jankbook run` gates on (test/cli/run.test.ts runs only
        // a few notebooks through the command itself)
        for (const r of [wasm, native])
          expect(r.failedChecks.map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
        expect(differences(a, b, "", [], 20, ["wasm", "native"])).toEqual([]);
      } finally {
        await wasm.close();
        await native.close();
      }
    },
    300_000,
  );
});
