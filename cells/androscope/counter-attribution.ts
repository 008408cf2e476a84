// Hardware counter values per call (AndroScope §IV-1, §VI-3: HPC values and IPC per method), from interval
// counts (simpleperf stat --interval, the hpc_samples table) rather than per-record counter reads.
//
// The rule. A sample of counter c at ts counted `value` events in the interval (previous sample's ts of the
// same counter and core, ts]; the first sample's interval is as long as the series' second one (simpleperf
// prints equal intervals), or `intervalNs` when given. Within an interval the events are spread over the
// traced code that ran: each call's own time (its exclusive segments: entry to exit minus its children, on
// every thread) overlapping the interval, weighted by the share of that own time the thread was on a CPU
// (thread-CPU exclusive / wall exclusive, when the trace has both clocks; else 1), gets
// value x weighted overlap / max(interval length, total weighted overlap of all segments). So a call running
// the whole interval alone gets all of it; two threads running in parallel share it; a thread blocked in a
// call (a poll, a socket read) takes almost nothing; when traced code covers only part of the interval, the
// rest (idle, untraced or native threads) is left unattributed, never pushed onto the calls that happened to
// run. A call's inclusive value adds its callees', as inclusive time does. With a window, intervals are cut to it and their value scaled by the
// share of their length inside (counts taken as uniform over an interval).
import type { Table } from "apache-arrow";
import { readCallColumns, type CallColumns } from "./call-columns";
import { checkHpcColumns, hpcColumns } from "./counter-series";
import { timeWindow, type TimeWindow } from "../common/time-window";

export interface AttributeCountersOptions {
  /** [t0, t1] ns on the calls' clock: only this part of the trace counts; default all */
  window?: readonly [number, number] | null;
  /** length of every sampling interval, ns; default inferred from consecutive samples */
  intervalNs?: number;
  /** added to hpc_samples.ts to put it on the calls' clock (ns since tracing began); default 0 */
  timeShiftNs?: number;
  /** weight own time by its thread-CPU share when the calls have thread-CPU times; default true */
  cpuWeighted?: boolean;
}

export interface CallCounters {
  /** rows of the calls table the arrays below are indexed by */
  calls: number;
  window: TimeWindow | null;
  /** per counter name, per call row: the value attributed to the call's own time */
  exclusive: Record<string, Float64Array>;
  /** per counter name, per call row: exclusive plus every callee's */
  inclusive: Record<string, Float64Array>;
  /** per counter: events counted in the (windowed) intervals and the part given to calls */
  totals: Record<string, { counted: number; attributed: number }>;
  warnings: string[];
}

interface Series {
  counter: string;
  start: Float64Array;
  end: Float64Array;
  value: Float64Array;
}

export function attributeCounters(
  calls: Table,
  hpc: Table,
  options: AttributeCountersOptions = {},
): CallCounters {
  checkHpcColumns(hpc);
  const window = timeWindow(options.window);
  if (options.intervalNs !== undefined && !(options.intervalNs > 0))
    throw new Error(`invalid intervalNs: ${options.intervalNs} (expected > 0)`);
  const c = readCallColumns(calls);
  const warnings: string[] = [];
  const series = readSeries(hpc, options, window, warnings);
  const segments = exclusiveSegments(c, window);
  const weight = new Float64Array(c.n).fill(1);
  if (options.cpuWeighted !== false && c.cpuExclusive)
    for (let i = 0; i < c.n; i++)
      weight[i] = c.exclusive[i]! > 0 ? Math.min(1, Math.max(0, c.cpuExclusive[i]! / c.exclusive[i]!)) : 1;
  const exclusive: Record<string, Float64Array> = {};
  const totals: Record<string, { counted: number; attributed: number }> = {};
  for (const s of series) {
    const out = (exclusive[s.counter] ??= new Float64Array(c.n));
    const total = (totals[s.counter] ??= { counted: 0, attributed: 0 });
    const covered = new Float64Array(s.start.length);
    forEachOverlap(segments, s, (call, j, overlap) => (covered[j] = covered[j]! + overlap * weight[call]!));
    forEachOverlap(segments, s, (call, j, overlap) => {
      const share = (s.value[j]! * overlap * weight[call]!) / Math.max(s.end[j]! - s.start[j]!, covered[j]!);
      out[call] = out[call]! + share;
      total.attributed += share;
    });
    for (let j = 0; j < s.value.length; j++) total.counted += s.value[j]!;
  }
  const inclusive: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(exclusive)) inclusive[name] = addCallees(c, values);
  return { calls: c.n, window, exclusive, inclusive, totals, warnings };
}

/** Intervals per (counter, core) series, sorted, cut to the window. */
function readSeries(
  hpc: Table,
  options: AttributeCountersOptions,
  window: TimeWindow | null,
  warnings: string[],
): Series[] {
  const { n, ts, cpu, counterCol, valueCol } = hpcColumns(hpc);
  const shift = options.timeShiftNs ?? 0;
  const groups = new Map<string, { counter: string; rows: number[] }>();
  for (let i = 0; i < n; i++) {
    const counter = String(counterCol.get(i));
    const key = `${counter}\u0000${cpu[i]}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { counter, rows: [] }));
    g.rows.push(i);
  }
  const out: Series[] = [];
  for (const { counter, rows } of groups.values()) {
    rows.sort((a, b) => ts[a]! - ts[b]!);
    const first = options.intervalNs ?? (rows.length > 1 ? ts[rows[1]!]! - ts[rows[0]!]! : NaN);
    if (!(first > 0)) {
      warnings.push(
        `hpc_samples: ${counter}${cpu[rows[0]!]! >= 0 ? ` on cpu ${cpu[rows[0]!]}` : ""} has ${rows.length === 1 ? "one sample" : "samples at one time"} and no interval length: not attributed (pass intervalNs)`,
      );
      continue;
    }
    const start: number[] = [];
    const end: number[] = [];
    const value: number[] = [];
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      const e = ts[i]! + shift;
      const s = k === 0 || options.intervalNs !== undefined ? e - first : ts[rows[k - 1]!]! + shift;
      let v = valueCol[i]!;
      if (!Number.isFinite(v) || e <= s) continue;
      let [cs, ce] = [s, e];
      if (window) {
        cs = Math.max(s, window[0]);
        ce = Math.min(e, window[1]);
        if (ce <= cs) continue;
        v *= (ce - cs) / (e - s);
      }
      (start.push(cs), end.push(ce), value.push(v));
    }
    out.push({
      counter,
      start: Float64Array.from(start),
      end: Float64Array.from(end),
      value: Float64Array.from(value),
    });
  }
  return out;
}

interface Segments {
  /** per thread: sorted, non-overlapping own-time segments */
  threads: { start: Float64Array; end: Float64Array; call: Int32Array }[];
}

/** Each call's own time: entry to exit minus its children's spans, per thread, cut to the window. */
export function exclusiveSegments(c: CallColumns, window: TimeWindow | null): Segments {
  const byThread = new Map<number, { start: number[]; end: number[]; call: number[] }>();
  const kids: number[][] = Array.from({ length: c.n }, () => []);
  for (let i = 0; i < c.n; i++) if (c.parent[i]! >= 0) kids[c.parent[i]!]!.push(i);
  const [lo, hi] = window ?? [-Infinity, Infinity];
  const push = (
    t: { start: number[]; end: number[]; call: number[] },
    s: number,
    e: number,
    call: number,
  ) => {
    const cs = Math.max(s, lo);
    const ce = Math.min(e, hi);
    if (ce > cs) (t.start.push(cs), t.end.push(ce), t.call.push(call));
  };
  for (let i = 0; i < c.n; i++) {
    let t = byThread.get(c.threadId[i]!);
    if (!t) byThread.set(c.threadId[i]!, (t = { start: [], end: [], call: [] }));
    const children = kids[i]!.sort((a, b) => c.enter[a]! - c.enter[b]!);
    let at = c.enter[i]!;
    for (const k of children) {
      if (c.enter[k]! > at) push(t, at, c.enter[k]!, i);
      at = Math.max(at, c.exit[k]!);
    }
    if (c.exit[i]! > at) push(t, at, c.exit[i]!, i);
  }
  const threads = [...byThread.values()].map((t) => {
    const order = Array.from(t.start.keys()).sort((a, b) => t.start[a]! - t.start[b]!);
    return {
      start: Float64Array.from(order, (k) => t.start[k]!),
      end: Float64Array.from(order, (k) => t.end[k]!),
      call: Int32Array.from(order, (k) => t.call[k]!),
    };
  });
  return { threads };
}

/** Calls fn(call, interval, overlap ns) for every own-time segment and interval that overlap (two pointers per thread). */
function forEachOverlap(
  segments: Segments,
  s: Series,
  fn: (call: number, interval: number, overlap: number) => void,
): void {
  const m = s.start.length;
  for (const t of segments.threads) {
    let j = 0;
    for (let k = 0; k < t.start.length; k++) {
      const a = t.start[k]!;
      const b = t.end[k]!;
      while (j < m && s.end[j]! <= a) j++;
      for (let jj = j; jj < m && s.start[jj]! < b; jj++) {
        const overlap = Math.min(b, s.end[jj]!) - Math.max(a, s.start[jj]!);
        if (overlap > 0) fn(t.call[k]!, jj, overlap);
      }
    }
  }
}

/** Inclusive values: each call's own plus its callees', deepest calls first. */
function addCallees(c: CallColumns, own: Float64Array): Float64Array {
  const out = Float64Array.from(own);
  const order = Array.from({ length: c.n }, (_, i) => i).sort((a, b) => c.depth[b]! - c.depth[a]!);
  for (const i of order) if (c.parent[i]! >= 0) out[c.parent[i]!] = out[c.parent[i]!]! + out[i]!;
  return out;
}
