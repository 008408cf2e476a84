// Row shapes shared by the Perfetto and systrace importers, and the one place that turns them into bundle
// tables (bundle/schema.ts: slices, thread_states, counter_samples, processes, threads, frame_timeline).
// Timestamps are ns CLOCK_MONOTONIC as plain numbers: exact up to 2^53 ns (104 days of uptime).
import type { Table } from "apache-arrow";
import type { TableName } from "../../../bundle/schema";
import { makeBundleTable } from "../../../bundle/table-builder";
import { dict, floats, int64, ints, plainColumns, sliceTable, threadStateTable } from "./column-tables";
import { traceExtraTables } from "./extra-tables";
import type { LogRecord } from "../logcat";
import type { PackageRow } from "./system-info";
import type { BinderRow } from "./binder-transactions";

export interface SliceRow {
  ts: number;
  /** null when the slice never closed before the trace ended */
  dur: number | null;
  pid: number | null;
  /** null for async slices */
  tid: number | null;
  thread_name: string | null;
  name: string;
  /** nesting depth on its track, 0 = outermost */
  depth: number;
  /** atrace, async, track_event:<category>, systrace */
  category: string | null;
  /** the async track or track_event track name, when not a thread's own */
  track: string | null;
}

export type ThreadStateName =
  "running" | "runnable" | "runnable_preempted" | "sleeping" | "uninterruptible" | "dead" | "unknown";

/** Thread names and pids by tid, joined onto typed columns' rows as they become tables (trace-finish.ts gives the
 * slice and thread-state columns the same two maps). */
export interface ThreadsByTid {
  names: Map<number, string>;
  pids: Map<number, number>;
  /** tids that were more than one thread over the trace (reuse after exit): each lifetime's start (ascending), name
   * and pid; a row takes the last lifetime begun at or before it, the first when it precedes them all */
  reused?: Map<number, ThreadLives>;
}

export interface ThreadLives {
  from: number[];
  names: (string | null)[];
  pids: (number | null)[];
}

/** The thread name and pid of `tid` at `ts` (in process `pid` when the row names one). */
export function threadAt(
  c: ThreadsByTid,
  tid: number,
  ts: number,
  pid: number | null = null,
): { name: string | null; pid: number | null } {
  const lives = c.reused?.get(tid);
  if (!lives) return { name: c.names.get(tid) ?? null, pid: c.pids.get(tid) ?? null };
  const k = lifeAt(lives, ts, pid ?? NaN);
  return { name: lives.names[k]!, pid: lives.pids[k]! };
}

/** Index of the lifetime a row at `ts` belongs to: the last begun at or before it (the first when it precedes them
 * all). A row that names its process (a track_event thread track's pid) takes that process's lifetime of the tid
 * instead: one tid may be a thread of two processes at once (pid namespaces; trace processor's
 * test_track_event_same_tids_slices). */
export function lifeAt(
  lives: { from: number[]; pids: ArrayLike<number | null> },
  ts: number,
  pid = NaN,
): number {
  let k = 0;
  while (k + 1 < lives.from.length && lives.from[k + 1]! <= ts) k++;
  if (pid !== pid || lives.pids[k] === pid) return k;
  let other = -1;
  for (let j = 0; j < lives.from.length; j++)
    if (lives.pids[j] === pid && (other < 0 || lives.from[j]! <= ts)) other = j;
  return other < 0 ? k : other;
}

/** One typed array per slice column (the Perfetto importer's: a system trace has millions): NaN for a null dur, pid
 * or tid; name, category and track are ids into a string table (-1: null). */
export interface SliceArrays {
  ts: Float64Array;
  dur: Float64Array;
  pid: Float64Array;
  tid: Float64Array;
  depth: Int32Array;
  name: Int32Array;
  category: Int32Array;
  track: Int32Array;
}

/** Slices as typed columns with `strings` for their ids; thread names and missing pids come from the per-tid
 * maps. */
export interface SliceColumns extends SliceArrays, ThreadsByTid {
  length: number;
  strings: readonly string[];
}

/** The columns as row objects (tests, small traces). */
export function sliceRows(c: SliceColumns): SliceRow[] {
  const str = (id: number) => (id < 0 ? null : c.strings[id]!);
  const num = (v: number) => (Number.isNaN(v) ? null : v);
  return Array.from({ length: c.length }, (_, i) => {
    const tid = num(c.tid[i]!);
    const own = num(c.pid[i]!);
    const t = tid === null ? null : threadAt(c, tid, c.ts[i]!, own);
    return {
      ts: c.ts[i]!,
      dur: num(c.dur[i]!),
      pid: own ?? t?.pid ?? null,
      tid,
      thread_name: t?.name ?? null,
      name: c.strings[c.name[i]!]!,
      depth: c.depth[i]!,
      category: str(c.category[i]!),
      track: str(c.track[i]!),
    };
  });
}

/** State codes of ThreadStateColumns.state, in this order. */
export const THREAD_STATE_NAMES: readonly ThreadStateName[] = [
  "running",
  "runnable",
  "runnable_preempted",
  "sleeping",
  "uninterruptible",
  "dead",
  "unknown",
];

/** Thread states as typed columns (a system trace has millions): dur NaN while open, cpu -1 when not running;
 * thread name and pid come from the per-tid maps. */
export interface ThreadStateColumns extends ThreadsByTid {
  length: number;
  ts: Float64Array;
  dur: Float64Array;
  tid: Int32Array;
  /** index into THREAD_STATE_NAMES */
  state: Uint8Array;
  cpu: Int32Array;
  /** from sched_blocked_reason, per row (blocked-reasons.ts); absent when the trace has none */
  blockedFunction?: (string | null)[];
  ioWait?: (boolean | null)[];
}

/** The columns as row objects (tests, small traces). */
export function threadStateRows(c: ThreadStateColumns): ThreadStateRow[] {
  return Array.from({ length: c.length }, (_, i) => {
    const tid = c.tid[i]!;
    const dur = c.dur[i]!;
    const cpu = c.cpu[i]!;
    const t = threadAt(c, tid, c.ts[i]!);
    return {
      ts: c.ts[i]!,
      dur: Number.isNaN(dur) ? null : dur,
      tid,
      pid: t.pid,
      thread_name: t.name,
      state: THREAD_STATE_NAMES[c.state[i]!]!,
      cpu: cpu < 0 ? null : cpu,
      blocked_function: c.blockedFunction?.[i] ?? null,
    };
  });
}

export interface ThreadStateRow {
  ts: number;
  /** null when the trace ends in that state */
  dur: number | null;
  tid: number;
  pid: number | null;
  thread_name: string | null;
  state: ThreadStateName;
  /** core it ran on, for running */
  cpu: number | null;
  blocked_function: string | null;
}

export interface CounterRow {
  ts: number;
  pid: number | null;
  /** core, for per-CPU counters (cpufreq, cpuidle) */
  cpu?: number | null;
  name: string;
  value: number;
}

export interface ProcessRow {
  pid: number;
  ppid: number | null;
  name: string | null;
  uid: number | null;
}

export interface ThreadRow {
  tid: number;
  name: string;
  pid: number | null;
}

export interface FrameTimelineRow {
  scope: "surface" | "display";
  timeline: "expected" | "actual";
  ts: number;
  dur: number | null;
  token: number;
  display_frame_token: number | null;
  pid: number | null;
  layer_name: string | null;
  present_type: string | null;
  on_time_finish: boolean | null;
  gpu_composition: boolean | null;
  jank_type: string | null;
  prediction_type: string | null;
  /** trace processor's jank tag (actual timeline only): Self Jank, Other Jank, No Jank, ... */
  jank_tag: string | null;
  jank_severity_type: string | null;
  jank_severity_score: number | null;
}

/** Everything a trace importer produces before it becomes Arrow. */
export interface TraceRows {
  slices: SliceRow[];
  threadStates: ThreadStateRow[];
  /** the Perfetto importer's slices, used instead of slices when present */
  sliceColumns?: SliceColumns;
  /** the Perfetto importer's thread states, used instead of threadStates when present */
  threadStateColumns?: ThreadStateColumns;
  counters: CounterRow[];
  processes: ProcessRow[];
  threads: ThreadRow[];
  frameTimeline: FrameTimelineRow[];
  /** PackagesList (Perfetto) */
  packages?: PackageRow[];
  /** android.log lines inside the trace (Perfetto) */
  log?: LogRecord[];
  /** binder calls from ftrace (Perfetto) */
  binder?: BinderRow[];
}

export function emptyTraceRows(): TraceRows {
  return { slices: [], threadStates: [], counters: [], processes: [], threads: [], frameTimeline: [] };
}

/** The bundle tables for the rows; empty tables are left out. */
export function tracesToTables(rows: TraceRows, runId: string): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
  const sc = rows.sliceColumns;
  if (sc && sc.length) out.slices = sliceTable(sc, runId);
  const s = rows.slices;
  if (!sc && s.length)
    out.slices = makeBundleTable(
      "slices",
      runId,
      {
        ts: int64(s.length, (i) => s[i]!.ts),
        dur: floats(s.length, (i) => s[i]!.dur),
        pid: floats(s.length, (i) => s[i]!.pid),
        tid: floats(s.length, (i) => s[i]!.tid),
        thread_name: dict(s.length, (i) => s[i]!.thread_name),
        name: dict(s.length, (i) => s[i]!.name),
        depth: ints(s.length, (i) => s[i]!.depth),
        category: dict(s.length, (i) => s[i]!.category),
        track: dict(s.length, (i) => s[i]!.track),
      },
      s.length,
      // Every column here is a fresh array of its own: taken over, not copied again.
      { adopt: true },
    );
  const c = rows.threadStateColumns;
  if (c && c.length) out.thread_states = threadStateTable(c, runId);
  const t = rows.threadStates;
  if (!c && t.length)
    out.thread_states = makeBundleTable("thread_states", runId, {
      ...plainColumns(t, ["dur", "pid", "cpu"]),
      ts: int64(t.length, (i) => t[i]!.ts),
      tid: Int32Array.from(t, (r) => r.tid),
      thread_name: dict(t.length, (i) => t[i]!.thread_name),
      state: dict(t.length, (i) => t[i]!.state),
      blocked_function: dict(t.length, (i) => t[i]!.blocked_function),
    });
  const cs = rows.counters;
  if (cs.length)
    out.counter_samples = makeBundleTable("counter_samples", runId, {
      ...plainColumns(cs, ["pid"]),
      // Only per-CPU counters carry a cpu: without any, the column is left to the builder's all-null one.
      ...(cs.some((r) => r.cpu != null) ? { cpu: cs.map((r) => r.cpu ?? null) } : {}),
      ts: int64(cs.length, (i) => cs[i]!.ts),
      name: dict(cs.length, (i) => cs[i]!.name),
      value: Float64Array.from(cs, (r) => r.value),
    });
  const p = rows.processes;
  if (p.length)
    out.processes = makeBundleTable("processes", runId, {
      ...plainColumns(p, ["ppid", "name", "uid"]),
      pid: Int32Array.from(p, (r) => r.pid),
    });
  const th = rows.threads;
  if (th.length)
    out.threads = makeBundleTable("threads", runId, {
      ...plainColumns(th, ["name", "pid"]),
      thread_id: Int32Array.from(th, (r) => r.tid),
    });
  const f = rows.frameTimeline;
  if (f.length)
    out.frame_timeline = makeBundleTable("frame_timeline", runId, {
      ...plainColumns(f, [
        "scope",
        "timeline",
        "dur",
        "display_frame_token",
        "pid",
        "layer_name",
        "present_type",
        "on_time_finish",
        "gpu_composition",
        "jank_type",
        "prediction_type",
        "jank_tag",
        "jank_severity_type",
        "jank_severity_score",
      ]),
      ts: int64(f.length, (i) => f[i]!.ts),
      token: int64(f.length, (i) => f[i]!.token),
    });
  Object.assign(out, traceExtraTables(rows, runId));
  return out;
}
