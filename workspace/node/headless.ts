// Node only: runs a notebook file headless, with the browser's runtime, cells and SQL engine (DuckDB-WASM's
// Node build). The CLI (`jankbook run`, `jankbook publish`), the tests and the benchmarks go through here.
//
//   const r = await runNotebookFile("notebooks/triage.md", {runs?: [dir...], set?: {tauMs: "300"}});
//   r.states, r.checks, r.failedCells, r.failedChecks, r.inputs, r.provenance; then r.close()
//   await headlessSnapshot("notebooks/x.md")  -> NotebookSnapshot (JSON) for the browser parity test
import type { SqlEngine } from "../db/engine";
import { explainLoadFailures } from "../notebook/load-failures";
import { cellFailed, cellLabel, cellNotApplicable } from "../notebook/cell-state";
import type { Notebook } from "../notebook/format";
import { NotebookRuntime, type CellState, type CheckResult } from "../notebook/runtime";
import { snapshotNotebook, type NotebookSnapshot } from "../notebook/snapshot";
import { notebookProvenance } from "../publish/provenance";
import { failUnsettledCells } from "./unsettled-cells";
import {
  jankbookVersion,
  openNotebookRuns,
  type HeadlessOptions,
  type Provenance,
} from "./open-notebook-runs";

// what callers of the headless runner also use from run opening, so they need not import two modules
export {
  loadRuns,
  resolveRunDirs,
  runLoaderOf,
  SAMPLES_DIR,
  type HeadlessOptions,
} from "./open-notebook-runs";

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
  /** what was wrong with `set` (a name no input has, a value its input could not take), then the inputs */
  setErrors: string[];
  provenance: Provenance;
  /** wall time of loading runs and running every cell, ms */
  ms: { load: number; run: number };
  close(): Promise<void>;
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
  const setErrors = runtime.setProblems(options.set ?? {});
  for (const line of setErrors) progress(line);
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
    notApplicableCells: states.filter(cellNotApplicable),
    failedChecks: checks.filter((c) => !c.ok),
    setErrors,
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
