// The calls table's rows from CallBuilder's paired calls (method-trace-calls.ts): ordered by thread (first
// appearance), then entry time, outer calls first, walked in the order made (method-trace-call-walk.ts) or,
// when that is not the order, sorted with depths from the parent chains; written in batches of reused buffers
// (AndroScope TraceBridge, §V-2).
import type { Table, Vector } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import type { CallsResult, ThreadCalls } from "./method-trace-calls";
import { CallWalk, walkSums } from "./method-trace-call-walk";
import { Paged } from "./paged-column";

/** The paired calls, ordered: by thread (first appearance), then entry time, outer calls first. A thread's
 * order and depths are worked out when its first row is written, and its calls let go after its last. */
export class FinishedCalls {
  readonly count: number;
  private readonly threads: (ThreadCalls | null)[];
  /** the thread being written, its first row, its next row of its own, and its order if not as made */
  private k = -1;
  private first = 0;
  private next = 0;
  private t: ThreadCalls | null = null;
  /** the thread's calls walked in row order, when they were made in it (else they are sorted, below) */
  private walk: CallWalk | null = null;
  private depth: Int32Array = new Int32Array(0);
  /** room for the biggest thread's depths, reused by each sorted thread (no garbage per thread) */
  private depthRoom: Int32Array | null = null;
  private order: Int32Array | null = null;
  private rowOf: Int32Array | null = null;
  /** the sums of the children's inclusive times, in both clocks (for the exclusive times): by the walk's slot,
   * one per call with children, or by call when sorted */
  private readonly childSum = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);
  private readonly childCpu = new Paged<Uint32Array | Float64Array>(Uint32Array, 1000);

  constructor(
    threads: ThreadCalls[],
    readonly repairs: CallsResult["repairs"],
    private readonly cpu: boolean,
  ) {
    this.threads = threads;
    this.count = threads.reduce((n, t) => n + t.count, 0);
  }

  /** The calls table (bundle/schema.ts "calls") in tables of at most `batchRows` rows, in row order. Each
   * table's arrays are reused by the next one: write a table out before taking the next. Taken once. */
  *tables(runId: string, batchRows: number): Generator<Table> {
    // Each thread's calls are let go as they are written, so they cannot be written twice.
    if (this.k >= 0) throw new Error("FinishedCalls.tables: the calls were already written");
    const size = Math.max(0, Math.min(batchRows, this.count));
    const b = {
      ids: new Int32Array(size),
      th: new Int32Array(size),
      dp: new Int32Array(size),
      par: new Int32Array(size),
      valid: new Uint8Array((size + 7) >> 3),
      se: new Uint8Array(size),
      sn: new Uint8Array(size),
      uw: new Uint8Array(size),
      int64: Array.from({ length: 8 }, () => new BigInt64Array(size)),
      constants: new Map<string, Vector>(),
    };
    for (let start = 0; start === 0 || start < this.count; start += batchRows)
      yield this.rows(runId, start, Math.min(this.count, start + batchRows), b);
  }

  /** Moves to the next thread with calls, letting the last one go. */
  private nextThread() {
    if (this.t) this.first += this.t.count;
    if (this.k >= 0) this.threads[this.k] = null;
    do this.t = this.threads[++this.k]!;
    while (this.t.count === 0);
    this.next = 0;
    const t = this.t;
    this.walk = new CallWalk(t);
    this.order = this.rowOf = null;
    if (walkSums(t, this.walk, this.childSum, this.childCpu)) return;
    // Out of order (the clock went back, or entries tied in another order): depths and an order of their own.
    this.walk = null;
    this.depthRoom ??= new Int32Array(this.threads.reduce((n, t) => Math.max(n, t?.count ?? 0), 0));
    this.depth = depths(t.parent, t.count, this.depthRoom);
    this.order = rowOrder(t.enter, this.depth, t.count);
    if (this.order) {
      this.rowOf = new Int32Array(t.count);
      for (let row = 0; row < t.count; row++) this.rowOf[this.order[row]!] = row;
    }
    childSums(t, this.childSum, this.childCpu);
  }

  private rows(runId: string, from: number, to: number, b: BatchBuffers): Table {
    const cpuColumns = this.cpu;
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
      Int32Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    const valid = b.valid.subarray(0, (count + 7) >> 3).fill(0);
    // Columns in row order, computed in plain loops (a closure per value costs more than the pairing).
    for (let j = 0; j < count;) {
      if (!this.t || this.next === this.t.count) this.nextThread();
      const t = this.t!;
      const { method, parent, enter, exit, cpuInclusive, flags } = t;
      const { walk, order, rowOf, depth, first } = this;
      const { childSum, childCpu } = this;
      const end = Math.min(count, j + t.count - this.next);
      this.next += end - j;
      for (let r = this.next - (end - j); j < end; j++, r++) {
        let i = r;
        let parentRow: number;
        let sum = r;
        if (walk) {
          walk.step();
          i = walk.id;
          dp[j] = walk.depth;
          parentRow = walk.parentRow;
          sum = walk.sum;
        } else {
          if (order) i = sum = order[r]!;
          dp[j] = depth[i]!;
          const p = parent.at(i);
          parentRow = p < 0 ? -1 : rowOf ? rowOf[p]! : p;
        }
        ids[j] = first + r;
        th[j] = t.tid;
        if (parentRow >= 0) {
          par[j] = first + parentRow;
          valid[j >> 3]! |= 1 << (j & 7);
        } else par[j] = 0;
        put64(m!, mW!, j, method.at(i));
        const enterAt = enter.at(i);
        const exitAt = exit.at(i);
        put64(en!, enW!, j, enterAt);
        put64(ex!, exW!, j, exitAt);
        const inclusive = exitAt - enterAt;
        put64(inc!, incW!, j, inclusive);
        put64(exc!, excW!, j, inclusive - (sum < 0 ? 0 : childSum.at(sum)));
        if (cpuInclusive) {
          const cpu = cpuInclusive.at(i);
          put64(ci!, ciW!, j, cpu);
          put64(ce!, ceW!, j, cpu - (sum < 0 ? 0 : childCpu.at(sum)));
        }
        const f = flags.at(i);
        se[j] = f & 1;
        sn[j] = (f >> 1) & 1;
        uw[j] = (f >> 2) & 1;
      }
    }
    return makeBundleTable(
      "calls",
      runId,
      {
        call_id: ids,
        thread_id: th,
        method_id: m!,
        depth: dp,
        parent: { values: par, validity: valid },
        enter: en!,
        exit: ex!,
        inclusive: inc!,
        exclusive: exc!,
        ...(cpuColumns ? { cpu_inclusive: ci!, cpu_exclusive: ce! } : {}),
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
  /** parent rows, and which of them are not null */
  par: Int32Array;
  valid: Uint8Array;
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

/** A thread's calls by entry time, outer calls first, or null when they were made in that order (the usual
 * case: only a call made for an exit without entry, §V-1, or a clock going back is out of order). */
function rowOrder(
  enter: Paged<Uint32Array | Float64Array>,
  depth: Int32Array,
  count: number,
): Int32Array | null {
  const before = (x: number, y: number) => enter.at(x) - enter.at(y) || depth[x]! - depth[y]! || x - y;
  let sorted = true;
  for (let j = 1; j < count && sorted; j++) sorted = before(j - 1, j) < 0;
  if (sorted) return null;
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  return order.sort(before);
}

/** The sums of each call's children's inclusive times in both clocks, added in the order the children were made
 * (the order they closed in, as siblings close one after the other). */
function childSums(
  t: ThreadCalls,
  sum: Paged<Uint32Array | Float64Array>,
  cpu: Paged<Uint32Array | Float64Array>,
) {
  const { parent, enter, exit, cpuInclusive, count } = t;
  sum.zero(count);
  if (cpuInclusive) cpu.zero(count);
  for (let i = 0; i < count; i++) {
    const p = parent.at(i);
    if (p < 0) continue;
    sum.add(p, exit.at(i) - enter.at(i));
    if (cpuInclusive) cpu.add(p, cpuInclusive.at(i));
  }
}

/** Depth of each call from its parent chain (adopting calls are created after their children). */
function depths(parent: Paged<Int32Array>, count: number, room: Int32Array): Int32Array {
  const d = room.subarray(0, count).fill(-1);
  const chain: number[] = [];
  for (let i = 0; i < count; i++) {
    let j = i;
    while (j >= 0 && d[j] === -1) (chain.push(j), (j = parent.at(j)));
    let base = j < 0 ? -1 : d[j]!;
    while (chain.length) d[chain.pop()!] = ++base;
  }
  return d;
}
