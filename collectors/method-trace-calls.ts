// The calls table, a collector stage: call records from method trace events (AndroScope TraceBridge, §V-2): enter/exit pairing per thread,
// with explicit handling of traces that start inside calls, calls still open at the end, and exits that
// do not match the top of the stack (setjmp/longjmp: dummy exits for the frames above, at the same time).
import type { Table } from "apache-arrow";
import { requireColumns } from "../bundle/require-columns";
import { makeBundleTable } from "../bundle/table-builder";
import type { MethodTrace, TraceRecords } from "./sources/method-trace";

export interface CallsResult {
  table: Table;
  /** counts of the repairs made, for the notebook to show next to the tree */
  repairs: { unmatchedAtStart: number; popped: number; openAtEnd: number };
}

/** The calls table (bundle/schema.ts "calls") for a trace, with the trace's run id ("trace" by default). */
export function buildCalls(trace: MethodTrace): Table {
  return buildCallsWithRepairs(trace).table;
}

export function buildCallsWithRepairs(trace: MethodTrace): CallsResult {
  const r = trace.records ?? recordsFromEvents(trace.events);
  const n = r.action.length;
  // The primary clock: wall when recorded, else thread CPU (Dalvik v1 thread-cpu traces).
  const primary = r.wall ?? r.threadCpu ?? new Float64Array(n);
  const cpu = r.threadCpu;
  // Per-call columns: at most one call per record, so sized once.
  const tid = new Int32Array(n);
  const method = new Float64Array(n);
  const parent = new Int32Array(n);
  const enter = new Float64Array(n);
  const exit = new Float64Array(n);
  const cEnter = new Float64Array(n);
  const cExit = new Float64Array(n);
  const synthExit = new Uint8Array(n);
  const synthEnter = new Uint8Array(n);
  const unwound = new Uint8Array(n);
  let count = 0;
  interface ThreadState {
    stack: number[];
    /** calls with no caller yet: adopted by a later exit that has no entry (§V-1, tracing began inside it) */
    tops: number[];
    last: number;
    lastCpu: number;
  }
  const threads = new Map<number, ThreadState>();
  const repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };

  const open = (t: ThreadState, th: number, m: number, at: number, atCpu: number, fromStart: boolean) => {
    const id = count++;
    tid[id] = th;
    method[id] = m;
    parent[id] = -1;
    enter[id] = exit[id] = at;
    cEnter[id] = cExit[id] = atCpu;
    synthEnter[id] = fromStart ? 1 : 0;
    if (fromStart) return id;
    const caller = t.stack[t.stack.length - 1];
    if (caller === undefined) t.tops.push(id);
    else parent[id] = caller;
    t.stack.push(id);
    return id;
  };
  const close = (id: number, at: number, atCpu: number, synthetic: boolean) => {
    exit[id] = at;
    cExit[id] = atCpu;
    synthExit[id] = synthetic ? 1 : 0;
  };

  for (let i = 0; i < n; i++) {
    const th = r.threadId[i]!;
    const m = r.methodId[i]!;
    const a = r.action[i]!;
    const at = primary[i]!;
    const atCpu = cpu ? cpu[i]! : 0;
    let t = threads.get(th);
    if (!t) threads.set(th, (t = { stack: [], tops: [], last: at, lastCpu: atCpu }));
    t.last = at;
    t.lastCpu = atCpu;
    if (a === 0) {
      open(t, th, m, at, atCpu, false);
      continue;
    }
    // exit (1) or unwind (2): find the frame; frames above it were left without exits (longjmp, §V-2).
    let k = t.stack.length - 1;
    while (k >= 0 && method[t.stack[k]!] !== m) k--;
    if (k < 0) {
      // No entry on the stack: the call began before tracing did. Close everything open, then
      // make a call from the trace start that encloses every caller-less call so far.
      while (t.stack.length) (close(t.stack.pop()!, at, atCpu, true), repairs.popped++);
      const id = open(t, th, m, 0, 0, true);
      for (const child of t.tops) parent[child] = id;
      t.tops = [id];
      close(id, at, atCpu, false);
      unwound[id] = a === 2 ? 1 : 0;
      repairs.unmatchedAtStart++;
      continue;
    }
    while (t.stack.length - 1 > k) (close(t.stack.pop()!, at, atCpu, true), repairs.popped++);
    const id = t.stack.pop()!;
    close(id, at, atCpu, false);
    unwound[id] = a === 2 ? 1 : 0;
  }
  // Calls still open when tracing stopped end at the thread's last record.
  for (const t of threads.values())
    while (t.stack.length) (close(t.stack.pop()!, t.last, t.lastCpu, true), repairs.openAtEnd++);

  return { table: toTable(), repairs };

  function toTable(): Table {
    const depth = depths(parent, count);
    const order = rowOrder(tid, enter, depth, count);
    const rowOf = new Int32Array(count);
    for (let row = 0; row < count; row++) rowOf[order[row]!] = row;
    const childSum = new Float64Array(count);
    const childCpu = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const p = parent[i]!;
      if (p < 0) continue;
      childSum[p] = childSum[p]! + exit[i]! - enter[i]!;
      childCpu[p] = childCpu[p]! + cExit[i]! - cEnter[i]!;
    }
    // Columns in row order, computed in plain loops (a closure per value costs more than the pairing).
    const col = () => new Float64Array(count);
    const [m, en, ex, inc, exc, ci, ce] = [col(), col(), col(), col(), col(), col(), col()];
    const th = new Int32Array(count);
    const dp = new Int32Array(count);
    const se = new Uint8Array(count);
    const sn = new Uint8Array(count);
    const uw = new Uint8Array(count);
    const par: (number | null)[] = new Array(count);
    for (let row = 0; row < count; row++) {
      const i = order[row]!;
      th[row] = tid[i]!;
      dp[row] = depth[i]!;
      m[row] = method[i]!;
      en[row] = enter[i]!;
      ex[row] = exit[i]!;
      inc[row] = exit[i]! - enter[i]!;
      exc[row] = inc[row]! - childSum[i]!;
      ci[row] = cExit[i]! - cEnter[i]!;
      ce[row] = ci[row]! - childCpu[i]!;
      se[row] = synthExit[i]!;
      sn[row] = synthEnter[i]!;
      uw[row] = unwound[i]!;
      par[row] = parent[i]! < 0 ? null : rowOf[parent[i]!]!;
    }
    return makeBundleTable(
      "calls",
      trace.runId ?? "trace",
      {
        call_id: Int32Array.from({ length: count }, (_, row) => row),
        thread_id: th,
        method_id: int64(m),
        depth: dp,
        parent: par,
        enter: int64(en),
        exit: int64(ex),
        inclusive: int64(inc),
        exclusive: int64(exc),
        ...(cpu ? { cpu_inclusive: int64(ci), cpu_exclusive: int64(ce) } : {}),
        synthetic_exit: se,
        synthetic_enter: sn,
        unwound: uw,
      },
      count,
    );
  }
}

/** Rounded values as int64: two 32-bit words (little-endian) for the usual non-negative values, BigInt otherwise. */
function int64(values: Float64Array): BigInt64Array {
  const out = new BigInt64Array(values.length);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const v = Math.round(values[i]!);
    if (v >= 0 && v <= Number.MAX_SAFE_INTEGER) {
      words[2 * i] = v % 4294967296;
      words[2 * i + 1] = Math.floor(v / 4294967296);
    } else out[i] = BigInt(Number.isFinite(v) ? v : 0);
  }
  return out;
}

/** Rows by thread (first appearance), then entry time, outer calls first; calls are mostly made in that order already. */
function rowOrder(tid: Int32Array, enter: Float64Array, depth: Int32Array, count: number): Int32Array {
  const rank = new Map<number, number>();
  const rankOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    let k = rank.get(tid[i]!);
    if (k === undefined) rank.set(tid[i]!, (k = rank.size));
    rankOf[i] = k;
  }
  const start = new Int32Array(rank.size + 1);
  for (let i = 0; i < count; i++) start[rankOf[i]! + 1] = start[rankOf[i]! + 1]! + 1;
  for (let k = 0; k < rank.size; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const fill = start.slice();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[fill[rankOf[i]!]!++] = i;
  const before = (x: number, y: number) => enter[x]! - enter[y]! || depth[x]! - depth[y]! || x - y;
  for (let k = 0; k < rank.size; k++) {
    const slice = order.subarray(start[k]!, start[k + 1]!);
    let sorted = true;
    for (let j = 1; j < slice.length && sorted; j++) sorted = before(slice[j - 1]!, slice[j]!) < 0;
    if (!sorted) slice.sort(before);
  }
  return order;
}

/** Depth of each call from its parent chain (adopting calls are created after their children). */
function depths(parent: Int32Array, count: number): Int32Array {
  const d = new Int32Array(count).fill(-1);
  const chain: number[] = [];
  for (let i = 0; i < count; i++) {
    let j = i;
    while (j >= 0 && d[j] === -1) (chain.push(j), (j = parent[j]!));
    let base = j < 0 ? -1 : d[j]!;
    while (chain.length) d[chain.pop()!] = ++base;
  }
  return d;
}

/** Records from a method_events table (e.g. one read back from a bundle). */
function recordsFromEvents(events: Table): TraceRecords {
  requireColumns(events.schema, "method_events", {
    thread_id: { type: "int32" },
    method_id: { type: "int64" },
    action: { type: "utf8" },
  });
  const n = events.numRows;
  const col = (name: string) => events.getChild(name);
  const threadId = Int32Array.from(col("thread_id")!.toArray() as Int32Array);
  const methodId = Float64Array.from(col("method_id")!.toArray() as BigInt64Array, Number);
  const actionCol = col("action")!;
  const action = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = actionCol.get(i);
    action[i] = v === "enter" ? 0 : v === "exit" ? 1 : v === "unwind" ? 2 : 1;
  }
  const times = (name: string) => {
    const v = col(name);
    if (!v || v.nullCount === n) return null;
    return Float64Array.from(v.toArray() as BigInt64Array, Number);
  };
  return { threadId, methodId, action, wall: times("wall"), threadCpu: times("thread_cpu") };
}
