// Segments of calls and the context switches between them (AndroScope TraceBridge §V-3, Fig. 12).
// A segment is the smallest unit of the timeline: a stretch of a thread between two of its records in
// which one call is the innermost, so a call's segments are its time minus its callees'. Threads that
// share a CPU cannot run at once, so where their segments overlap on the wall clock a thread was switched
// out: segment-partition.ts removes that time (full overlap) or splits it at the middle (partial).
// Inputs: the calls, and the records' wall times (thread-CPU times are per thread and cannot be compared
// across threads) and, from AndroScope extended records, CPU ids. Without CPU ids every thread is taken
// to share one CPU, as on the paper's single-core phone (§VII); with them only segments on the same CPU
// compete, and a segment whose two records were taken on different CPUs (the thread migrated, so it was
// switched out in between, time unknown) is split at its middle between the two CPUs, as §V-3 does.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import type { Table } from "apache-arrow";
import { int32, int64, optional, readColumns } from "../../bundle/read-columns";
import { readCallColumns } from "./call-columns";
import { partitionSegments } from "./segment-partition";

export interface CallSegmentsOptions {
  /** "records": CPU ids of method_events.cpu (AndroScope extended records); "single": every thread on one
   * CPU (the paper's setting). Default: records when method_events has CPU ids, else single. */
  cpus?: "records" | "single";
}

export interface CallSegments {
  cpus: "records" | "single";
  /** what ran when, after partitioning: one row per piece, ordered by CPU then time; `call` is a calls row */
  pieces: { call: Int32Array; thread: Int32Array; cpu: Int32Array; start: Float64Array; end: Float64Array };
  /** per calls row: ns the call itself ran (its segments after partitioning) */
  runningExclusive: Float64Array;
  /** per calls row: ns the call and its callees ran; inclusive - runningInclusive is the time switched out */
  runningInclusive: Float64Array;
  counts: { segments: number; fullOverlaps: number; partialOverlaps: number; migrations: number };
}

/** Segments of every call, partitioned for context switches; `events` is the trace's method_events. */
export function callSegments(calls: Table, events: Table, options: CallSegmentsOptions = {}): CallSegments {
  const c = readCallColumns(calls);
  const ev = readColumns(events, "method_events", {
    thread_id: int32(),
    wall: int64(0),
    cpu: optional(int32(-1)),
  });
  const wallCol = events.getChild("wall")!;
  if (events.numRows > 0 && wallCol.nullCount === events.numRows)
    throw new Error(
      "callSegments: method_events has no wall times (a thread-cpu trace); segments compare threads on the wall clock",
    );
  const cpuCol = events.getChild("cpu");
  const hasCpu = !!cpuCol && events.numRows > 0 && cpuCol.nullCount < events.numRows;
  const cpus = options.cpus ?? (hasCpu ? "records" : "single");
  if (cpus !== "records" && cpus !== "single")
    throw new Error(`invalid cpus: ${String(cpus)} (expected records or single)`);
  if (cpus === "records" && !hasCpu)
    throw new Error("callSegments: cpus records needs method_events.cpu (AndroScope extended records)");
  const threads = threadRecords(ev.thread_id, ev.wall, cpus === "records" ? ev.cpu : null);

  // Segments: each call's span minus its callees', inside the span the thread has records for.
  const seg = new SegmentList();
  let migrations = 0;
  const children = childrenByEnter(c.parent, c.enter, c.n);
  for (let call = 0; call < c.n; call++) {
    const t = threads.get(c.threadId[call]!);
    if (!t) continue; // no records on this thread: nothing observed
    let cursor = c.enter[call]!;
    for (let k = children.start[call]!; k < children.start[call + 1]!; k++) {
      const child = children.list[k]!;
      migrations += seg.add(t, call, c.threadId[call]!, cursor, c.enter[child]!);
      cursor = Math.max(cursor, c.exit[child]!);
    }
    migrations += seg.add(t, call, c.threadId[call]!, cursor, c.exit[call]!);
  }

  const p = partitionSegments(seg.input());
  const runningExclusive = new Float64Array(c.n);
  for (let i = 0; i < seg.n; i++) runningExclusive[seg.call[i]!]! += p.running[i]!;
  const runningInclusive = runningExclusive.slice();
  // Callees before callers: deepest rows first (bucketed by depth).
  for (const i of deepestFirst(c.depth))
    if (c.parent[i]! >= 0) runningInclusive[c.parent[i]!]! += runningInclusive[i]!;
  const ps = p.piece.segment;
  return {
    cpus,
    pieces: {
      call: Int32Array.from(ps, (i) => seg.call[i]!),
      thread: Int32Array.from(ps, (i) => seg.thread[i]!),
      cpu: Int32Array.from(ps, (i) => seg.cpu[i]!),
      start: p.piece.start,
      end: p.piece.end,
    },
    runningExclusive,
    runningInclusive,
    counts: { segments: seg.n, fullOverlaps: p.full, partialOverlaps: p.partial, migrations },
  };
}

interface ThreadRecords {
  time: Float64Array;
  cpu: Int32Array | null;
}

/** Segments in growable typed columns. */
class SegmentList {
  n = 0;
  call = new Int32Array(1024);
  thread = new Int32Array(1024);
  cpu = new Int32Array(1024);
  start = new Float64Array(1024);
  end = new Float64Array(1024);

  /** Adds [from, to] of a call, clamped to the thread's records; returns 1 when it migrated (split in two). */
  add(t: ThreadRecords, call: number, thread: number, from: number, to: number): number {
    const a = Math.max(from, t.time[0]!);
    const b = Math.min(to, t.time[t.time.length - 1]!);
    if (b <= a) return 0;
    const cpuA = t.cpu ? t.cpu[lastAtOrBefore(t.time, a)]! : 0;
    const cpuB = t.cpu ? t.cpu[firstAtOrAfter(t.time, b)]! : 0;
    if (cpuA === cpuB) return (this.push(call, thread, cpuA, a, b), 0);
    const m = (a + b) / 2;
    this.push(call, thread, cpuA, a, m);
    this.push(call, thread, cpuB, m, b);
    return 1;
  }

  private push(call: number, thread: number, cpu: number, a: number, b: number) {
    if (this.n === this.call.length) this.grow();
    const i = this.n++;
    this.call[i] = call;
    this.thread[i] = thread;
    this.cpu[i] = cpu;
    this.start[i] = a;
    this.end[i] = b;
  }

  private grow() {
    const g = <T extends Int32Array | Float64Array>(x: T, make: new (n: number) => T): T => {
      const y = new make(x.length * 2);
      y.set(x);
      return y;
    };
    [this.call, this.thread, this.cpu] = [
      g(this.call, Int32Array),
      g(this.thread, Int32Array),
      g(this.cpu, Int32Array),
    ];
    [this.start, this.end] = [g(this.start, Float64Array), g(this.end, Float64Array)];
  }

  input() {
    const n = this.n;
    return {
      start: this.start.subarray(0, n),
      end: this.end.subarray(0, n),
      thread: this.thread.subarray(0, n),
      cpu: this.cpu.subarray(0, n),
    };
  }
}

/** Each thread's record times (sorted) and CPU ids. */
function threadRecords(
  thread: Int32Array,
  wall: Float64Array,
  cpu: Int32Array | null,
): Map<number, ThreadRecords> {
  const count = new Map<number, number>();
  for (let i = 0; i < thread.length; i++) count.set(thread[i]!, (count.get(thread[i]!) ?? 0) + 1);
  const out = new Map<number, ThreadRecords & { n: number; sorted: boolean }>();
  for (const [th, k] of count)
    out.set(th, { time: new Float64Array(k), cpu: cpu && new Int32Array(k), n: 0, sorted: true });
  for (let i = 0; i < thread.length; i++) {
    const t = out.get(thread[i]!)!;
    const j = t.n++;
    t.time[j] = wall[i]!;
    if (t.cpu) t.cpu[j] = cpu![i]!;
    if (j > 0 && t.time[j]! < t.time[j - 1]!) t.sorted = false;
  }
  for (const t of out.values()) {
    if (t.sorted) continue;
    // Out of order on the wall clock (rare): sort, keeping file order on equal times.
    const idx = Int32Array.from({ length: t.n }, (_, i) => i).sort(
      (a, b) => t.time[a]! - t.time[b]! || a - b,
    );
    const [time, c] = [t.time.slice(), t.cpu?.slice()];
    idx.forEach((from, to) => ((t.time[to] = time[from]!), c && (t.cpu![to] = c[from]!)));
  }
  return out;
}

/** The record that began a segment starting at t: the last one at or before t. */
function lastAtOrBefore(time: Float64Array, t: number): number {
  let lo = 0;
  let hi = time.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (time[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The record that ended a segment ending at t: the first one at or after t. */
function firstAtOrAfter(time: Float64Array, t: number): number {
  let lo = 0;
  let hi = time.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (time[mid]! >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Each call's callees (CSR: list[start[c]..start[c+1]]), by entry time. */
function childrenByEnter(parent: Int32Array, enter: Float64Array, n: number) {
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) start[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]!);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) list[fill[parent[i]!]!++] = i;
  for (let p = 0; p < n; p++) {
    const kids = list.subarray(start[p]!, start[p + 1]!);
    for (let k = 1; k < kids.length; k++)
      if (enter[kids[k]!]! < enter[kids[k - 1]!]!) {
        kids.sort((a, b) => enter[a]! - enter[b]! || a - b);
        break;
      }
  }
  return { start, list };
}

function deepestFirst(depth: Int32Array): Int32Array {
  let max = 0;
  for (const d of depth) if (d > max) max = d;
  const start = new Int32Array(max + 2);
  for (const d of depth) start[max - d + 1]!++;
  for (let k = 0; k <= max; k++) start[k + 1]! += start[k]!;
  const out = new Int32Array(depth.length);
  for (let i = 0; i < depth.length; i++) out[start[max - depth[i]!]!++] = i;
  return out;
}

/** Default chart: each thread's running pieces on the wall clock (ms), coloured by CPU. */
export function callSegmentsPlot(
  s: CallSegments,
  options: { threadNames?: ReadonlyMap<number, string> } = {},
): ChartSpec {
  const names = options.threadNames;
  const rows = Array.from(s.pieces.call, (call, i) => ({
    call,
    thread: names?.get(s.pieces.thread[i]!) ?? String(s.pieces.thread[i]),
    cpu: String(s.pieces.cpu[i]),
    start: s.pieces.start[i]! / 1e6,
    end: s.pieces.end[i]! / 1e6,
    tip: `call ${call}`,
  }));
  // CPU and thread ids are names, not quantities: said so (categorical colour, band rows) so that Plot does not guess
  // at strings of digits (its "strings that appear to be numbers" warning); CPUs in numeric order, cpu10 after cpu2.
  const cpus = [...new Set(s.pieces.cpu)].sort((a, b) => a - b).map(String);
  return chartSpec("callSegmentsPlot", {
    mark: "barX",
    data: rows,
    y: "thread",
    fill: "cpu",
    options: { x1: "start", x2: "end", title: "tip" },
    layout: {
      marginLeft: 120,
      x: { label: "wall time (ms)", grid: true },
      y: { type: "band", label: null },
      color: { type: "categorical", domain: cpus, legend: s.cpus === "records", label: "CPU" },
    },
  });
}
