// The calls table (bundle/schema.ts "calls") as typed arrays, for the analyses that walk call trees.
import type { Table } from "apache-arrow";
import { int32, int64, optional, readColumns } from "../../bundle/read-columns";

export interface CallColumns {
  n: number;
  threadId: Int32Array;
  methodId: Float64Array;
  depth: Int32Array;
  /** row of the caller, -1 for an outermost call (the parent column holds call ids; this is the row) */
  parent: Int32Array;
  enter: Float64Array;
  exit: Float64Array;
  inclusive: Float64Array;
  exclusive: Float64Array;
  cpuInclusive: Float64Array | null;
  cpuExclusive: Float64Array | null;
}

/** Reads the columns every call-tree analysis needs; names the missing one, refuses several runs mixed. */
export function readCallColumns(calls: Table): CallColumns {
  const c = readColumns(calls, "calls", {
    thread_id: int32(),
    method_id: int64(0),
    parent: int32(-1),
    inclusive: int64(0),
    exclusive: int64(0),
    call_id: int32(),
    depth: int32(),
    enter: int64(0),
    exit: int64(0),
    cpu_inclusive: optional(int64(0)),
    cpu_exclusive: optional(int64(0)),
  });
  requireSingleRun(calls);
  const cpuInc = calls.getChild("cpu_inclusive");
  const hasCpu = !!cpuInc && cpuInc.nullCount < calls.numRows;
  return {
    n: calls.numRows,
    threadId: c.thread_id,
    methodId: c.method_id,
    depth: c.depth,
    parent: parentRows(c.call_id, c.parent),
    enter: c.enter,
    exit: c.exit,
    inclusive: c.inclusive,
    exclusive: c.exclusive,
    cpuInclusive: hasCpu ? c.cpu_inclusive : null,
    cpuExclusive: hasCpu ? c.cpu_exclusive : null,
  };
}

/** Call ids are per run: a table holding several runs' calls would join callers across runs. */
function requireSingleRun(calls: Table): void {
  const runs = calls.getChild("run_id");
  if (!runs || calls.numRows === 0) return;
  const first = runs.get(0);
  for (let i = 1; i < calls.numRows; i++) {
    const r = runs.get(i);
    if (r !== first)
      throw new Error(
        `calls holds several runs (${String(first)}, ${String(r)}): select one run's calls (WHERE run_id = ...)`,
      );
  }
}

/** Parent call ids as row indices: the identity when rows are in call_id order, else through a lookup. */
function parentRows(callId: Int32Array, parentId: Int32Array): Int32Array {
  const n = callId.length;
  let identity = true;
  for (let i = 0; i < n && identity; i++) identity = callId[i] === i;
  if (identity) {
    for (let i = 0; i < n; i++)
      if (parentId[i]! >= n)
        throw new Error(`calls row ${i}: parent ${parentId[i]} is not a call_id of this table`);
    return parentId;
  }
  const rowOf = new Map<number, number>();
  for (let i = 0; i < n; i++) rowOf.set(callId[i]!, i);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = parentId[i]!;
    if (p < 0) out[i] = -1;
    else {
      const row = rowOf.get(p);
      if (row === undefined)
        throw new Error(
          `calls row ${i}: parent ${p} is not a call_id of this table (a filtered table must keep every caller)`,
        );
      out[i] = row;
    }
  }
  return out;
}
