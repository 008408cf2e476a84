// The calls table's rows from CallBuilder's paired calls (method-trace-calls.ts): ordered by thread (first
// appearance), then entry time, outer calls first, with depths from the parent chains, and written in batches
// of reused buffers (AndroScope TraceBridge, §V-2).
import type { Table, Vector } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import type { CallsResult } from "./method-trace-calls";
import type { Paged } from "./paged-column";

export interface CallColumns {
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
