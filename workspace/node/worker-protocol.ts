// Messages between the headless runner and the notebook worker that runs the cells (isolated-run.ts,
// cell-worker.ts). Cells are reported as they change, already rendered for the report being written, so the
// runner can write it from what it has when it must stop the worker (a cell that never ends, or runs out of memory).
import type { CheckResult } from "../notebook/cell-state";
import type { RunInfo } from "./open-notebook-runs";

export type ReportKind = "html" | "json" | "md";

export interface WorkerInit {
  path: string;
  set: Record<string, unknown>;
  runs: RunInfo[];
  report: ReportKind | null;
  embedData: boolean;
  /** per-cell cap on what the report embeds, characters */
  maxCellChars: number;
  /** each run's start, ns (bundle/time-origins.ts): its tables show moments from it */
  origins: [runId: string, ns: number][];
}

/** One cell as the report needs it. */
export interface CellRecord {
  id: string;
  kind: "sql" | "ts";
  name?: string;
  defines: string[];
  references: string[];
  status: "pending" | "fulfilled" | "rejected";
  error?: string;
  /** rejected because its runs lack a table: what a run would need (cell-state.ts) */
  notApplicable?: string;
  ms?: number;
  /** times its code started */
  runs: number;
  /** order in which cells last started (0 = never): while one cell blocks the worker, no later one can start */
  started: number;
  checks: CheckResult[];
  /** html reports: each display rendered (and sanitized) */
  html?: string[];
  /** names it defines whose value is a generator (the runtime keeps pulling values from it) */
  generators?: string[];
  /** json reports: the cell's snapshot (snapshot.ts), or a note when it was over the cap */
  snapshot?: { values: Record<string, unknown>; value?: unknown; displays: unknown[] };
}

export type WorkerMessage =
  | { type: "ready" }
  | { type: "progress"; line: string }
  | { type: "cell"; record: CellRecord }
  | { type: "inputs"; inputs: { name: string; value: unknown; label?: string }[] }
  /** --set names no input has, values an input could not take, then the list of inputs (set-inputs.ts) */
  | { type: "set-errors"; errors: string[] }
  | { type: "done" }
  | { type: "failed"; message: string };
