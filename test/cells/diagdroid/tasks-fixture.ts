// Small tasks tables for the DiagDroid tests, times in ms (converted to int64 ns).
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../../bundle/table-builder";

export interface T {
  id: number;
  unit?: string;
  cap?: number | null;
  s: number;
  b?: number | null;
  e?: number | null;
  ctx?: number;
  cls?: string;
}

const ns = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : BigInt(Math.round(ms * 1e6));

export function tasksTable(rows: readonly T[], runId = "r"): Table {
  return makeBundleTable("tasks", runId, {
    task_id: rows.map((r) => BigInt(r.id)),
    category: rows.map(() => "async_task"),
    executor_id: rows.map((r) => r.unit ?? "AsyncTask$SerialExecutor@1"),
    pool_capacity: rows.map((r) => (r.cap === undefined ? 1 : r.cap)),
    task_class: rows.map((r) => r.cls ?? "RetrieveInfoTask"),
    scheduled: rows.map((r) => ns(r.s)),
    started: rows.map((r) => ns(r.b)),
    ended: rows.map((r) => ns(r.e)),
    thread_name: rows.map((r) => `t${r.id}`),
    context_id: rows.map((r) => r.ctx ?? 0),
  });
}
