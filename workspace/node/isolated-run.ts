// `jankbook run` / `publish` with cells that can be stopped (docs/architecture.md): the runner keeps the SQL
// engine and the loaded runs, and runs the cells in a worker thread (cell-worker.ts) it terminates when the
// notebook overruns its time budget or the worker runs out of memory. The cells' last reported states are
// kept as they arrive, so the report of everything else is written either way; the cell that overran is
// named.
//
//   const r = await runNotebookIsolated("nb.md", {timeoutMs, report: "html", runs, set});
//   r.records (notebook order), r.states, r.failedCells, r.failedChecks, r.stopped, r.provenance
import { MessageChannel, Worker } from "node:worker_threads";
import { totalmem } from "node:os";
import type { SqlEngine } from "../db/engine";
import {
  cellFailed,
  cellLabel,
  cellNotApplicable,
  type CellState,
  type CheckResult,
} from "../notebook/cell-state";
import { cells as cellsOf, type Notebook } from "../notebook/format";
import { notebookProvenance } from "../publish/provenance";
import {
  jankbookVersion,
  openNotebookRuns,
  type HeadlessOptions,
  type Provenance,
} from "./open-notebook-runs";
import { PreRendered } from "../publish/pre-rendered";
import { timeOrigins } from "../../bundle/time-origins";
import { DEFAULT_RESULT_CAPS, serveEngine, type ResultCaps } from "./remote-engine";
import { createThreadedNodeEngine, type ThreadedEngine } from "./threaded-engine";
import type { CellRecord, ReportKind, WorkerInit, WorkerMessage } from "./worker-protocol";
import { failUnsettledCells } from "./unsettled-cells";

export interface IsolatedOptions extends Omit<HeadlessOptions, "engine"> {
  /** the caller's engine (closed by the caller), or the promise of it: the worker starts while it does */
  engine?: SqlEngine | Promise<SqlEngine>;
  /** the report the cells are rendered for; null renders nothing (states only) */
  report?: ReportKind | null;
  embedData?: boolean;
  /** per-cell cap on what a report embeds, characters (default 4,000,000) */
  maxCellChars?: number;
  /** heap limit of the worker, MB (default: half the machine's memory, at most 4096) */
  memoryMb?: number;
  /** the most rows and Arrow bytes one query may hand a cell (DEFAULT_RESULT_CAPS for any not given) */
  resultCaps?: Partial<ResultCaps>;
}

export interface Stopped {
  reason: "timeout" | "memory" | "crash";
  message: string;
  /** the cells that were running (or kept producing values) when the worker was stopped */
  cells: string[];
}

/** A cell's state rebuilt from its last record; displays are the record's rendered HTML (PreRendered). */
export interface IsolatedResult {
  path: string;
  notebook: Notebook;
  records: CellRecord[];
  states: CellState[];
  checks: CheckResult[];
  failedCells: CellState[];
  /** cells whose runs lack a table they read (and their dependents): listed with the reason, not failed */
  notApplicableCells: CellState[];
  failedChecks: CheckResult[];
  /** runs that failed to load in part or whole */
  loadErrors: string[];
  /** what was wrong with --set (a name no input has, a value its input could not take), then the inputs */
  setErrors: string[];
  provenance: Provenance;
  stopped: Stopped | null;
  ms: { load: number; run: number };
  close(): Promise<void>;
}

/** the compiled worker, relative to this source file: defined by cli/build-cli.mjs; undeclared from sources */
declare const JANKBOOK_COMPILED_WORKER: string | undefined;
// The compiled CLI starts the worker it compiled beside itself (no TypeScript loader to register); from
// sources, the boot registers tsx. In a chunk, import.meta.url still names this source file (build-cli.mjs).
const BOOT =
  typeof JANKBOOK_COMPILED_WORKER === "string"
    ? new URL(JANKBOOK_COMPILED_WORKER, import.meta.url)
    : new URL("./cell-worker-boot.mjs", import.meta.url);
/** how long the worker may take to load its modules (seen: 2 s idle, 5 s at load 19 on 2 cores) */
const BOOT_MS = 120_000;

/** What the worker said, kept in order from its start (before the runs were loaded) */
type WorkerEvent =
  | { kind: "message"; message: WorkerMessage }
  | { kind: "error"; error: Error & { code?: string } }
  | { kind: "exit"; code: number };

export async function runNotebookIsolated(
  path: string,
  options: IsolatedOptions = {},
): Promise<IsolatedResult> {
  // DuckDB-WASM in a thread of its own unless the caller brings an engine: its queries block the thread they
  // run in, and this one must stay free to stop them at --timeout (threaded-engine.ts).
  const ownEngine = !options.engine;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const memoryMb = options.memoryMb ?? Math.min(4096, Math.floor(totalmem() / 2 / 2 ** 20));
  // The worker loads its modules while the engine starts and the runs load (seconds each); it waits for the
  // notebook in its first message. What it says before then is kept for the loop below.
  const worker = new Worker(BOOT, {
    workerData: null,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    stdout: false,
    stderr: false,
  });
  const early: WorkerEvent[] = [];
  let onEvent = (e: WorkerEvent): void => {
    early.push(e);
  };
  worker.on("message", (m: WorkerMessage) => onEvent({ kind: "message", message: m }));
  worker.on("error", (error: Error & { code?: string }) => onEvent({ kind: "error", error }));
  worker.on("exit", (code: number) => onEvent({ kind: "exit", code }));
  let opened: Awaited<ReturnType<typeof openNotebookRuns>>;
  try {
    opened = await openNotebookRuns(path, {
      ...options,
      engine: (await options.engine) ?? (await createThreadedNodeEngine()),
    });
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  const { progress, notebook, engine, runs, t0, t1 } = opened;
  // --max-memory bounds DuckDB too: a query over it fails with DuckDB's out-of-memory error, naming its cell.
  if (options.memoryMb) await engine.query(`SET memory_limit = '${Math.floor(options.memoryMb)}MB'`);
  // Said up front, so a report on a big run states the bounds it ran within (docs/scaling.md).
  const duckdbLimit = await engine
    .query("SELECT current_setting('memory_limit') AS m")
    .then((t) => String(t.getChild("m")?.get(0)))
    .catch(() => "its default");
  progress(
    `memory: the cells' heap up to ${memoryMb} MB, DuckDB up to ${duckdbLimit}${options.memoryMb ? " (--max-memory)" : " (--max-memory MB bounds both)"}`,
  );
  const channel = new MessageChannel();
  const served = serveEngine(channel.port1, engine, {
    maxRows: options.resultCaps?.maxRows ?? DEFAULT_RESULT_CAPS.maxRows,
    maxBytes: options.resultCaps?.maxBytes ?? DEFAULT_RESULT_CAPS.maxBytes,
  });
  const init: WorkerInit & { port: unknown } = {
    path,
    set: options.set ?? {},
    runs,
    report: options.report ?? null,
    embedData: options.embedData ?? false,
    maxCellChars: options.maxCellChars ?? 4_000_000,
    origins: timeOrigins().filter(([id]) => runs.some((r) => r.run_id === id)),
    port: channel.port2,
  };
  worker.postMessage(init, [channel.port2]);
  const records = new Map<string, CellRecord>();
  let inputs: Provenance["inputs"] = [];
  let setErrors: string[] = [];
  const outcome = await new Promise<Stopped | null>((resolve) => {
    // The cells' budget starts when the worker is ready; its start-up (loading modules) gets a budget of its own.
    const stop = (message: string) => () => finish({ reason: "timeout", message, cells: [] });
    let timer = setTimeout(stop(`did not start within ${BOOT_MS / 1000} s`), BOOT_MS);
    const finish = (s: Stopped | null) => {
      clearTimeout(timer);
      resolve(s);
    };
    const onMessage = (m: WorkerMessage) => {
      if (m.type === "ready") {
        clearTimeout(timer);
        timer = setTimeout(stop(`still running after ${timeoutMs / 1000} s (--timeout)`), timeoutMs);
      } else if (m.type === "progress") progress(m.line);
      else if (m.type === "cell") {
        records.set(m.record.id, m.record);
      } else if (m.type === "inputs") inputs = m.inputs;
      else if (m.type === "set-errors") setErrors = m.errors;
      else if (m.type === "done") finish(null);
      else finish({ reason: "crash", message: `the notebook worker failed: ${m.message}`, cells: [] });
    };
    const onError = (e: Error & { code?: string }) =>
      finish(
        e.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? {
              reason: "memory",
              message: `ran out of memory (the cells' heap is limited to ${memoryMb} MB)`,
              cells: [],
            }
          : { reason: "crash", message: `the notebook worker crashed: ${e.message}`, cells: [] },
      );
    const onExit = (code: number) =>
      finish({
        reason: "crash",
        // Exit 0 before "done": the worker's event loop emptied, so what a cell awaits has nothing left to
        // settle it (a promise nothing resolves), not a crash.
        message:
          code === 0
            ? "waits on a promise that can never settle (the notebook worker had nothing left to run)"
            : `the notebook worker exited (code ${code}) before the cells settled`,
        cells: [],
      });
    onEvent = (e) => {
      if (e.kind === "message") onMessage(e.message);
      else if (e.kind === "error") onError(e.error);
      else onExit(e.code);
    };
    for (const e of early.splice(0)) onEvent(e);
  });
  // Done or not, the worker goes: timers and generators a cell left behind die with it.
  await worker.terminate();
  // And the query it left running: interrupted (native), or its engine thread ended (DuckDB-WASM).
  if (outcome && "stop" in engine)
    await (engine as ThreadedEngine).stop(`the notebook was stopped: ${outcome.message}`);
  if (outcome) await served.stop();
  channel.port1.close();
  const t2 = performance.now();
  const order = cellsOf(notebook);
  const list = order.map(
    (c): CellRecord =>
      records.get(c.id) ?? {
        id: c.id,
        kind: c.kind,
        name: c.name,
        defines: [],
        references: [],
        status: "pending",
        runs: 0,
        started: 0,
        checks: [],
      },
  );
  if (outcome) {
    // Running: its code started and did not return. Else, when every cell had settled, the ones that kept
    // changing in the last second (a generator or a timer) kept the notebook from settling.
    // The overrunning cell: the last one to start among those still running (a cell that blocks the worker
    // keeps any later one from starting). Else, when every cell had settled, a generator that never ended.
    const running = list.filter((r) => r.status === "pending" && r.runs > 0);
    const culprit = running.reduce<CellRecord | null>((a, r) => (a && a.started > r.started ? a : r), null);
    const generators = list.filter((r) => r.status === "fulfilled" && r.generators?.length);
    outcome.cells = culprit
      ? [cellLabel(culprit)]
      : generators.map((r) => `${cellLabel(r)} (generator ${r.generators!.join(", ")} never ended)`);
    const why = `${outcome.cells.join("; ") || "the notebook"} ${outcome.message}`;
    for (const r of list) {
      if (r.status !== "pending") continue;
      r.status = "rejected";
      r.error =
        r === culprit
          ? `stopped: ${outcome.message}`
          : r.runs > 0
            ? `stopped while waiting: ${why}`
            : `not run: the notebook was stopped (${why})`;
    }
    progress(`stopped: ${why}`);
  } else if (
    failUnsettledCells(list, "never settled: the notebook worker finished without this cell's result")
  )
    progress("warning: the notebook worker finished with cells that never settled; they count as failed");
  const states = list.map((r): CellState => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    defines: r.defines,
    references: r.references,
    status: r.status,
    error: r.error,
    notApplicable: r.notApplicable,
    displays: (r.html ?? []).map((h) => new PreRendered(h)),
    checks: r.checks,
    undefinedReferences: [],
    runs: r.runs,
    ms: r.ms,
  }));
  const checks = states.flatMap((s) => s.checks);
  return {
    path,
    notebook,
    records: list,
    states,
    checks,
    failedCells: states.filter(cellFailed),
    notApplicableCells: states.filter(cellNotApplicable),
    failedChecks: checks.filter((c) => !c.ok),
    loadErrors: runs.flatMap((r) => r.errors.map((e) => (r.failed ? `run ${r.dir}: ${e}` : e))),
    setErrors,
    provenance: notebookProvenance({
      notebook: path,
      title: notebook.frontMatter?.title,
      runs,
      jankbookVersion: await jankbookVersion(),
      inputs,
    }),
    stopped: outcome,
    ms: { load: t1 - t0, run: t2 - t1 },
    async close() {
      if (ownEngine) await engine.close();
    },
  };
}
