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
  const b = new CallBuilder(r.threadCpu !== null);
  b.add(r);
  const done = b.finish();
  const [table] = done.tables(trace.runId ?? "trace", Math.max(1, done.count));
  return { table: table!, repairs: done.repairs };
}

interface ThreadState {
  stack: number[];
  /** calls with no caller yet: adopted by a later exit that has no entry (§V-1, tracing began inside it) */
  tops: number[];
  last: number;
  lastCpu: number;
}

/** The calls of a trace whose records come in batches, in order: the pairing state carries from one batch to
 * the next, and the rows are written out in batches at the end (finish().tables). */
export class CallBuilder {
  private count = 0;
  private cap = 0;
  private tid = new Int32Array(0);
  private method = new Float64Array(0);
  private parent = new Int32Array(0);
  private enter = new Float64Array(0);
  private exit = new Float64Array(0);
  private cEnter: Float64Array | null;
  private cExit: Float64Array | null;
  /** bit 0 synthetic exit, bit 1 synthetic enter (from the trace's start), bit 2 unwound */
  private flags = new Uint8Array(0);
  private readonly threads = new Map<number, ThreadState>();
  private readonly repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };

  /** `cpu`: the records have thread-CPU times (the cpu_inclusive and cpu_exclusive columns) */
  constructor(cpu: boolean) {
    this.cEnter = cpu ? new Float64Array(0) : null;
    this.cExit = cpu ? new Float64Array(0) : null;
  }

  /** Pairs a batch of records, which follows the batches added before. */
  add(r: TraceRecords): void {
    const n = r.action.length;
    // The primary clock: wall when recorded, else thread CPU (Dalvik v1 thread-cpu traces).
    const primary = r.wall ?? r.threadCpu;
    const cpu = this.cEnter ? r.threadCpu : null;
    const threads = this.threads;
    for (let i = 0; i < n; i++) {
      const th = r.threadId[i]!;
      const m = r.methodId[i]!;
      const a = r.action[i]!;
      const at = primary ? primary[i]! : 0;
      const atCpu = cpu ? cpu[i]! : 0;
      let t = threads.get(th);
      if (!t) threads.set(th, (t = { stack: [], tops: [], last: at, lastCpu: atCpu }));
      t.last = at;
      t.lastCpu = atCpu;
      if (a === 0) {
        this.open(t, th, m, at, atCpu, false);
        continue;
      }
      // exit (1) or unwind (2): find the frame; frames above it were left without exits (longjmp, §V-2).
      const method = this.method;
      let k = t.stack.length - 1;
      while (k >= 0 && method[t.stack[k]!] !== m) k--;
      if (k < 0) {
        // No entry on the stack: the call began before tracing did. Close everything open, then
        // make a call from the trace start that encloses every caller-less call so far.
        while (t.stack.length) (this.close(t.stack.pop()!, at, atCpu, true), this.repairs.popped++);
        const id = this.open(t, th, m, 0, 0, true);
        for (const child of t.tops) this.parent[child] = id;
        t.tops = [id];
        this.close(id, at, atCpu, false);
        if (a === 2) this.flags[id]! |= 4;
        this.repairs.unmatchedAtStart++;
        continue;
      }
      while (t.stack.length - 1 > k) (this.close(t.stack.pop()!, at, atCpu, true), this.repairs.popped++);
      const id = t.stack.pop()!;
      this.close(id, at, atCpu, false);
      if (a === 2) this.flags[id]! |= 4;
    }
  }

  private open(t: ThreadState, th: number, m: number, at: number, atCpu: number, fromStart: boolean): number {
    if (this.count === this.cap) this.grow();
    const id = this.count++;
    this.tid[id] = th;
    this.method[id] = m;
    this.parent[id] = -1;
    this.enter[id] = this.exit[id] = at;
    if (this.cEnter) this.cEnter[id] = this.cExit![id] = atCpu;
    this.flags[id] = fromStart ? 2 : 0;
    if (fromStart) return id;
    const caller = t.stack[t.stack.length - 1];
    if (caller === undefined) t.tops.push(id);
    else this.parent[id] = caller;
    t.stack.push(id);
    return id;
  }

  private close(id: number, at: number, atCpu: number, synthetic: boolean) {
    this.exit[id] = at;
    if (this.cExit) this.cExit[id] = atCpu;
    if (synthetic) this.flags[id]! |= 1;
  }

  private grow() {
    const cap = Math.max(1024, Math.ceil(this.cap * 1.5));
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(cap);
      b.set(a);
      return b;
    };
    this.tid = more(this.tid);
    this.method = more(this.method);
    this.parent = more(this.parent);
    this.enter = more(this.enter);
    this.exit = more(this.exit);
    if (this.cEnter) ((this.cEnter = more(this.cEnter)), (this.cExit = more(this.cExit!)));
    this.flags = more(this.flags);
    this.cap = cap;
  }

  /** Closes the calls still open (they end at their thread's last record) and orders the rows. */
  finish(): FinishedCalls {
    // Calls still open when tracing stopped end at the thread's last record.
    for (const t of this.threads.values())
      while (t.stack.length) (this.close(t.stack.pop()!, t.last, t.lastCpu, true), this.repairs.openAtEnd++);
    return new FinishedCalls(this.count, this.repairs, {
      tid: this.tid,
      method: this.method,
      parent: this.parent,
      enter: this.enter,
      exit: this.exit,
      cEnter: this.cEnter,
      cExit: this.cExit,
      flags: this.flags,
    });
  }
}

interface CallColumns {
  tid: Int32Array;
  method: Float64Array;
  parent: Int32Array;
  enter: Float64Array;
  exit: Float64Array;
  cEnter: Float64Array | null;
  cExit: Float64Array | null;
  flags: Uint8Array;
}

/** The paired calls, ordered: by thread (first appearance), then entry time, outer calls first. */
export class FinishedCalls {
  private readonly order: Int32Array;
  private readonly rowOf: Int32Array;
  private readonly depth: Int32Array;
  private readonly childSum: Float64Array;
  private readonly childCpu: Float64Array | null;

  constructor(
    readonly count: number,
    readonly repairs: CallsResult["repairs"],
    private readonly c: CallColumns,
  ) {
    const { parent, enter, exit, cEnter, cExit, tid } = c;
    this.depth = depths(parent, count);
    this.order = rowOrder(tid, enter, this.depth, count);
    this.rowOf = new Int32Array(count);
    for (let row = 0; row < count; row++) this.rowOf[this.order[row]!] = row;
    const childSum = (this.childSum = new Float64Array(count));
    const childCpu = (this.childCpu = cEnter ? new Float64Array(count) : null);
    for (let i = 0; i < count; i++) {
      const p = parent[i]!;
      if (p < 0) continue;
      childSum[p] = childSum[p]! + exit[i]! - enter[i]!;
      if (childCpu) childCpu[p] = childCpu[p]! + cExit![i]! - cEnter![i]!;
    }
  }

  /** The calls table (bundle/schema.ts "calls") in tables of at most `batchRows` rows, in row order. */
  *tables(runId: string, batchRows: number): Generator<Table> {
    for (let start = 0; start === 0 || start < this.count; start += batchRows)
      yield this.rows(runId, start, Math.min(this.count, start + batchRows));
  }

  private rows(runId: string, from: number, to: number): Table {
    const { tid, method, parent, enter, exit, cEnter, cExit, flags } = this.c;
    const { order, rowOf, depth, childSum, childCpu } = this;
    const count = to - from;
    // Columns in row order, computed in plain loops (a closure per value costs more than the pairing).
    const col = () => new Float64Array(count);
    const [m, en, ex, inc, exc, ci, ce] = [col(), col(), col(), col(), col(), col(), col()];
    const th = new Int32Array(count);
    const dp = new Int32Array(count);
    const se = new Uint8Array(count);
    const sn = new Uint8Array(count);
    const uw = new Uint8Array(count);
    const par: (number | null)[] = new Array(count);
    const ids = new Int32Array(count);
    for (let j = 0; j < count; j++) {
      const row = from + j;
      const i = order[row]!;
      ids[j] = row;
      th[j] = tid[i]!;
      dp[j] = depth[i]!;
      m[j] = method[i]!;
      en[j] = enter[i]!;
      ex[j] = exit[i]!;
      inc[j] = exit[i]! - enter[i]!;
      exc[j] = inc[j]! - childSum[i]!;
      if (cEnter) {
        ci[j] = cExit![i]! - cEnter[i]!;
        ce[j] = ci[j]! - childCpu![i]!;
      }
      const f = flags[i]!;
      se[j] = f & 1;
      sn[j] = (f >> 1) & 1;
      uw[j] = (f >> 2) & 1;
      par[j] = parent[i]! < 0 ? null : rowOf[parent[i]!]!;
    }
    return makeBundleTable(
      "calls",
      runId,
      {
        call_id: ids,
        thread_id: th,
        method_id: int64(m),
        depth: dp,
        parent: par,
        enter: int64(en),
        exit: int64(ex),
        inclusive: int64(inc),
        exclusive: int64(exc),
        ...(cEnter ? { cpu_inclusive: int64(ci), cpu_exclusive: int64(ce) } : {}),
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
