import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseEngine } from "../../../workspace/node/choose-engine";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { createThreadedNodeEngine } from "../../../workspace/node/threaded-engine";

/** A notebook of one SQL cell, with `frontMatter` lines. */
async function notebook(frontMatter = ""): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "jb-engine-"));
  await writeFile(join(dir, "nb.md"), `---\n${frontMatter}---\n\n\`\`\`sql id=n\nSELECT 1 AS one\n\`\`\`\n`);
  return join(dir, "nb.md");
}

/** The engine's DuckDB version: tells the two engines apart by what they are, not by what chooseEngine says. */
async function version(engine: { query(sql: string): Promise<{ getChild(n: string): unknown }> }) {
  const t = (await engine.query("SELECT version() AS v")) as {
    getChild(n: string): { get(i: number): string };
  };
  return t.getChild("v").get(0);
}

describe("chooseEngine", () => {
  it.each([
    ["auto", "", "native", "engine: native DuckDB (@duckdb/node-api) (auto)", "v1.5"],
    [
      "auto",
      "lake: lab/\n",
      "native",
      "engine: native DuckDB (@duckdb/node-api) (the notebook reads a lake: Parquet)",
      "v1.5",
    ],
    ["native", "", "native", "engine: native DuckDB (@duckdb/node-api) (as asked)", "v1.5"],
    ["wasm", "", "wasm", "engine: DuckDB-WASM (as asked)", "v1.4"],
  ])("--engine %s, front matter %j: %s", async (choice, frontMatter, name, reason, duckdb) => {
    const chosen = await chooseEngine(choice, await notebook(frontMatter));
    try {
      expect([chosen.name, chosen.reason]).toEqual([name, reason]);
      expect(await version(chosen.engine)).toMatch(new RegExp(`^${duckdb.replace(".", "\\.")}\\.`));
    } finally {
      await chosen.engine.close();
    }
  });

  it("auto falls back to DuckDB-WASM when the native engine does not start, saying why", async () => {
    const chosen = await chooseEngine("auto", await notebook(), {
      native: () =>
        Promise.reject(new Error("Cannot find module '@duckdb/node-bindings-linux-x64/duckdb.node'")),
      wasm: createThreadedNodeEngine,
    });
    try {
      expect(chosen.name).toBe("wasm");
      expect(chosen.reason).toBe(
        "engine: DuckDB-WASM (auto: the native engine did not start: Cannot find module '@duckdb/node-bindings-linux-x64/duckdb.node')",
      );
      expect(await version(chosen.engine)).toMatch(/^v1\.4\./);
    } finally {
      await chosen.engine.close();
    }
  });

  it("--engine native does not fall back: its failure is the command's", async () => {
    const failing = { native: () => Promise.reject(new Error("no binding")), wasm: createNativeEngine };
    await expect(chooseEngine("native", await notebook(), failing)).rejects.toThrow("no binding");
  });

  it("refuses an engine it does not know", async () => {
    await expect(chooseEngine("spark", await notebook())).rejects.toThrow(
      "--engine spark: expected auto, wasm or native",
    );
  });
});
