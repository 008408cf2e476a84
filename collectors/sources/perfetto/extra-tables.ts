// Tables only a Perfetto trace fills beside the shared trace tables: packages (packages_list), and its android.log
// lines into logcat and, typed, log_events, as the logcat importer fills them (collectors/import/logcat.ts).
import type { Table } from "apache-arrow";
import type { TableName } from "../../../bundle/schema";
import { bundleTableFromRows } from "../../../bundle/table-builder";
import { logEvents } from "../log-events";
import type { TraceRows } from "./rows";

export function traceExtraTables(rows: TraceRows, runId: string): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
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
