// Node only: runs a notebook file headless, with the browser's runtime, cells and SQL engine (DuckDB-WASM's
// Node build). The CLI (`jankbook run`, `jankbook publish`), the tests and the benchmarks go through here.
//
//   const r = await runNotebookFile("notebooks/triage.md", {runs?: [dir...], set?: {tauMs: "300"}});
//   r.states, r.checks, r.failedCells, r.failedChecks, r.inputs, r.provenance; then r.close()
//   await headlessSnapshot("notebooks/x.md")  -> NotebookSnapshot (JSON) for the browser parity test
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { folderSource } from "../../bundle/node-io";
import { prepareBundle } from "../../bundle/prepare-bundle";
import type { LoadReport, SqlEngine } from "../db/engine";
import { loadPreparedBundle } from "../db/load-prepared";
import { createNodeEngine } from "../db/node/duckdb-node";
import { attachLake } from "../db/node/lake-views";
import { parseNotebook, type Notebook } from "../notebook/format";
import { globToRegExp, hasGlob, matchRunNames } from "../notebook/runs";
import { explainLoadFailures } from "../notebook/load-failures";
import { cellFailed, cellLabel } from "../notebook/cell-state";
import { NotebookRuntime, type CellState, type CheckResult } from "../notebook/runtime";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import type { PublishProvenance, RunProvenance } from "../publish/publish";
import { notebookProvenance, runProvenance } from "../publish/provenance";
import { failUnsettledCells } from "./unsettled-cells";

export const SAMPLES_DIR = fileURLToPath(new URL("../public/samples/", import.meta.url));
export const PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

export interface HeadlessOptions {
  /** run folders (or folders of run folders) that replace the front matter's `runs:` */
  runs?: string[];
  /** input values by name, as text (coerced to the input's type) or values */
  set?: Record<string, unknown>;
  /** share one engine across notebooks (a run already loaded into it is not loaded again) */
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
  /** the run could not be read at all (its manifest): nothing of it is loaded */
  failed?: boolean;
}

export interface Provenance extends PublishProvenance {
  runs: RunInfo[];
}

export interface HeadlessResult {
  path: string;
  notebook: Notebook;
  runtime: NotebookRuntime;
  engine: SqlEngine;
  states: CellState[];
  checks: CheckResult[];
  failedCells: CellState[];
  /** cells whose runs lack a table they read (and their dependents): listed with the reason, not failed */
  notApplicableCells: CellState[];
  failedChecks: CheckResult[];
  provenance: Provenance;
  /** wall time of loading runs and running every cell, ms */
  ms: { load: number; run: number };
  close(): Promise<void>;
}

/** per engine, the runs in it and how their load went */
const loaded = new WeakMap<SqlEngine, Map<string, LoadReport>>();

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

/** Loads each run folder into the engine (once per engine); a run that cannot be read is reported, not thrown. */
export async function loadRuns(
  dirs: string[],
  engine: SqlEngine,
  progress: (line: string) => void = () => {},
): Promise<RunInfo[]> {
  const seen = loaded.get(engine) ?? new Map<string, LoadReport>();
  loaded.set(engine, seen);
  const runs: RunInfo[] = [];
  for (const dir of dirs) {
    let bundle: Awaited<ReturnType<typeof prepareBundle>>;
    try {
      bundle = await prepareBundle(folderSource(dir));
    } catch (e) {
      const message = (e as Error).message;
      runs.push({ run_id: basename(dir), dir, tables: [], errors: [message], failed: true });
      progress(`run ${dir}: not loaded: ${message}`);
      continue;
    }
    const m = bundle.manifest;
    let report = seen.get(m.run_id);
    if (report) bundle.cancel();
    else {
      report = await loadPreparedBundle(engine, bundle);
      seen.set(m.run_id, report);
    }
    runs.push({
      ...runProvenance(m),
      dir,
      tables: report.tables,
      errors: report.errors,
    });
    progress(
      `run ${m.run_id}: ${report.tables.map((t) => `${t.name} ${t.rows}`).join(", ")}${report.errors.length ? ` (${report.errors.length} errors: ${report.errors.join("; ")})` : ""}`,
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

export async function runNotebookFile(path: string, options: HeadlessOptions = {}): Promise<HeadlessResult> {
  const { progress, notebook, engine, ownEngine, runs, t0, t1 } = await openNotebookRuns(path, options);
  const reported = new Set<string>();
  const runtime = new NotebookRuntime({
    engine: explainLoadFailures(engine, runs),
    onCell: (s) => {
      if (s.status === "pending" || reported.has(s.id)) return;
      reported.add(s.id);
      const label = cellLabel(s);
      progress(
        `${s.status === "fulfilled" ? "ok  " : "FAIL"} ${label}${s.ms !== undefined ? ` (${Math.round(s.ms)} ms)` : ""}${s.error ? `: ${s.error}` : ""}`,
      );
    },
  });
  for (const [name, value] of Object.entries(options.set ?? {})) runtime.setInput(name, value);
  runtime.load(notebook);
  await runtime.settled(options.timeoutMs ?? 120_000);
  const inputs = runtime.inputs();
  const unknown = Object.keys(options.set ?? {}).filter((n) => !inputs.some((i) => i.name === n));
  for (const n of unknown)
    progress(
      `warning: --set ${n}: the notebook declares no input named ${n} (inputs: ${inputs.map((i) => i.name).join(", ") || "none"})`,
    );
  const t2 = performance.now();
  const states = runtime.states();
  failUnsettledCells(states, "never settled: the runtime went idle without this cell's result");
  const checks = runtime.checks();
  return {
    path,
    notebook,
    runtime,
    engine,
    states,
    checks,
    failedCells: states.filter(cellFailed),
    notApplicableCells: states.filter((s) => s.status === "rejected" && !cellFailed(s)),
    failedChecks: checks.filter((c) => !c.ok),
    provenance: notebookProvenance({
      notebook: path,
      title: notebook.frontMatter?.title,
      runs,
      jankbookVersion: await jankbookVersion(),
      inputs: inputs.map((i) => ({ name: i.name, value: i.value, label: i.label })),
    }),
    ms: { load: t1 - t0, run: t2 - t1 },
    async close() {
      runtime.dispose();
      if (ownEngine) await engine.close();
    },
  };
}

/** The headless half of the parity test: the notebook's cell values as JSON (see snapshot.ts). */
export async function headlessSnapshot(
  path: string,
  options: HeadlessOptions = {},
): Promise<NotebookSnapshot> {
  const r = await runNotebookFile(path, options);
  try {
    return await snapshotNotebook(r.runtime);
  } finally {
    await r.close();
  }
}
