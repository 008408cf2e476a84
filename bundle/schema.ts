// The run bundle's one contract: every table's columns, their Arrow types and what they mean.
// Collectors write through it, cells and the workspace read through it (docs/tables.md).
import {
  Bool,
  Dictionary,
  Field,
  Float64,
  Int8,
  Int32,
  Int64,
  List,
  Utf8,
  type DataType,
} from "apache-arrow";

/** Column kinds the bundle uses. Timestamps and durations are int64 nanoseconds. */
export type ColumnType = "int8" | "int32" | "int64" | "float64" | "bool" | "utf8" | "list<utf8>";

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  nullable: boolean;
  doc: string;
}

export interface TableSpec {
  name: string;
  doc: string;
  columns: ColumnSpec[];
}

/** Bumped when a column is renamed or retyped; readers refuse newer versions. */
export const SCHEMA_VERSION = 1;

/** render_ops.op: the view operations DRAW times (§III), in the order a frame runs them. */
export const RENDER_OPS = ["measure", "layout", "draw"] as const;
/** render_ops.visibility: View.getVisibility() by name. */
export const VIEW_VISIBILITIES = ["visible", "invisible", "gone"] as const;
const either = (words: readonly string[]) => `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;

function col(name: string, type: ColumnType, doc: string, nullable = false): ColumnSpec {
  return { name, type, nullable, doc };
}
function opt(name: string, type: ColumnType, doc: string): ColumnSpec {
  return col(name, type, doc, true);
}

const runId = col("run_id", "utf8", "the run this row belongs to (manifest run_id)");

// framestats columns (AOSP libs/hwui/FrameInfo.cpp); absent ones stay null for that Android version.
const framestatsColumns: ColumnSpec[] = [
  opt(
    "flags",
    "int64",
    "FrameInfo Flags (bit 0 WindowLayoutChanged, 1 RTAnimation, 2 SurfaceCanvas, 3 SkippedFrame)",
  ),
  opt("frame_timeline_vsync_id", "int64", "FrameTimelineVsyncId (Android 12+)"),
  col("intended_vsync", "int64", "IntendedVsync: when the frame should have started, ns CLOCK_MONOTONIC"),
  opt("vsync", "int64", "Vsync: the vsync the frame actually started on"),
  opt("oldest_input_event", "int64", "OldestInputEvent (before Android 12)"),
  opt("newest_input_event", "int64", "NewestInputEvent (before Android 12)"),
  opt("input_event_id", "int64", "InputEventId (Android 12+)"),
  opt("handle_input_start", "int64", "HandleInputStart"),
  opt("animation_start", "int64", "AnimationStart"),
  opt("perform_traversals_start", "int64", "PerformTraversalsStart"),
  opt("draw_start", "int64", "DrawStart"),
  opt("frame_deadline", "int64", "FrameDeadline (Android 12+): absolute deadline of this frame"),
  opt("frame_start_time", "int64", "FrameStartTime (Android 12+)"),
  opt("frame_interval", "int64", "FrameInterval (Android 12+): the vsync period, ns"),
  opt("workload_target", "int64", "WorkloadTarget (Android 15+): the frame's CPU work target, ns"),
  opt("animation_time", "int64", "AnimationTime (Android 16+)"),
  opt("sync_queued", "int64", "SyncQueued"),
  opt("sync_start", "int64", "SyncStart"),
  opt("issue_draw_commands_start", "int64", "IssueDrawCommandsStart"),
  opt("swap_buffers", "int64", "SwapBuffers"),
  opt("frame_completed", "int64", "FrameCompleted"),
  opt("dequeue_buffer_duration", "int64", "DequeueBufferDuration (Android 8+), ns"),
  opt("queue_buffer_duration", "int64", "QueueBufferDuration (Android 8+), ns"),
  opt("gpu_completed", "int64", "GpuCompleted (Android 10+)"),
  opt("swap_buffers_completed", "int64", "SwapBuffersCompleted (Android 12+)"),
  opt("display_present_time", "int64", "DisplayPresentTime (Android 12+)"),
  opt("command_submission_completed", "int64", "CommandSubmissionCompleted (Android 14+)"),
];

export const TABLES: readonly TableSpec[] = [
  {
    name: "runs",
    doc: "One row per run, derived from manifest.json (never stored as .arrow).",
    columns: [
      runId,
      col("app", "utf8", "application package"),
      opt("app_version", "utf8", "versionName of the app"),
      opt("scenario", "utf8", "what was exercised (monkey:500, instrument:..., manual, or a scenario name)"),
      opt("device_model", "utf8", "ro.product.model"),
      opt("manufacturer", "utf8", "ro.product.manufacturer"),
      opt("sdk_release", "utf8", "ro.build.version.release"),
      opt("api_level", "int32", "ro.build.version.sdk"),
      opt("cpu_abi", "utf8", "ro.product.cpu.abi"),
      opt("screen_width", "int32", "pixels, from wm size"),
      opt("screen_height", "int32", "pixels, from wm size"),
      opt("refresh_hz", "float64", "display refresh rate"),
      opt("network", "utf8", "wifi, cellular, none"),
      opt("battery_level", "int32", "percent at start"),
      opt("started_at", "utf8", "ISO 8601 wall-clock time collection started"),
      col("complete", "bool", "false when collection ended early (disconnect, Ctrl-C, fault)"),
      col("synthetic", "bool", "true when generated rather than collected from a device"),
      col("warnings", "list<utf8>", "what went wrong during collection or import"),
    ],
  },
  {
    name: "frames",
    doc: "dumpsys gfxinfo <pkg> framestats: one row per frame, every column the Android version prints.",
    columns: [
      runId,
      opt("window", "utf8", "the window (or process) the frame belongs to"),
      ...framestatsColumns,
      col("duration", "int64", "FrameCompleted - IntendedVsync, ns"),
      col(
        "deadline",
        "int64",
        "the budget the frame was judged against, ns (FrameDeadline - IntendedVsync, else one refresh period, else 16.67 ms)",
      ),
      col("jank", "bool", "duration > deadline"),
      opt(
        "suspect",
        "utf8",
        "why the row's times are impossible (negative or multi-second duration, overflow, ...); null when plausible. Analyses skip suspect rows by default",
      ),
      opt(
        "source",
        "utf8",
        "where the frame came from: framestats (default when null), perfetto, macrobenchmark, jankstats",
      ),
    ],
  },
  {
    name: "ui_events",
    doc: "Input events seen by the agent or the scenario driver.",
    columns: [
      runId,
      col("ts", "int64", "event time, ns"),
      col("seq", "int32", "order of the event within the run, 0-based"),
      col("kind", "utf8", "click, long_click, scroll, swipe, key, text"),
      opt("target", "utf8", "the view or key the event went to"),
      opt("source", "utf8", "agent, monkey, instrumentation, manual"),
    ],
  },
  {
    name: "tasks",
    doc: "Asynchronous tasks (DiagDroid §3): one row per task execution.",
    columns: [
      runId,
      col("task_id", "int64", "unique within the run"),
      col(
        "category",
        "utf8",
        "thread, handler_thread, intent_service, thread_pool_executor, async_task, scheduled_executor, fork_join_pool or coroutine",
      ),
      col(
        "executor_id",
        "utf8",
        "identity of the execution unit the task queues on (DiagDroid §4.1, Definition 1)",
      ),
      opt(
        "pool_capacity",
        "int32",
        "threads the execution unit runs at once; null = unbounded (Definition 4)",
      ),
      opt("task_class", "utf8", "the Runnable/AsyncTask/Message target class"),
      col("scheduled", "int64", "when the task was submitted, ns"),
      opt("started", "int64", "when it began executing; null if it never started before the trace ended"),
      opt("ended", "int64", "when it finished; null while running at the end of the trace"),
      opt("thread_id", "int32", "thread that executed it"),
      opt("thread_name", "utf8", "name of that thread"),
      col("context_id", "int32", "the call stack it was scheduled from (contexts.context_id)"),
    ],
  },
  {
    name: "contexts",
    doc: "Execution contexts: the call stack at the moment a task was scheduled (DiagDroid §4.2).",
    columns: [
      runId,
      col("context_id", "int32", "unique within the run"),
      col("frames", "list<utf8>", "stack frames, innermost first"),
    ],
  },
  {
    name: "render_ops",
    doc: "View rendering operations (DRAW §III): one row per measure, layout or draw call.",
    columns: [
      runId,
      col("frame", "int32", "the frame (traversal) this operation belongs to, 0-based"),
      col("view_id", "int32", "identity of the view (identityHashCode on the device)"),
      opt("parent_id", "int32", "the parent view; null for the root"),
      col("view_class", "utf8", "fully qualified class of the view"),
      col("op", "utf8", either(RENDER_OPS)),
      col("start", "int64", "when the operation started, ns"),
      col("dur", "int64", "how long it took including children, ns"),
      col("ui_thread", "bool", "ran on the UI thread"),
      col("hw_accelerated", "bool", "hardware-accelerated canvas"),
      col(
        "left",
        "int32",
        "on-screen left, px: through every ancestor's offset, scroll and transform and its window's position",
      ),
      col("top", "int32", "on-screen top, px"),
      col("width", "int32", "visible width, px: clipped by the ancestors and the window"),
      col("height", "int32", "visible height, px"),
      col("has_background", "bool", "the view draws a background drawable"),
      col("visibility", "utf8", either(VIEW_VISIBILITIES)),
      opt("xml_id", "utf8", "android:id resource name"),
      opt("layout_file", "utf8", "layout resource the view was inflated from"),
      opt(
        "replayed",
        "bool",
        "draw only: the view was on screen, drawn from its RenderNode as recorded in an earlier frame (dur 0: no Java cost this frame)",
      ),
      opt(
        "window_id",
        "int32",
        "the window the view is in (its ViewRootImpl's identity); popups and dialogs are windows of their own",
      ),
      opt("window_left", "int32", "left of the on-screen rectangle inside its window, px"),
      opt("window_top", "int32", "top of the on-screen rectangle inside its window, px"),
    ],
  },
  {
    name: "methods",
    doc: "Methods named in a method trace's key section.",
    columns: [
      runId,
      col("method_id", "int64", "method id as the trace encodes it (action bits cleared)"),
      col("class_name", "utf8", "declaring class, dotted"),
      col("method_name", "utf8", "method name"),
      col("signature", "utf8", "JVM descriptor"),
      opt("source_file", "utf8", "source file when the trace names it"),
    ],
  },
  {
    name: "threads",
    doc: "Threads named in a method trace, or an OS thread of a Perfetto or systrace trace.",
    columns: [
      runId,
      col(
        "thread_id",
        "int32",
        "thread id in the trace (the kernel tid for Perfetto, systrace and ART traces)",
      ),
      col("name", "utf8", "thread name"),
      opt("pid", "int32", "process the thread belongs to (Perfetto, systrace)"),
    ],
  },
  {
    name: "method_events",
    doc: "Method trace records as recorded (AndroScope §IV): enter, exit and unwind per thread.",
    columns: [
      runId,
      col("thread_id", "int32", "thread id"),
      col("method_id", "int64", "method id"),
      col("action", "utf8", "enter, exit or unwind"),
      opt("wall", "int64", "wall-clock time since trace start, ns"),
      opt("thread_cpu", "int64", "thread CPU time, ns"),
      opt("cpu", "int32", "CPU core the record was taken on (AndroScope extended records)"),
      opt("heap_bytes", "int64", "heap allocated, bytes (AndroScope extended records)"),
      opt(
        "cycles",
        "int64",
        "hardware counter: CPU cycles, the thread's running count at this record (AndroScope extended records)",
      ),
      opt(
        "instructions",
        "int64",
        "hardware counter: instructions, the thread's running count at this record (AndroScope extended records)",
      ),
    ],
  },
  {
    name: "calls",
    doc: "Call records derived from method_events (AndroScope TraceBridge §V).",
    columns: [
      runId,
      col("call_id", "int32", "row index within the run"),
      col("thread_id", "int32", "thread id"),
      col("method_id", "int64", "method id"),
      col("depth", "int32", "stack depth, 0 = outermost"),
      opt("parent", "int32", "call_id of the caller; null at depth 0"),
      col("enter", "int64", "wall time of entry, ns"),
      col("exit", "int64", "wall time of exit, ns"),
      col("inclusive", "int64", "exit - enter, ns"),
      col("exclusive", "int64", "inclusive minus the children's inclusive, ns"),
      opt("cpu_inclusive", "int64", "thread-CPU inclusive time, ns"),
      opt("cpu_exclusive", "int64", "thread-CPU exclusive time, ns"),
      col(
        "synthetic_exit",
        "bool",
        "exit added by the reader: frame popped by an exit further down the stack (longjmp) or still open at trace end, §V-2; unwinds are recorded exits (see unwound)",
      ),
      opt(
        "synthetic_enter",
        "bool",
        "entry added by the reader: the call was running when tracing began, §V-1",
      ),
      opt("unwound", "bool", "left by an exception (unwind record)"),
    ],
  },
  {
    name: "hpc_samples",
    doc: "Hardware performance counters over time (simpleperf stat --interval).",
    columns: [
      runId,
      col("ts", "int64", "end of the sampling interval, ns"),
      opt("cpu", "int32", "core, with --per-core; null for all cores"),
      col("counter", "utf8", "event name (cpu-cycles, instructions, ...)"),
      col("value", "float64", "count in the interval"),
    ],
  },
  {
    name: "heap_samples",
    doc: "Heap and memory over time (dumpsys meminfo, AndroScope heap records).",
    columns: [
      runId,
      col("ts", "int64", "sample time, ns"),
      col("kind", "utf8", "what was measured (java_heap, native_heap, pss_total, ...)"),
      col("value", "int64", "bytes (a count for heap_objects)"),
    ],
  },
  {
    name: "gfxinfo_summaries",
    doc: "dumpsys gfxinfo summaries (AOSP libs/hwui/JankTracker.cpp): one row per process-wide or per-window summary.",
    columns: [
      runId,
      opt("pid", "int32", "process id from the dump's header"),
      opt("package", "utf8", "package the summary is about"),
      opt("window", "utf8", "window the summary is about; null for the process-wide one"),
      opt("stats_since", "int64", "Stats since: CLOCK_MONOTONIC ns"),
      opt("total_frames", "int64", "Total frames rendered"),
      opt("janky_frames", "int64", "Janky frames"),
      opt("janky_frames_legacy", "int64", "Janky frames (legacy) (Android 12+)"),
      opt("p50_ms", "float64", "50th percentile frame time, ms"),
      opt("p90_ms", "float64", "90th percentile, ms"),
      opt("p95_ms", "float64", "95th percentile, ms"),
      opt("p99_ms", "float64", "99th percentile, ms"),
      opt("gpu_p50_ms", "float64", "50th gpu percentile, ms (Android 10+)"),
      opt("gpu_p90_ms", "float64", "90th gpu percentile, ms"),
      opt("gpu_p95_ms", "float64", "95th gpu percentile, ms"),
      opt("gpu_p99_ms", "float64", "99th gpu percentile, ms"),
      opt("missed_vsync", "int64", "Number Missed Vsync"),
      opt("high_input_latency", "int64", "Number High input latency"),
      opt("slow_ui_thread", "int64", "Number Slow UI thread"),
      opt("slow_bitmap_uploads", "int64", "Number Slow bitmap uploads"),
      opt("slow_issue_draw_commands", "int64", "Number Slow issue draw commands"),
      opt("frame_deadline_missed", "int64", "Number Frame deadline missed (Android 10+)"),
    ],
  },
  {
    name: "gfxinfo_histogram",
    doc: "The HISTOGRAM / GPU HISTOGRAM lines of a gfxinfo summary: frames per frame-time bucket.",
    columns: [
      runId,
      opt("pid", "int32", "process id from the dump's header"),
      opt("window", "utf8", "window; null for the process-wide summary"),
      col("kind", "utf8", "frame or gpu"),
      col("bucket_ms", "float64", "the bucket's frame time, ms"),
      col("count", "int64", "frames in the bucket"),
    ],
  },
  {
    name: "logcat",
    doc: "Log lines (AOSP liblog logprint.cpp formats: threadtime, brief, time, monotonic, long, Android Studio's copy).",
    columns: [
      runId,
      opt("ts", "int64", "CLOCK_MONOTONIC ns when the format carries it (-v monotonic), else null"),
      opt("wall_time", "utf8", "the wall-clock time as printed (MM-DD HH:MM:SS.mmm, or with the year)"),
      opt("pid", "int32", "process id"),
      opt("tid", "int32", "thread id"),
      opt("level", "utf8", "V, D, I, W, E, F, A"),
      opt("tag", "utf8", "log tag"),
      col("message", "utf8", "the message"),
    ],
  },
  {
    name: "log_events",
    doc: "Logcat lines that matter for jank, typed: skipped frames, GC pauses, Davey!, ANR, slow looper dispatch/delivery.",
    columns: [
      runId,
      opt("ts", "int64", "CLOCK_MONOTONIC ns when known"),
      opt("wall_time", "utf8", "the wall-clock time as printed"),
      opt("pid", "int32", "process id"),
      opt("tid", "int32", "thread id"),
      col("kind", "utf8", "skipped_frames, gc_pause, davey, anr, slow_dispatch, slow_delivery"),
      opt("dur", "int64", "how long, ns (GC pause total, Davey duration, slow dispatch/delivery time)"),
      opt("count", "int64", "frames skipped (skipped_frames)"),
      opt("detail", "utf8", "the rest: GC cause, ANR reason, looper message"),
    ],
  },
  {
    name: "benchmark_metrics",
    doc: "androidx.benchmark (Macrobenchmark) results: one row per metric value of a benchmark iteration.",
    columns: [
      runId,
      col("benchmark", "utf8", "class#method of the benchmark"),
      col("metric", "utf8", "metric name (frameDurationCpuMs, frameOverrunMs, timeToInitialDisplayMs, ...)"),
      opt("iteration", "int32", "iteration index; null for a summary value"),
      opt("stat", "utf8", "min, median, max, P50, P90, P95, P99 for summaries; null for a raw value"),
      col("value", "float64", "the value in the metric's unit"),
    ],
  },
  {
    name: "frame_timeline",
    doc: "SurfaceFlinger FrameTimeline (Perfetto frame_timeline_event, Android 12+): expected and actual surface and display frames.",
    columns: [
      runId,
      col("scope", "utf8", "surface or display"),
      col("timeline", "utf8", "expected or actual"),
      col("ts", "int64", "start, ns CLOCK_MONOTONIC"),
      opt("dur", "int64", "ns; null when the trace ends before FrameEnd"),
      col("token", "int64", "surface frame token (scope surface) or display frame token (scope display)"),
      opt("display_frame_token", "int64", "the display frame a surface frame was presented in"),
      opt("pid", "int32", "process that drew the surface frame"),
      opt("layer_name", "utf8", "SurfaceFlinger layer"),
      opt(
        "present_type",
        "utf8",
        "On-time Present, Late Present, Early Present, Dropped Frame, Unknown Present",
      ),
      opt("on_time_finish", "bool", "the app finished before its deadline"),
      opt("gpu_composition", "bool", "SurfaceFlinger composed the frame on the GPU"),
      opt("jank_type", "utf8", "Perfetto's jank type names joined with ', ' ('None' when on time)"),
      opt("prediction_type", "utf8", "Valid Prediction, Expired Prediction, Unknown Prediction"),
      opt(
        "jank_tag",
        "utf8",
        "actual frames: Self Jank, Other Jank, Dropped Frame, Buffer Stuffing, SurfaceFlinger Stuffing, Non-perceivable Jank, No Jank, Unspecified (trace processor's)",
      ),
      opt("jank_severity_type", "utf8", "actual frames: None, Partial, Full, Unknown"),
      opt(
        "jank_severity_score",
        "float64",
        "actual frames: SurfaceFlinger's jank severity score, when recorded",
      ),
    ],
  },
  {
    name: "slices",
    doc: "Trace slices from Perfetto (atrace print events, track_event) and systrace: one row per slice.",
    columns: [
      runId,
      col("ts", "int64", "start, ns CLOCK_MONOTONIC"),
      opt("dur", "int64", "ns; null when the slice never closed"),
      opt("pid", "int32", "process"),
      opt("tid", "int32", "thread; null for async slices"),
      opt("thread_name", "utf8", "name of that thread"),
      col("name", "utf8", "slice name"),
      col("depth", "int32", "nesting depth on its track, 0 = outermost"),
      opt("category", "utf8", "where it came from: atrace, async, track_event:<category>, systrace"),
      opt("track", "utf8", "the async track or track_event track name, when not a thread's own"),
    ],
  },
  {
    name: "thread_states",
    doc: "Scheduler states per thread from sched_switch / sched_waking (Perfetto, systrace): one row per interval.",
    columns: [
      runId,
      col("ts", "int64", "start, ns CLOCK_MONOTONIC"),
      opt("dur", "int64", "ns; null when the trace ends in that state"),
      col("tid", "int32", "thread"),
      opt("pid", "int32", "process, when known"),
      opt("thread_name", "utf8", "thread name (comm)"),
      col("state", "utf8", "running, runnable, runnable_preempted, sleeping, uninterruptible, dead, unknown"),
      opt("cpu", "int32", "core it ran on (running)"),
      opt("blocked_function", "utf8", "kernel function an uninterruptible sleep waited in, when traced"),
      opt("io_wait", "bool", "the uninterruptible sleep waited for I/O (sched_blocked_reason), when traced"),
    ],
  },
  {
    name: "counter_samples",
    doc: "Counter tracks from Perfetto and systrace (atrace C| counters, track_event counters, process and system counters).",
    columns: [
      runId,
      col("ts", "int64", "sample time, ns CLOCK_MONOTONIC"),
      opt("pid", "int32", "process, for process-scoped counters"),
      opt("cpu", "int32", "core, for per-CPU counters (cpufreq in kHz, cpuidle state)"),
      col(
        "name",
        "utf8",
        "counter name (Perfetto's: cpufreq, cpuidle, mem.rss.anon, mem.swap, oom_score_adj, ...)",
      ),
      col("value", "float64", "value"),
    ],
  },
  {
    name: "processes",
    doc: "Processes seen in a Perfetto or systrace trace.",
    columns: [
      runId,
      col("pid", "int32", "process id"),
      opt("ppid", "int32", "parent process id"),
      opt("name", "utf8", "process name (cmdline's first part)"),
      opt("uid", "int32", "Android uid"),
    ],
  },
  {
    name: "binder_transactions",
    doc: "Binder calls from ftrace binder_transaction / binder_transaction_received (Perfetto), paired with the thread that served them and their reply as trace processor's binder tracker pairs them.",
    columns: [
      runId,
      col("ts", "int64", "the call was sent, ns CLOCK_MONOTONIC"),
      opt(
        "dur",
        "int64",
        "until the caller received the reply, ns; null for one-way calls or a reply the trace lacks",
      ),
      col("client_tid", "int32", "calling thread"),
      opt("client_pid", "int32", "calling process"),
      opt("client_thread", "utf8", "calling thread's name"),
      opt("server_tid", "int32", "thread that received and served the call"),
      opt("server_pid", "int32", "process the call went to"),
      opt("server_thread", "utf8", "serving thread's name"),
      opt("server_ts", "int64", "the serving thread received the call, ns CLOCK_MONOTONIC"),
      opt("server_dur", "int64", "from receipt to the serving thread's reply, ns"),
      col("one_way", "bool", "FLAG_ONEWAY: the caller does not wait for a reply"),
      col("code", "int64", "transaction code (the AIDL method number)"),
      col("flags", "int64", "transaction flags"),
      col("transaction_id", "int64", "the kernel's debug id of the call"),
      col("dest_node", "int64", "the kernel's target node id"),
    ],
  },
  {
    name: "packages",
    doc: "Android packages installed on the device (Perfetto packages_list).",
    columns: [
      runId,
      col("name", "utf8", "package name"),
      opt("uid", "int32", "app uid"),
      opt("version_code", "int64", "versionCode"),
      opt("debuggable", "bool", "android:debuggable"),
      opt("profileable_from_shell", "bool", "<profileable android:shell>"),
    ],
  },
];

export type TableName =
  | "runs"
  | "frames"
  | "ui_events"
  | "tasks"
  | "contexts"
  | "render_ops"
  | "methods"
  | "threads"
  | "method_events"
  | "calls"
  | "hpc_samples"
  | "heap_samples"
  | "gfxinfo_summaries"
  | "gfxinfo_histogram"
  | "logcat"
  | "log_events"
  | "benchmark_metrics"
  | "frame_timeline"
  | "slices"
  | "thread_states"
  | "counter_samples"
  | "processes"
  | "packages"
  | "binder_transactions";

export const TABLE_NAMES = TABLES.map((t) => t.name) as TableName[];

export function tableSpec(name: string): TableSpec {
  const spec = TABLES.find((t) => t.name === name);
  if (!spec) throw new Error(`unknown table ${name} (known: ${TABLE_NAMES.join(", ")})`);
  return spec;
}

export function arrowType(type: ColumnType): DataType {
  switch (type) {
    case "int8":
      return new Int8();
    case "int32":
      return new Int32();
    case "int64":
      return new Int64();
    case "float64":
      return new Float64();
    case "bool":
      return new Bool();
    case "utf8":
      return new Utf8();
    case "list<utf8>":
      return new List(new Field("item", new Utf8(), true));
  }
}

/** The ColumnType an Arrow type stands for, or a description of it when it is none of ours. */
export function columnTypeOf(type: DataType): ColumnType | string {
  if (type instanceof Dictionary || DataTypeIs.dictionary(type)) {
    const value = (type as Dictionary).dictionary;
    return columnTypeOf(value) === "utf8" ? "utf8" : `dictionary<${String(value)}>`;
  }
  const text = String(type);
  if (text === "Int8") return "int8";
  if (text === "Int32") return "int32";
  if (text === "Int64") return "int64";
  if (text === "Float64") return "float64";
  if (text === "Bool") return "bool";
  if (text === "Utf8" || text === "LargeUtf8") return "utf8";
  if (/^List<(Large)?Utf8>$/.test(text)) return "list<utf8>";
  return text;
}

// Duck-typed so tables from a second apache-arrow instance (duckdb-wasm's require) are understood too.
const DataTypeIs = {
  dictionary(type: DataType): boolean {
    return (type as { typeId?: number }).typeId === -1;
  },
};
