// Parity of the engines (docs/scaling.md): every notebook in notebooks/ run headless on DuckDB-WASM (1.4, the
// browser's engine) and on native DuckDB (@duckdb/node-api 1.5) gives the same value in every cell, and every check
// passes on both.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cells, parseNotebook } from "../../../workspace/notebook/format";
import { runNotebookFile, type HeadlessResult } from "../../../workspace/node/headless";
import { snapshotNotebook } from "../../../workspace/notebook/snapshot";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { differences } from "../../support/snapshot-diff";
import { NOTEBOOKS, unfinishedCells } from "../../support/notebook-paths";

const ROOT = join(import.meta.dirname, "../../..");

describe("notebooks give the same values on DuckDB-WASM and on native DuckDB", () => {
  const results: HeadlessResult[] = [];
  afterAll(async () => {
    for (const r of results) await r.close();
    for (const r of results) await r.engine.close().catch(() => undefined);
  });

  it("finds the notebooks", () => {
    expect(NOTEBOOKS.map((p) => relative(ROOT, p))).toEqual(
      expect.arrayContaining(["notebooks/triage.md", "notebooks/examples/frames-overview.md"]),
    );
  });

  it.each(NOTEBOOKS.map((p) => [relative(ROOT, p), p]))(
    "%s: every cell's value, display and check",
    async (_name, path) => {
      const cellCount = cells(parseNotebook(readFileSync(path, "utf8"))).length;
      const wasm = await runNotebookFile(path, { engine: await createNodeEngine() });
      const native = await runNotebookFile(path, { engine: await createNativeEngine() });
      results.push(wasm, native);
      const [a, b] = [await snapshotNotebook(wasm.runtime), await snapshotNotebook(native.runtime)];
      for (const s of [a, b]) {
        expect(s.cells).toHaveLength(cellCount);
        expect(unfinishedCells(s)).toEqual([]);
      }
      // every check passes on the notebook's own runs, as `jankbook run` gates on (test/cli/run.test.ts runs only a
      // few notebooks through the command itself)
      for (const r of [wasm, native]) expect(r.failedChecks.map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
      expect(differences(a, b, "", [], 20, ["wasm", "native"])).toEqual([]);
    },
    300_000,
  );
});
