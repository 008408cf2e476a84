// Call records from method trace events (AndroScope TraceBridge, §V-2): enter/exit pairing per thread,
// with explicit handling of traces that start inside calls, calls still open at the end, and exits that
// do not match the top of the stack (setjmp/longjmp: dummy exits for the frames above, at the same time).
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../bundle/table-builder";
import { requireColumns } from "../common/require-columns";
import type { MethodTrace, TraceRecords } from "../../collectors/sources/method-trace";

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
  // Per-call columns, grown as calls are opened.
  const tid: number[] = [];
  const method: number[] = [];
  const parent: number[] = [];
  const enter: number[] = [];
  const exit: number[] = [];
  const cEnter: number[] = [];
  const cExit: number[] = [];
  const synthExit: boolean[] = [];
  const synthEnter: boolean[] = [];
  const unwound: boolean[] = [];
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
    const id = method.length;
    tid.push(th);
    method.push(m);
    parent.push(-1);
    enter.push(at);
    exit.push(at);
    cEnter.push(atCpu);
    cExit.push(atCpu);
    synthExit.push(false);
    synthEnter.push(fromStart);
    unwound.push(false);
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
    synthExit[id] = synthetic;
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
      while (t.stack.length) close(t.stack.pop()!, at, atCpu, true), repairs.popped++;
      const id = open(t, th, m, 0, 0, true);
      for (const child of t.tops) parent[child] = id;
      t.tops = [id];
      close(id, at, atCpu, false);
      unwound[id] = a === 2;
      repairs.unmatchedAtStart++;
      continue;
    }
    while (t.stack.length - 1 > k) close(t.stack.pop()!, at, atCpu, true), repairs.popped++;
    const id = t.stack.pop()!;
    close(id, at, atCpu, false);
    unwound[id] = a === 2;
  }
  // Calls still open when tracing stopped end at the thread's last record.
  for (const t of threads.values())
    while (t.stack.length) close(t.stack.pop()!, t.last, t.lastCpu, true), repairs.openAtEnd++;

  return { table: toTable(), repairs };

  function toTable(): Table {
    const count = method.length;
    // Rows ordered by thread (first appearance), then entry time, outer calls first.
    const depth = depths(parent);
    const firstSeen = new Map<number, number>();
    for (let i = 0; i < count; i++) if (!firstSeen.has(tid[i]!)) firstSeen.set(tid[i]!, firstSeen.size);
    const order = Array.from({ length: count }, (_, i) => i).sort(
      (x, y) => firstSeen.get(tid[x]!)! - firstSeen.get(tid[y]!)! || enter[x]! - enter[y]! || depth[x]! - depth[y]! || x - y,
    );
    const rowOf = new Int32Array(count);
    order.forEach((old, row) => (rowOf[old] = row));
    const childSum = new Float64Array(count);
    const childCpu = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const p = parent[i]!;
      if (p < 0) continue;
      childSum[p] = childSum[p]! + exit[i]! - enter[i]!;
      childCpu[p] = childCpu[p]! + cExit[i]! - cEnter[i]!;
    }
    const big = (f: (i: number) => number) => {
      const out = new BigInt64Array(count);
      order.forEach((i, row) => (out[row] = BigInt(Math.round(f(i)))));
      return out;
    };
    const pick = <T>(a: T[]) => order.map((i) => a[i]!);
    return makeBundleTable(
      "calls",
      trace.runId ?? "trace",
      {
        call_id: Int32Array.from(order, (_, row) => row),
        thread_id: Int32Array.from(order, (i) => tid[i]!),
        method_id: big((i) => method[i]!),
        depth: Int32Array.from(order, (i) => depth[i]!),
        parent: order.map((i) => (parent[i]! < 0 ? null : rowOf[parent[i]!]!)),
        enter: big((i) => enter[i]!),
        exit: big((i) => exit[i]!),
        inclusive: big((i) => exit[i]! - enter[i]!),
        exclusive: big((i) => exit[i]! - enter[i]! - childSum[i]!),
        ...(cpu
          ? {
              cpu_inclusive: big((i) => cExit[i]! - cEnter[i]!),
              cpu_exclusive: big((i) => cExit[i]! - cEnter[i]! - childCpu[i]!),
            }
          : {}),
        synthetic_exit: pick(synthExit),
        synthetic_enter: pick(synthEnter),
        unwound: pick(unwound),
      },
      count,
    );
  }
}

/** Depth of each call from its parent chain (adopting calls are created after their children). */
function depths(parent: number[]): Int32Array {
  const d = new Int32Array(parent.length).fill(-1);
  const chain: number[] = [];
  for (let i = 0; i < parent.length; i++) {
    let j = i;
    while (j >= 0 && d[j] === -1) chain.push(j), (j = parent[j]!);
    let base = j < 0 ? -1 : d[j]!;
    while (chain.length) d[chain.pop()!] = ++base;
  }
  return d;
}

/** Records from a method_events table (e.g. one read back from a bundle). */
function recordsFromEvents(events: Table): TraceRecords {
  requireColumns(events, { thread_id: "int32", method_id: "int64", action: "utf8" }, "method_events");
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
