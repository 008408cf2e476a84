// The last step of a Perfetto decode: timestamps to CLOCK_MONOTONIC, thread and process names joined onto rows.
import type { AtraceSlices } from "./atrace-slices";
import type { StringTable } from "./string-table";
import type { FrameTimeline } from "./frame-timeline";
import type { ProcessTracker } from "./process-tracker";
import type { SliceColumns, TraceRows } from "./rows";
import { lifeRows } from "./thread-lives";
import type { ThreadStates } from "./thread-states";
import type { TrackEvents } from "./track-events";

/** TracePacket data fields by number (trace_packet.proto), for the skipped-kinds warning. */
export const PACKET_KIND_NAMES: Record<number, string> = {
  4: "inode_file_map",
  5: "chrome_events",
  7: "sys_stats",
  9: "process_stats",
  33: "trace_config",
  34: "ftrace_stats",
  35: "trace_stats",
  37: "profile_packet",
  38: "battery",
  39: "android_log",
  40: "power_rails",
  43: "process_descriptor",
  44: "thread_descriptor",
  45: "system_info",
  46: "trigger",
  47: "packages_list",
  49: "perfetto_metatrace",
  52: "gpu_counter_event",
  53: "gpu_render_stage_event",
  54: "streaming_profile_packet",
  57: "graphics_frame_event",
  66: "perf_sample",
  67: "cpu_info",
  69: "service_event",
  70: "initial_display_state",
  84: "statsd_atom",
  86: "android_system_property",
  89: "trace_uuid",
  91: "entity_state_residency",
  // Extensions (frameworks/base and frameworks/native tracing protos in protos/third_party/android).
  88: "network_packet",
  92: "network_packet_bundle",
  93: "surfaceflinger_layers_snapshot",
  94: "surfaceflinger_transactions",
  96: "shell_transition",
  97: "shell_handler_mappings",
  104: "protolog_message",
  105: "protolog_viewer_config",
  112: "winscope_extensions",
  114: "bluetooth_trace_event",
  116: "app_wakelock_bundle",
  121: "evdev_event",
};

export interface FinishInput {
  atrace: AtraceSlices;
  states: ThreadStates;
  tracks: TrackEvents;
  timeline: FrameTimeline;
  tracker: ProcessTracker;
  strings: StringTable;
  convert: (boot: number) => number;
}

export function finishRows(x: FinishInput): TraceRows {
  const { convert } = x;
  // Threads and processes by trace processor's rules (process-tracker.ts); descriptors name them last.
  x.tracker.finish(x.tracks.threads.values(), x.tracks.processes.values());
  const { threads, processes, byTid } = lifeRows(x.tracker, convert);

  // track_event slices join the atrace ones in the columns, after them.
  const atraceCount = x.atrace.slices.rows.n;
  x.atrace.slices.append(x.tracks.rows);
  const slices = sortColumns(x.atrace.slices.columns(x.strings.all), atraceCount);
  for (let i = 0; i < slices.length; i++) slices.ts[i] = convert(slices.ts[i]!);
  const counters = [...x.atrace.counters, ...x.tracks.counters];
  for (const c of counters) c.ts = convert(c.ts);
  const states = x.states.columns(convert);
  states.names = slices.names = byTid.names;
  states.pids = slices.pids = byTid.pids;
  states.reused = slices.reused = byTid.reused;
  for (const f of x.timeline.rows) f.ts = convert(f.ts);
  sortByTs(counters);
  return {
    slices: [],
    sliceColumns: slices,
    threadStates: [],
    threadStateColumns: states,
    counters,
    processes,
    threads,
    frameTimeline: x.timeline.rows,
  };
}

// Replayed ftrace rows are already in time order; sorting 10^6 rows that are costs more than checking.
function sortByTs(rows: { ts: number }[]) {
  for (let i = 1; i < rows.length; i++)
    if (rows[i]!.ts < rows[i - 1]!.ts) {
      rows.sort((a, b) => a.ts - b.ts);
      return;
    }
}

// Replayed atrace slices are in time order and so are track_event ones from a time-ordered trace: two sorted runs
// [0, split) and [split, n) are merged (ties: the earlier run first, as a stable sort would); anything else is sorted.
function sortColumns(c: SliceColumns, split: number): SliceColumns {
  const ts = c.ts;
  const n = c.length;
  let order: Int32Array | number[];
  if (sortedRun(ts, 0, split) && sortedRun(ts, split, n)) {
    if (split === 0 || split === n || ts[split - 1]! <= ts[split]!) return c;
    order = new Int32Array(n);
    let a = 0;
    let b = split;
    for (let k = 0; k < n; k++) order[k] = b >= n || (a < split && ts[a]! <= ts[b]!) ? a++ : b++;
  } else order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ts[a]! - ts[b]! || a - b);
  const take = <T extends Float64Array | Int32Array>(a: T): T => {
    const copy = a.slice();
    for (let i = 0; i < order.length; i++) a[i] = copy[order[i]!]!;
    return a;
  };
  take(c.ts);
  take(c.dur);
  take(c.pid);
  take(c.tid);
  take(c.depth);
  take(c.name);
  take(c.category);
  take(c.track);
  return c;
}

function sortedRun(ts: Float64Array, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (ts[i]! < ts[i - 1]!) return false;
  return true;
}
