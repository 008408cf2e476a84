// Node only: what both headless runners (headless.ts in process, isolated-run.ts with a cell worker) do before
// the cells: the notebook's run folders, an engine with the lake attached and the runs loaded. Kept apart from the
// notebook runtime, so `jankbook run`'s own thread loads no cell code (its cells run in the worker).
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { folderSource } from "../../bundle/node-io";
import type { SqlEngine } from "../db/engine";
import { RunLoader, type LoadedRun } from "../db/run-loader";
import { createNodeEngine } from "../db/node/duckdb-node";
import { attachLake } from "../db/node/lake-views";
import { parseNotebook, type Notebook } from "../notebook/format";
import { globToRegExp, hasGlob, matchRunNames } from "../notebook/runs";
import type { PublishProvenance, RunProvenance } from "../publish/publish";
import { runProvenance } from "../publish/provenance";

export const SAMPLES_DIR = fileURLToPath(new URL("../public/samples/", import.meta.url));
export const PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

export interface HeadlessOptions {
  /** run folders (or folders of run folders) that replace the front matter's `runs:` */
  runs?: string[];
  /** input values by name, as text (coerced to the input's type) or values */
  set?: Record<string, unknown>;
  /** share one engine across notebooks (a run folder an earlier notebook loaded into it is not loaded again) */
  engine?: SqlEngine;
  /** progress lines (the CLI writes them to stderr) */
  onProgress?: (line: string) => void;
  /** give up waiting for cells after this long (default 120 s) */
  timeoutMs?: number;
  samplesDir?: string;
}

/** A run as loaded: its provenance, where it was read from, what of it loaded and what went wrong. */
export interface RunInfo extends RunProvenance {
  dir: string;
  tables: { name: string; rows: number }[];
  /** what went wrong loading it (a table that failed, rows that did not match, a checksum) */
  errors: string[];
  /** the run could not be read at all (its manifest), or was refused as a duplicate: nothing of it is loaded */
  failed?: boolean;
  /** how its tables reached DuckDB: its database file attached, or its Arrow files streamed */
  path?: "attached" | "streamed";
  /** refused: the folder of the loaded run with the same run_id (the one run loader's duplicate policy) */
  duplicateOf?: string;
}

export interface Provenance extends PublishProvenance {
  runs: RunInfo[];
}

/** per engine, its one run loader: the runs in it and how their load went */
const loaders = new WeakMap<SqlEngine, RunLoader>();

/** The engine's run loader (the browser session's, workspace/db/run-loader.ts), made on first use. */
export function runLoaderOf(engine: SqlEngine): RunLoader {
  let loader = loaders.get(engine);
  if (!loader) loaders.set(engine, (loader = new RunLoader(engine)));
  return loader;
}

/** A run as the loader left it, in the runner's terms. */
function runInfo(dir: string, run: LoadedRun, loader: RunLoader): RunInfo {
  const tables = Object.entries(run.rows).map(([name, rows]) => ({ name, rows }));
  const manifest = run.manifest ?? loader.runs.find((r) => r.label === run.duplicateOf)?.manifest;
  const provenance = manifest ? runProvenance(manifest) : { run_id: basename(dir) };
  const info: RunInfo = { ...provenance, dir, tables, errors: run.errors };
  if (!run.manifest) info.failed = true;
  if (run.path) info.path = run.path;
  if (run.duplicateOf !== undefined) info.duplicateOf = run.duplicateOf;
  return info;
}

async function isRun(dir: string): Promise<boolean> {
  return existsSync(join(dir, "manifest.json"));
}

async function subRuns(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries)
    if (e.isDirectory() && (await isRun(join(dir, e.name)))) out.push(join(dir, e.name));
  return out.sort();
}

async function sampleNames(samplesDir: string): Promise<string[]> {
  try {
    return JSON.parse(await readFile(join(samplesDir, "index.json"), "utf8")) as string[];
  } catch {
    return (await subRuns(samplesDir)).map((d) => relative(samplesDir, d));
  }
}

/** The run folders a notebook names (front matter `runs:`, rule in runs.ts), or the --runs overrides. */
export async function resolveRunDirs(
  nb: Notebook,
  notebookPath: string,
  options: Pick<HeadlessOptions, "runs" | "samplesDir"> = {},
): Promise<string[]> {
  if (options.runs && options.runs.length) {
    const out: string[] = [];
    for (const dir of options.runs) {
      const abs = resolve(dir);
      if (await isRun(abs)) out.push(abs);
      else {
        const subs = await subRuns(abs);
        if (!subs.length)
          throw new Error(`--runs ${dir}: neither a run (no manifest.json) nor a folder of runs`);
        out.push(...subs);
      }
    }
    return out;
  }
  const base = dirname(resolve(notebookPath));
  const samplesDir = options.samplesDir ?? SAMPLES_DIR;
  const out: string[] = [];
  for (const ref of nb.frontMatter?.runs ?? []) {
    let found: string[] = [];
    if (hasGlob(ref)) {
      const parent = resolve(base, dirname(ref));
      const re = globToRegExp(ref.split("/").pop()!);
      found = (await subRuns(parent)).filter((d) => re.test(d.slice(parent.length + 1)));
    } else if (await isRun(resolve(base, ref))) found = [resolve(base, ref)];
    if (!found.length)
      found = matchRunNames(ref, await sampleNames(samplesDir)).map((n) => join(samplesDir, n));
    if (!found.length)
      throw new Error(`runs: ${ref} matches no run folder next to ${notebookPath} nor in ${samplesDir}`);
    for (const f of found) if (!out.includes(f)) out.push(f);
  }
  return out;
}

export async function jankbookVersion(): Promise<string> {
  return (JSON.parse(await readFile(PACKAGE_JSON, "utf8")) as { version: string }).version;
}

/** Front matter `lake: <dir>`: its tables as views in schema lake (native engine: DuckDB-WASM reads no Parquet). */
export async function attachNotebookLake(notebook: Notebook, path: string, engine: SqlEngine): Promise<void> {
  const lake = notebook.frontMatter?.fields
    .find(([key]) => key === "lake")?.[1]
    .trim()
    .replace(/^["']|["']$/g, "");
  if (lake) await attachLake(engine, resolve(dirname(path), lake));
}

/**
 * Loads each run folder into the engine with the browser's run loader: a packed run is attached, others stream,
 * and a second folder holding a run_id already loaded is refused, naming both folders. A folder that an earlier
 * call loaded into the same engine (one engine shared across notebooks) is not loaded again. A run that cannot be
 * read is reported, not thrown.
 */
export async function loadRuns(
  dirs: string[],
  engine: SqlEngine,
  progress: (line: string) => void = () => {},
): Promise<RunInfo[]> {
  const loader = runLoaderOf(engine);
  const earlier = new Map(loader.runs.filter((r) => r.manifest).map((r) => [r.label, r]));
  const runs: RunInfo[] = [];
  for (const dir of dirs) {
    // One at a time, as the files are on disk: no run's chunks queue up behind another's.
    const run = earlier.get(dir) ?? (await loader.load([folderSource(dir)]))[0]!;
    earlier.delete(dir); // the same folder twice in one call is a duplicate, as in the browser
    const info = runInfo(dir, run, loader);
    runs.push(info);
    if (info.failed) progress(`run ${dir}: not loaded: ${info.errors.join("; ")}`);
    else
      progress(
        `run ${info.run_id}: ${info.tables.map((t) => `${t.name} ${t.rows}`).join(", ")}${info.errors.length ? ` (${info.errors.length} errors: ${info.errors.join("; ")})` : ""}`,
      );
  }
  return runs;
}

/**
 * What both runners (this one and isolated-run.ts) do before the cells: the notebook, its runs, an engine (the
 * caller's, or one of its own that the runner closes) with the lake attached and the runs loaded.
 */
export async function openNotebookRuns(path: string, options: HeadlessOptions & { engine?: SqlEngine }) {
  const progress = options.onProgress ?? (() => {});
  const notebook = parseNotebook(await readFile(path, "utf8"));
  const dirs = await resolveRunDirs(notebook, path, options);
  const t0 = performance.now();
  const ownEngine = !options.engine;
  const engine = options.engine ?? (await createNodeEngine());
  await attachNotebookLake(notebook, path, engine);
  const runs = await loadRuns(dirs, engine, progress);
  return { progress, notebook, dirs, engine, ownEngine, runs, t0, t1: performance.now() };
}
