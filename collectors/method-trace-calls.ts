// The calls table, a collector stage: call records from method trace events (AndroScope TraceBridge, §V-2): enter/exit pairing per thread,
// with explicit handling of traces that start inside calls, calls still open at the end, and exits that
// do not match the top of the stack (setjmp/longjmp: dummy exits for the frames above, at the same time).
import type { Table, Vector } from "apache-arrow";
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
  /** open calls, innermost last, and their method ids (searched on every exit) */
  stack: number[];
  methods: number[];
  /** calls with no caller yet: adopted by a later exit that has no entry (§V-1, tracing began inside it) */
  tops: number[];
  last: number;
  lastCpu: number;
  /** the open calls' thread-CPU entry times (a call keeps only its CPU duration) */
  cpuEnter: number[];
}

/** Calls per page of the pairing state: it grows a page at a time, never copied while pairing. */
const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

/** One column of per-call state in pages: method ids and times in 4 bytes (µs) while they fit, which they
 * always do for trace.cc's records (u4 ids, u4 µs), 8 bytes once a value does not. */
class Paged<T extends Int32Array | Uint32Array | Uint16Array | Float64Array | Uint8Array> {
  pages: T[] = [];
  constructor(
    private make: new (n: number) => T,
    /** what one stored unit stands for (1000: a time stored in µs, read back in ns) */
    private unit = 1,
  ) {}
  addPage() {
    this.pages.push(new this.make(PAGE));
  }
  at(i: number): number {
    return this.pages[i >>> PAGE_BITS]![i & MASK]! * this.unit;
  }
  /** Stores `v`, widening the column first when its compact form cannot hold it (read back unequal). */
  set(i: number, v: number) {
    const page = this.pages[i >>> PAGE_BITS]!;
    const u = v / this.unit;
    page[i & MASK] = u;
    if (page[i & MASK] !== u) {
      this.widen();
      this.pages[i >>> PAGE_BITS]![i & MASK] = v;
    }
  }
  add(i: number, v: number) {
    this.set(i, this.at(i) + v);
  }
  /** Stores every value as a float64 from now on. */
  private widen(): void {
    if (this.make === (Float64Array as unknown)) return;
    const unit = this.unit;
    this.pages = this.pages.map((p) => Float64Array.from(p, (v) => v * unit) as T);
    this.make = Float64Array as unknown as new (n: number) => T;
    this.unit = 1;
  }
}

/** The calls of a trace whose records come in batches, in order: the pairing state carries from one batch to
 * the next, and the rows are written out in batches at the end (finish().tables). */
export class CallBuilder {
  private count = 0;
  // Thread ids in 2 bytes while they fit (trace.cc's are u2).
  private readonly tid = new Paged<Uint16Array | Float64Array>(Uint16Array);
  // Method ids and times in 4 bytes while they fit (always, for decoded traces), 8 once one does not.
  private readonly method = new Paged<Uint32Array | Float64Array>(Uint32Array);
  private readonly parent = new Paged(Int32Array);
  private readonly enter = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  private readonly exit = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  /** thread-CPU time inside each call (exit minus entry) */
  private readonly cpuInclusive: Paged<Uint32Array | Float64Array> | null;
  /** the sums of the closed children's inclusive times, in both clocks */
  private readonly childSum = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  private readonly childCpu: Paged<Uint32Array | Float64Array> | null;
  /** bit 0 synthetic exit, bit 1 synthetic enter (from the trace's start), bit 2 unwound */
  private readonly flags = new Paged(Uint8Array);
  private readonly threads = new Map<number, ThreadState>();
  private readonly repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };

  /** `cpu`: the records have thread-CPU times (the cpu_inclusive and cpu_exclusive columns) */
  constructor(cpu: boolean) {
    this.cpuInclusive = cpu ? new Paged<Uint32Array | Float64Array>(Uint32Array, 1000) : null;
    this.childCpu = cpu ? new Paged<Uint32Array | Float64Array>(Uint32Array, 1000) : null;
  }

  /** Pairs a batch of records, which follows the batches added before. */
  add(r: TraceRecords): void {
    const n = r.action.length;
    // The primary clock: wall when recorded, else thread CPU (Dalvik v1 thread-cpu traces).
    const primary = r.wall ?? r.threadCpu;
    const cpu = this.cpuInclusive ? r.threadCpu : null;
    const threads = this.threads;
    for (let i = 0; i < n; i++) {
      const th = r.threadId[i]!;
      const m = r.methodId[i]!;
      const a = r.action[i]!;
      const at = primary ? primary[i]! : 0;
      const atCpu = cpu ? cpu[i]! : 0;
      let t = threads.get(th);
      if (!t)
        threads.set(th, (t = { stack: [], methods: [], tops: [], last: at, lastCpu: atCpu, cpuEnter: [] }));
      t.last = at;
      t.lastCpu = atCpu;
      if (a === 0) {
        this.open(t, th, m, at, atCpu, false);
        continue;
      }
      // exit (1) or unwind (2): find the frame; frames above it were left without exits (longjmp, §V-2).
      let k = t.methods.length - 1;
      while (k >= 0 && t.methods[k] !== m) k--;
      if (k < 0) {
        // No entry on the stack: the call began before tracing did. Close everything open, then
        // make a call from the trace start that encloses every caller-less call so far.
        while (t.stack.length) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
        const id = this.open(t, th, m, 0, 0, true);
        for (const child of t.tops) {
          this.parent.set(child, id);
          this.credit(id, child);
        }
        t.tops = [id];
        this.close(id, at, atCpu, false, 0);
        if (a === 2) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
        this.repairs.unmatchedAtStart++;
        continue;
      }
      while (t.stack.length - 1 > k) (this.closeTop(t, at, atCpu, true), this.repairs.popped++);
      const id = this.closeTop(t, at, atCpu, false);
      if (a === 2) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 4;
    }
  }

  /** Closes the thread's innermost open call; returns its id. */
  private closeTop(t: ThreadState, at: number, atCpu: number, synthetic: boolean): number {
    t.methods.pop();
    const id = t.stack.pop()!;
    this.close(id, at, atCpu, synthetic, t.cpuEnter.pop()!);
    return id;
  }

  private open(t: ThreadState, th: number, m: number, at: number, atCpu: number, fromStart: boolean): number {
    const id = this.count++;
    const j = id & MASK;
    if (j === 0) this.addPage();
    const page = id >>> PAGE_BITS;
    this.tid.set(id, th);
    this.method.set(id, m);
    this.enter.set(id, at);
    this.exit.set(id, at);
    this.cpuInclusive?.set(id, 0);
    this.flags.pages[page]![j] = fromStart ? 2 : 0;
    this.childSum.set(id, 0);
    this.childCpu?.set(id, 0);
    const parent = this.parent.pages[page]!;
    parent[j] = -1;
    if (fromStart) return id;
    const caller = t.stack[t.stack.length - 1];
    if (caller === undefined) t.tops.push(id);
    else parent[j] = caller;
    t.stack.push(id);
    t.methods.push(m);
    t.cpuEnter.push(atCpu);
    return id;
  }

  private close(id: number, at: number, atCpu: number, synthetic: boolean, cpuEnter: number) {
    this.exit.set(id, at);
    this.cpuInclusive?.set(id, atCpu - cpuEnter);
    if (synthetic) this.flags.pages[id >>> PAGE_BITS]![id & MASK]! |= 1;
    const p = this.parent.pages[id >>> PAGE_BITS]![id & MASK]!;
    if (p >= 0) this.credit(p, id);
  }

  /** Adds a closed call's times to its parent's children's sums (for the parent's exclusive times). */
  private credit(parent: number, child: number) {
    this.childSum.add(parent, this.exit.at(child) - this.enter.at(child));
    if (this.childCpu) this.childCpu.add(parent, this.cpuInclusive!.at(child));
  }

  private addPage() {
    for (const c of [this.tid, this.method, this.parent, this.enter, this.exit, this.childSum, this.flags])
      c.addPage();
    for (const c of [this.cpuInclusive, this.childCpu]) c?.addPage();
  }

  /** Closes the calls still open (they end at their thread's last record) and orders the rows. */
  finish(): FinishedCalls {
    // Calls still open when tracing stopped end at the thread's last record.
    for (const t of this.threads.values())
      while (t.stack.length) (this.closeTop(t, t.last, t.lastCpu, true), this.repairs.openAtEnd++);
    const { tid, method, parent, enter, exit, cpuInclusive, flags, childSum, childCpu } = this;
    return new FinishedCalls(this.count, this.repairs, {
      tid,
      method,
      parent,
      enter,
      exit,
      cpuInclusive,
      flags,
      childSum,
      childCpu,
    });
  }
}

interface CallColumns {
  tid: Paged<Uint16Array | Float64Array>;
  method: Paged<Uint32Array | Float64Array>;
  parent: Paged<Int32Array>;
  enter: Paged<Uint32Array | Float64Array>;
  exit: Paged<Uint32Array | Float64Array>;
  cpuInclusive: Paged<Uint32Array | Float64Array> | null;
  flags: Paged<Uint8Array>;
  childSum: Paged<Uint32Array | Float64Array>;
  childCpu: Paged<Uint32Array | Float64Array> | null;
}

/** The paired calls, ordered: by thread (first appearance), then entry time, outer calls first. */
export class FinishedCalls {
  private readonly order: Int32Array;
  private readonly rowOf: Int32Array;
  private readonly depth: Int32Array;

  constructor(
    readonly count: number,
    readonly repairs: CallsResult["repairs"],
    private readonly c: CallColumns,
  ) {
    const { parent, enter, tid } = c;
    this.depth = depths(parent, count);
    this.order = rowOrder(tid, enter, this.depth, count);
    this.rowOf = new Int32Array(count);
    for (let row = 0; row < count; row++) this.rowOf[this.order[row]!] = row;
  }

  /** The calls table (bundle/schema.ts "calls") in tables of at most `batchRows` rows, in row order. Each
   * table's arrays are reused by the next one: write a table out before taking the next. */
  *tables(runId: string, batchRows: number): Generator<Table> {
    const size = Math.max(0, Math.min(batchRows, this.count));
    const b = {
      ids: new Int32Array(size),
      th: new Int32Array(size),
      dp: new Int32Array(size),
      // int32 parent as float64, NaN for null (makeBundleTable's nullable integer form)
      par: new Float64Array(size),
      se: new Uint8Array(size),
      sn: new Uint8Array(size),
      uw: new Uint8Array(size),
      int64: Array.from({ length: 8 }, () => new BigInt64Array(size)),
      constants: new Map<string, Vector>(),
    };
    for (let start = 0; start === 0 || start < this.count; start += batchRows)
      yield this.rows(runId, start, Math.min(this.count, start + batchRows), b);
  }

  private rows(runId: string, from: number, to: number, b: BatchBuffers): Table {
    const { tid, method, parent, enter, exit, cpuInclusive, flags } = this.c;
    const { childSum, childCpu } = this.c;
    const { order, rowOf, depth } = this;
    const count = to - from;
    const cut = <T extends Int32Array | Float64Array | Uint8Array | BigInt64Array>(a: T): T =>
      a.length === count ? a : (a.subarray(0, count) as T);
    const [m, en, ex, inc, exc, ci, ce] = b.int64.map(cut) as BigInt64Array[];
    const words = [m, en, ex, inc, exc, ci, ce].map(
      (a) => new Uint32Array(a!.buffer, a!.byteOffset, 2 * count),
    );
    const [mW, enW, exW, incW, excW, ciW, ceW] = words as Uint32Array[];
    const [ids, th, dp, par, se, sn, uw] = [b.ids, b.th, b.dp, b.par, b.se, b.sn, b.uw].map(cut) as [
      Int32Array,
      Int32Array,
      Int32Array,
      Float64Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    // Columns in row order, computed in plain loops (a closure per value costs more than the pairing).
    for (let j = 0; j < count; j++) {
      const row = from + j;
      const i = order[row]!;
      ids[j] = row;
      th[j] = tid.at(i);
      dp[j] = depth[i]!;
      put64(m!, mW!, j, method.at(i));
      const enterAt = enter.at(i);
      const exitAt = exit.at(i);
      put64(en!, enW!, j, enterAt);
      put64(ex!, exW!, j, exitAt);
      const inclusive = exitAt - enterAt;
      put64(inc!, incW!, j, inclusive);
      put64(exc!, excW!, j, inclusive - childSum.at(i));
      if (cpuInclusive) {
        const cpu = cpuInclusive.at(i);
        put64(ci!, ciW!, j, cpu);
        put64(ce!, ceW!, j, cpu - childCpu!.at(i));
      }
      const f = flags.at(i);
      se[j] = f & 1;
      sn[j] = (f >> 1) & 1;
      uw[j] = (f >> 2) & 1;
      const p = parent.at(i);
      par[j] = p < 0 ? NaN : rowOf[p]!;
    }
    return makeBundleTable(
      "calls",
      runId,
      {
        call_id: ids,
        thread_id: th,
        method_id: m!,
        depth: dp,
        parent: par,
        enter: en!,
        exit: ex!,
        inclusive: inc!,
        exclusive: exc!,
        ...(cpuInclusive ? { cpu_inclusive: ci!, cpu_exclusive: ce! } : {}),
        synthetic_exit: se,
        synthetic_enter: sn,
        unwound: uw,
      },
      count,
      { adopt: true, constants: b.constants },
    );
  }
}

interface BatchBuffers {
  ids: Int32Array;
  th: Int32Array;
  dp: Int32Array;
  par: Float64Array;
  se: Uint8Array;
  sn: Uint8Array;
  uw: Uint8Array;
  int64: BigInt64Array[];
  /** run_id and absent columns, shared by the batches */
  constants: Map<string, Vector>;
}

/** A rounded value into an int64 column: two 32-bit words (little-endian) for the usual non-negative values,
 * a BigInt otherwise. */
function put64(out: BigInt64Array, words: Uint32Array, j: number, value: number) {
  const v = Math.round(value);
  if (v >= 0 && v <= Number.MAX_SAFE_INTEGER) {
    words[2 * j] = v % 4294967296;
    words[2 * j + 1] = Math.floor(v / 4294967296);
  } else out[j] = BigInt(Number.isFinite(v) ? v : 0);
}

/** Rows by thread (first appearance), then entry time, outer calls first; calls are mostly made in that order already. */
function rowOrder(
  tid: Paged<Uint16Array | Float64Array>,
  enter: Paged<Uint32Array | Float64Array>,
  depth: Int32Array,
  count: number,
): Int32Array {
  // Each thread's rank by first appearance: a table for u2 ids, a Map for any other (a bundle read back).
  const table = new Int32Array(65536).fill(-1);
  const rank = new Map<number, number>();
  const rankOf = (t: number): number => {
    if (t === (t & 0xffff) && table[t]! >= 0) return table[t]!;
    let k = rank.get(t);
    if (k === undefined) rank.set(t, (k = rank.size));
    if (t === (t & 0xffff)) table[t] = k;
    return k;
  };
  for (let i = 0; i < count; i++) rankOf(tid.at(i));
  const start = new Int32Array(rank.size + 1);
  for (let i = 0; i < count; i++) start[rankOf(tid.at(i)) + 1]!++;
  for (let k = 0; k < rank.size; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const fill = start.slice();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[fill[rankOf(tid.at(i))]!++] = i;
  const before = (x: number, y: number) => enter.at(x) - enter.at(y) || depth[x]! - depth[y]! || x - y;
  for (let k = 0; k < rank.size; k++) {
    const slice = order.subarray(start[k]!, start[k + 1]!);
    let sorted = true;
    for (let j = 1; j < slice.length && sorted; j++) sorted = before(slice[j - 1]!, slice[j]!) < 0;
    if (!sorted) slice.sort(before);
  }
  return order;
}

/** Depth of each call from its parent chain (adopting calls are created after their children). */
function depths(parent: Paged<Int32Array>, count: number): Int32Array {
  const d = new Int32Array(count).fill(-1);
  const chain: number[] = [];
  for (let i = 0; i < count; i++) {
    let j = i;
    while (j >= 0 && d[j] === -1) (chain.push(j), (j = parent.at(j)));
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
