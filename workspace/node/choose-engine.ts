// Which engine a headless run gets (docs/architecture.md, "Engines"): `--engine wasm` (the browser's DuckDB,
// so a CI result is what the workspace shows), `--engine native` (@duckdb/node-api), or by default native
// once the runs are big.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseManifest } from "../../bundle/manifest";
import { parseNotebook } from "../notebook/format";
import { resolveRunDirs } from "./open-notebook-runs";
import { createNativeEngine } from "../db/node/duckdb-native";
import { createThreadedNodeEngine } from "./threaded-engine";
import type { SqlEngine } from "../db/engine";

export type EngineChoice = "auto" | "wasm" | "native";

/**
 * Rows across the runs above which `auto` picks native: DuckDB-WASM ingests ~0.5M wide rows a second and holds
 * at most ~3 GiB (README, "Big runs"), so past a few million rows the load alone takes seconds.
 */
export const BIG_INPUT_ROWS = 2_000_000;

export interface ChosenEngine {
  engine: SqlEngine;
  name: "wasm" | "native";
  /** one line for stderr: which engine and why */
  reason: string;
}

/** Total rows the manifests of a notebook's runs list (every table). */
export async function inputRows(notebookPath: string, runs?: string[]): Promise<number> {
  const notebook = parseNotebook(await readFile(notebookPath, "utf8"));
  let rows = 0;
  for (const dir of await resolveRunDirs(notebook, notebookPath, { runs })) {
    const file = join(dir, "manifest.json");
    // A run that cannot be read counts nothing here: its load reports the error, with the cells that need it.
    const manifest = await readFile(file, "utf8")
      .then((text) => parseManifest(text, file))
      .catch(() => null);
    for (const t of Object.values(manifest?.tables ?? {})) rows += t.rows;
  }
  return rows;
}

export async function chooseEngine(
  choice: string,
  notebookPath: string,
  runs?: string[],
): Promise<ChosenEngine> {
  if (choice !== "auto" && choice !== "wasm" && choice !== "native")
    throw new Error(`--engine ${choice}: expected auto, wasm or native`);
  let name: "wasm" | "native" = choice === "auto" ? "wasm" : choice;
  let why = "as asked";
  const notebook = parseNotebook(await readFile(notebookPath, "utf8"));
  if (choice === "auto" && notebook.frontMatter?.fields.some(([key]) => key === "lake")) {
    name = "native";
    why = "the notebook reads a lake: Parquet";
  } else if (choice === "auto") {
    const rows = await inputRows(notebookPath, runs);
    name = rows > BIG_INPUT_ROWS ? "native" : "wasm";
    why = `${rows.toLocaleString("en")} rows in the runs, ${name === "native" ? "over" : "within"} ${BIG_INPUT_ROWS.toLocaleString("en")}`;
  }
  const engine = name === "native" ? await createNativeEngine() : await createThreadedNodeEngine();
  const label = name === "native" ? "native DuckDB (@duckdb/node-api)" : "DuckDB-WASM";
  return { engine, name, reason: `engine: ${label} (${why})` };
}
