// Row shapes shared by the Perfetto and systrace importers, and the one place that turns them into bundle
// tables (bundle/schema.ts: slices, thread_states, counter_samples, processes, threads, frame_timeline).
// Timestamps are ns CLOCK_MONOTONIC as plain numbers: exact up to 2^53 ns (104 days of uptime).
import type { Table } from "apache-arrow";
import type { TableName } from "../../../bundle/schema";
import { makeBundleTable } from "../../../bundle/table-builder";

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
}

/** Everything a trace importer produces before it becomes Arrow. */
export interface TraceRows {
  slices: SliceRow[];
  threadStates: ThreadStateRow[];
  counters: CounterRow[];
  processes: ProcessRow[];
  threads: ThreadRow[];
  frameTimeline: FrameTimelineRow[];
}

export function emptyTraceRows(): TraceRows {
  return { slices: [], threadStates: [], counters: [], processes: [], threads: [], frameTimeline: [] };
}

/** The bundle tables for the rows; empty tables are left out. */
export function tracesToTables(rows: TraceRows, runId: string): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
  const s = rows.slices;
  if (s.length)
    out.slices = makeBundleTable("slices", runId, {
      ts: column(s, (r) => r.ts),
      dur: s.map((r) => r.dur),
      pid: s.map((r) => r.pid),
      tid: s.map((r) => r.tid),
      thread_name: s.map((r) => r.thread_name),
      name: s.map((r) => r.name),
      depth: Int32Array.from(s, (r) => r.depth),
      category: s.map((r) => r.category),
      track: s.map((r) => r.track),
    });
  const t = rows.threadStates;
  if (t.length)
    out.thread_states = makeBundleTable("thread_states", runId, {
      ts: column(t, (r) => r.ts),
      dur: t.map((r) => r.dur),
      tid: Int32Array.from(t, (r) => r.tid),
      pid: t.map((r) => r.pid),
      thread_name: t.map((r) => r.thread_name),
      state: t.map((r) => r.state),
      cpu: t.map((r) => r.cpu),
      blocked_function: t.map((r) => r.blocked_function),
    });
  const c = rows.counters;
  if (c.length)
    out.counter_samples = makeBundleTable("counter_samples", runId, {
      ts: column(c, (r) => r.ts),
      pid: c.map((r) => r.pid),
      name: c.map((r) => r.name),
      value: Float64Array.from(c, (r) => r.value),
    });
  const p = rows.processes;
  if (p.length)
    out.processes = makeBundleTable("processes", runId, {
      pid: Int32Array.from(p, (r) => r.pid),
      ppid: p.map((r) => r.ppid),
      name: p.map((r) => r.name),
      uid: p.map((r) => r.uid),
    });
  const th = rows.threads;
  if (th.length)
    out.threads = makeBundleTable("threads", runId, {
      thread_id: Int32Array.from(th, (r) => r.tid),
      name: th.map((r) => r.name),
      pid: th.map((r) => r.pid),
    });
  const f = rows.frameTimeline;
  if (f.length)
    out.frame_timeline = makeBundleTable("frame_timeline", runId, {
      scope: f.map((r) => r.scope),
      timeline: f.map((r) => r.timeline),
      ts: column(f, (r) => r.ts),
      dur: f.map((r) => r.dur),
      token: column(f, (r) => r.token),
      display_frame_token: f.map((r) => r.display_frame_token),
      pid: f.map((r) => r.pid),
      layer_name: f.map((r) => r.layer_name),
      present_type: f.map((r) => r.present_type),
      on_time_finish: f.map((r) => r.on_time_finish),
      gpu_composition: f.map((r) => r.gpu_composition),
      jank_type: f.map((r) => r.jank_type),
      prediction_type: f.map((r) => r.prediction_type),
    });
  return out;
}

// A non-null int64 column straight into its own BigInt64Array (no per-row null bookkeeping).
function column<T>(rows: readonly T[], get: (r: T) => number): BigInt64Array {
  const out = new BigInt64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = BigInt(Math.trunc(get(rows[i]!)));
  return out;
}
