// A method trace's bundle tables (bundle/schema.ts): methods and threads from its key, method_events as
// recorded and the calls rebuilt from them (AndroScope §IV and TraceBridge §V).
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import type { TableName } from "../bundle/schema";
import { buildCallsWithRepairs, type CallsResult } from "./method-trace-calls";
import type { MethodTrace, TraceMethod, TraceThread } from "./sources/method-trace";

export interface MethodTraceTables {
  tables: Partial<Record<TableName, Table>>;
  /** what the reader had to repair; expected in real traces (tracing starts and stops inside calls) */
  note: string | null;
}

/** `trace` must have been read with the bundle's run id (readMethodTrace's runId option). */
export function methodTraceTables(trace: MethodTrace, runId: string): MethodTraceTables {
  const { table: calls, repairs } = buildCallsWithRepairs(trace);
  return {
    tables: { ...keyTables(trace.methods, trace.threads, runId), method_events: trace.events, calls },
    note: repairsNote(repairs),
  };
}

/** The methods and threads tables of a trace's key. */
export function keyTables(
  m: readonly TraceMethod[],
  threads: readonly TraceThread[],
  runId: string,
): { methods: Table; threads: Table } {
  const methods = makeBundleTable(
    "methods",
    runId,
    {
      method_id: m.map((x) => x.id),
      class_name: m.map((x) => x.className),
      method_name: m.map((x) => x.methodName),
      signature: m.map((x) => x.signature),
      source_file: m.map((x) => x.sourceFile ?? null),
    },
    m.length,
  );
  const threadTable = makeBundleTable(
    "threads",
    runId,
    { thread_id: threads.map((t) => t.id), name: threads.map((t) => t.name) },
    threads.length,
  );
  return { methods, threads: threadTable };
}

/** What the call pairing repaired, said once; null when nothing was. */
export function repairsNote(repairs: CallsResult["repairs"]): string | null {
  return repairs.unmatchedAtStart || repairs.popped || repairs.openAtEnd
    ? `${repairs.unmatchedAtStart} calls began before tracing, ${repairs.openAtEnd} were still open at the end, ${repairs.popped} frames were closed by an exit further down the stack`
    : null;
}
