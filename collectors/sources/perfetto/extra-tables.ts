// Tables only a Perfetto trace fills beside the shared trace tables: packages (packages_list), and its android.log
// lines into logcat and, typed, log_events, as the logcat importer fills them (collectors/import/logcat.ts).
import type { Table } from "apache-arrow";
import type { TableName } from "../../../bundle/schema";
import { bundleTableFromRows } from "../../../bundle/table-builder";
import { logEvents } from "../log-events";
import type { TraceRows } from "./rows";

export function traceExtraTables(rows: TraceRows, runId: string): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
  const binder = rows.binder;
  if (binder?.length) {
    // The per-tid maps finishRows fills from every thread, named or not; a tid that is a pid is that process's.
    const names = rows.threadStateColumns?.names ?? new Map(rows.threads.map((t) => [t.tid, t.name]));
    const pids = rows.threadStateColumns?.pids ?? new Map<number, number>();
    const isPid = new Set(rows.processes.map((p) => p.pid));
    const name = (tid: number | null) => (tid === null ? null : (names.get(tid) ?? null));
    const pid = (tid: number | null) =>
      tid === null ? null : (pids.get(tid) ?? (isPid.has(tid) ? tid : null));
    out.binder_transactions = bundleTableFromRows("binder_transactions", runId, binder, {
      client_pid: (r) => pid(r.client_tid),
      client_thread: (r) => name(r.client_tid),
      server_pid: (r) => r.server_pid ?? pid(r.server_tid),
      server_thread: (r) => name(r.server_tid),
    });
  }
  if (rows.packages?.length) out.packages = bundleTableFromRows("packages", runId, rows.packages);
  const log = rows.log;
  if (log?.length) {
    out.logcat = bundleTableFromRows("logcat", runId, log, {
      ts: (l) => l.mono_ns,
      wall_time: (l) => l.wall,
      pid: (l) => (l.pid >= 0 ? l.pid : null),
    });
    const events = logEvents(log);
    if (events.length) out.log_events = bundleTableFromRows("log_events", runId, events);
  }
  return out;
}
