import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { BIG_INPUT_ROWS, chooseEngine, inputRows } from "../../../workspace/node/choose-engine";

/** A notebook next to one run whose manifest lists `rows` frames (the files are never read). */
async function notebookWithRun(rows: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-engine-"));
  await mkdir(join(dir, "run"));
  const manifest = { ...newManifest("r", { app: "a" }), tables: { frames: { file: "frames.arrows", rows } } };
  await writeFile(join(dir, "run", "manifest.json"), JSON.stringify(manifest));
  await writeFile(join(dir, "nb.md"), "---\nruns: [run]\n---\n\n```sql id=n\nSELECT 1 AS one\n```\n");
  return join(dir, "nb.md");
}

describe("chooseEngine", () => {
  it.each([
    [BIG_INPUT_ROWS, "auto", "wasm", "engine: DuckDB-WASM (2,000,000 rows in the runs, within 2,000,000)"],
    [
      BIG_INPUT_ROWS + 1,
      "auto",
      "native",
      "engine: native DuckDB (@duckdb/node-api) (2,000,001 rows in the runs, over 2,000,000)",
    ],
    [10, "native", "native", "engine: native DuckDB (@duckdb/node-api) (as asked)"],
    [BIG_INPUT_ROWS * 5, "wasm", "wasm", "engine: DuckDB-WASM (as asked)"],
  ])("%i rows, --engine %s: %s", async (rows, choice, name, reason) => {
    const nb = await notebookWithRun(rows);
    expect(await inputRows(nb)).toBe(rows);
    const chosen = await chooseEngine(choice, nb);
    try {
      expect([chosen.name, chosen.reason]).toEqual([name, reason]);
      const one = await chosen.engine.query("SELECT 41 + 1 AS n");
      expect(Number(one.getChild("n")!.get(0))).toBe(42);
    } finally {
      await chosen.engine.close();
    }
  });

  it("refuses an engine it does not know", async () => {
    await expect(chooseEngine("spark", await notebookWithRun(1))).rejects.toThrow(
      "--engine spark: expected auto, wasm or native",
    );
  });
});
