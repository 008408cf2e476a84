// How a run comes to have each table: what a notebook cell says when it reads a table the run lacks, so a
// systrace-only or Perfetto-only run shows "not applicable: no method trace (...)" instead of DuckDB's
// "Table with name methods does not exist! Did you mean threads?". Each line names the data source to record.
import { TABLE_NAMES } from "./schema";

const METHOD_TRACE =
  "no method trace: collect with --method-trace (am profile) or import a .trace file from Debug.startMethodTracing";
const AGENT = (hooks: string) =>
  `no ${hooks}: run the on-phone agent (docs/agent.md) while collecting, or import its logcat output`;
const SCHED = "no sched data: record with linux.ftrace sched/sched_switch and sched/sched_waking";

export const TABLE_SOURCES: Readonly<Record<string, string>> = {
  runs: "no runs: load a run bundle",
  frames:
    "no frames: collect (dumpsys gfxinfo framestats), import a framestats dump, or record a Perfetto trace with android.surfaceflinger.frametimeline (Android 12+)",
  ui_events: AGENT("input events (agent input hooks)"),
  tasks: AGENT("async tasks (agent task hooks)"),
  contexts: AGENT("task contexts (agent task hooks)"),
  render_ops: AGENT("render operations (agent view hooks)"),
  methods: METHOD_TRACE,
  threads:
    "no thread names: import a method trace, or a Perfetto trace with linux.process_stats, or a systrace",
  method_events: METHOD_TRACE,
  calls: METHOD_TRACE,
  hpc_samples:
    "no hardware counters: collect with --counters (simpleperf stat) or import simpleperf stat output",
  heap_samples: "no heap samples: collect (dumpsys meminfo every --meminfo-interval) or import meminfo dumps",
  gfxinfo_summaries: "no gfxinfo summaries: import a dumpsys gfxinfo dump",
  gfxinfo_histogram: "no gfxinfo histogram: import a dumpsys gfxinfo dump",
  logcat: "no logcat: collect, or import a logcat dump or a Perfetto trace with the android.log data source",
  log_events:
    "no log events: collect, or import a logcat dump or a Perfetto trace with the android.log data source",
  benchmark_metrics: "no benchmark metrics: import a Macrobenchmark benchmarkData.json",
  frame_timeline:
    "no FrameTimeline: record a Perfetto trace with android.surfaceflinger.frametimeline (Android 12+)",
  slices:
    "no slices: record atrace categories (linux.ftrace atrace_categories) or track_event, or import a systrace",
  thread_states: SCHED,
  counter_samples: "no counters: record a Perfetto trace with counter data sources (or atrace C| counters)",
  binder_transactions:
    "no binder transactions: record a Perfetto trace with linux.ftrace binder/binder_transaction and binder/binder_transaction_received",
  packages: "no package list: record a Perfetto trace with the android.packages_list data source",
  processes: "no process list: record a Perfetto trace with linux.process_stats, or a systrace",
};

/** What a run would need to have `table`: the line a not-applicable cell shows. */
export function tableSource(table: string): string {
  return TABLE_SOURCES[table] ?? `no ${table}: this run has no ${table} table`;
}

/** Whether `name` is a table of the bundle contract (so its absence means the run lacks it, not a typo). */
export function isBundleTable(name: string): boolean {
  return (TABLE_NAMES as readonly string[]).includes(name);
}
