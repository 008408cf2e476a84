// Which engine a headless run gets (docs/scaling.md, "Which engine"): `--engine wasm` (the browser's DuckDB, so a
// CI result is what the workspace shows), `--engine native` (@duckdb/node-api), or by default native: measured, it
// starts and runs the sample notebooks faster than DuckDB-WASM at every run size, and gives the same values
// (test/workspace/db/native-parity.test.ts). DuckDB-WASM when the native binding does not load on this machine.
import { readFile } from "node:fs/promises";
import { parseNotebook } from "../notebook/format";
import { createNativeEngine } from "../db/node/duckdb-native";
import { createThreadedNodeEngine } from "./threaded-engine";
import type { SqlEngine } from "../db/engine";

export type EngineChoice = "auto" | "wasm" | "native";

export interface ChosenEngine {
  engine: SqlEngine;
  name: "wasm" | "native";
  /** one line for stderr: which engine and why */
  reason: string;
}

const LABEL = { native: "native DuckDB (@duckdb/node-api)", wasm: "DuckDB-WASM" };

export async function chooseEngine(
  choice: string,
  notebookPath: string,
  // the engine makers, for a test to make the native one fail
  make: { native(): Promise<SqlEngine>; wasm(): Promise<SqlEngine> } = {
    native: createNativeEngine,
    wasm: createThreadedNodeEngine,
  },
): Promise<ChosenEngine> {
  if (choice !== "auto" && choice !== "wasm" && choice !== "native")
    throw new Error(`--engine ${choice}: expected auto, wasm or native`);
  const chosen = (name: "wasm" | "native", engine: SqlEngine, why: string): ChosenEngine => ({
    engine,
    name,
    reason: `engine: ${LABEL[name]} (${why})`,
  });
  if (choice !== "auto") return chosen(choice, await make[choice](), "as asked");
  const notebook = parseNotebook(await readFile(notebookPath, "utf8"));
  const lake = notebook.frontMatter?.fields.some(([key]) => key === "lake");
  try {
    return chosen("native", await make.native(), lake ? "the notebook reads a lake: Parquet" : "auto");
  } catch (e) {
    // A lake needs Parquet, which DuckDB-WASM cannot read offline: its notebook fails on the lake, saying why.
    const why = `auto: the native engine did not start: ${(e as Error).message}`;
    return chosen("wasm", await make.wasm(), why);
  }
}
