// The one list of Perfetto trace-processor diff tests (google/perfetto test/trace_processor/diff_tests, Apache-2.0)
// that jankbook's Perfetto and systrace importers are checked against: each test's own trace (encoded with protoc or
// Perfetto's synth_common, test/fixtures/SOURCES.md, or its systrace text quoted) and its expected CSV, Google's
// numbers, restricted to what jankbook's tables hold. Where jankbook differs on purpose, the test says so and
// docs/perfetto.md says why. This file checks that the list and the test files agree, both ways.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const TP = "test/collectors/perfetto/trace-processor-difftests.test.ts";
const TE = "test/collectors/perfetto/trace-processor-difftests-track-event.test.ts";
const PD = "test/collectors/perfetto/perfetto-difftests.test.ts";
const TABLES = "test/collectors/perfetto/perfetto-difftests-tables.test.ts";
const KM = "test/collectors/perfetto/trace-processor-difftests-kernel-markers.test.ts";
const SYSTRACE = "test/collectors/systrace/systrace-import.test.ts";

interface DiffTest {
  /** the DiffTestBlueprint's method name */
  name: string;
  /** where it lives under test/trace_processor/diff_tests */
  suite: string;
  /** the jankbook test file asserting it */
  file: string;
  checks: string;
}

const T = (suite: string, file: string, name: string, checks: string): DiffTest => ({
  suite,
  file,
  name,
  checks,
});

export const DIFF_TESTS: DiffTest[] = [
  // Processes and threads (processes, threads, and the pid/thread_name of slices and thread states)
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_tracking",
    "sched comms, process_tree, task_newtask with and without CLONE_THREAD, a tid reused by another process",
  ),
  T("parser/process_tracking/tests.py", TP, "test_process_tracking_uid", "process_tree uids"),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_tracking_process_tracking_short_lived_1",
    "a fork (flags 0) is a new process, child of the forker's",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_tracking_process_tracking_short_lived_2",
    "the same, renamed by task_rename before it is freed",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_tracking_process_tracking_exec",
    "process_tree after a fork renames the process",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_tracking_reused_thread_print",
    "sched_process_free ends tid 11; a CLONE_THREAD reuses it; B|pid slices keep the first lifetime",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_reparent_and_reuse",
    "a changed ppid keeps the first parent; a pid freed and seen again is a second process",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_parent_pid_process_parent_pid_tracking_1",
    "a fork from a non-main thread: the parent is its process",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_parent_pid_process_parent_pid_tracking_2",
    "the same when the forking thread's process is only known later",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_process_is_kthread_from_procfs",
    "a cmdline of several arguments (the packet was once dropped whole); a kworker's queue suffix cut",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_cmdline_is_comm_for_kthreads",
    "cmdline_is_comm names the main thread",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_main_thread_comm_from_process_tree",
    "a process_tree thread names the main thread; the process is argv0",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_kworker_main_thread_name_redacted",
    "cmdline_is_comm kworker: the queue suffix cut from process and thread",
  ),
  T(
    "parser/process_tracking/tests.py",
    TP,
    "test_unknown_thread_name_tracking",
    "systrace: a <...> comm does not replace the name sched_switch gave",
  ),
  T(
    "parser/process_tracking/tests.py",
    TABLES,
    "test_process_stats_process_runtime",
    "process_stats into counter_samples: runtime.user_ns/kernel_ns, mem.* in bytes, oom_score_adj",
  ),
  // atrace (slices, async slices, counters) and systrace lines
  T(
    "parser/atrace/tests.py",
    TP,
    "test_android_b2b_async_begin_list_slices",
    "an S repeated while its cookie is open is dropped: (1000,30), (1015,45), (1030,20)",
  ),
  T(
    "parser/atrace/tests.py",
    PD,
    "test_process_track_slices_android_async_slice",
    "S on one CPU, F on another",
  ),
  T(
    "parser/atrace/tests.py",
    TP,
    "test_async_track_atrace_process_track_slices",
    "G/H slices nest on a named process track; H by cookie alone ends its slice",
  ),
  T(
    "parser/atrace/tests.py",
    TP,
    "test_cpus_header_removal",
    "a cpus=N header is not an event, nor incompleteness",
  ),
  T(
    "parser/atrace/tests.py",
    TP,
    "test_regex_pattern_no_gap_after_irq_flags",
    "flags touching the timestamp",
  ),
  T(
    "parser/atrace/tests.py",
    TP,
    "test_cpus_header_with_digits_only",
    "cpus=16; a task name with dashes and digits",
  ),
  T("parser/atrace/tests.py", TP, "test_hex_preempt_count", "five flag characters with a hex preempt count"),
  T(
    "parser/atrace/tests_error_handling.py",
    TP,
    "test_instant_atrace_instant_with_thread",
    "I|pid|name on the thread",
  ),
  T(
    "parser/atrace/tests_error_handling.py",
    TP,
    "test_instant_async_atrace_instant_async",
    "N|pid|track|name on the process's named track",
  ),
  T(
    "parser/atrace/tests_error_handling.py",
    TP,
    "test_bad_print_textproto_list_slices",
    "ftrace prints that are not atrace markers make no slice",
  ),
  // track_event (slices, counters, track choice, clocks)
  T(
    "parser/track_event/tests.py",
    TE,
    "test_incremental_counter_sequences",
    "is_incremental counters summed per sequence: 100, 50, 110, 55",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_tracks_slices",
    "track choice: descriptors, child tracks, explicit track_uuid 0, process-scoped legacy I, pid/tid_override",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_same_tids_threads",
    "one tid in two processes: two threads",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_same_tids_slices",
    "... and each slice on its own thread",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_instant_slices",
    "TYPE_INSTANT and legacy I and R phases on the default track's thread",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_counters_slices",
    "slices on descriptor threads of a process",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_counters_counters",
    "TYPE_COUNTER samples (int and double)",
  ),
  T(
    "parser/track_event/tests.py",
    PD,
    "test_track_event_with_atrace",
    "legacy B/E phases beside an atrace slice",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_with_atrace_separate_tracks",
    "track_event and atrace slices of one thread",
  ),
  T(
    "parser/track_event/tests.py",
    PD,
    "test_track_event_monotonic_trace_clock_slices",
    "MONOTONIC primary clock: both clocks land on CLOCK_MONOTONIC",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_name_resolution",
    "a re-sent descriptor keeps its first name; an unnamed root track is named by its first event",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_name_resolution_extended",
    "SIBLING_MERGE_BEHAVIOR_NONE takes the last name; a name sent after the event still names an unnamed track",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_track_event_name_resolution_null_override",
    "a descriptor without a name does not clear one",
  ),
  T(
    "parser/track_event/tests.py",
    TE,
    "test_legacy_async_event",
    "legacy async S/F nest on the track of their global id and name; T/p steps are instants",
  ),
  T(
    "metrics/graphics/tests.py",
    TE,
    "test_android_jank_cuj",
    "unnamed descriptor tracks named by their earliest event (the J<...> CUJ slice)",
  ),
  // FrameTimeline
  T(
    "parser/graphics/tests.py",
    PD,
    "test_expected_frame_timeline_events",
    "expected surface and display slices",
  ),
  T(
    "parser/graphics/tests.py",
    PD,
    "test_actual_frame_timeline_events",
    "actual slices: present type, on-time finish, jank type, prediction type",
  ),
  T(
    "parser/graphics/tests.py",
    TABLES,
    "test_actual_frame_timeline_events",
    "jank_tag and jank_severity_type",
  ),
  // Thread states
  T(
    "parser/parsing/tests.py",
    PD,
    "test_ftrace_with_tracing_start_list_sched_slice_spans",
    "running intervals from sched_switch on two CPUs",
  ),
  T(
    "parser/ftrace/ftrace_crop_tests.py",
    PD,
    "test_crop_compact_sched_switch",
    "compact_sched: delta timestamps and interned comms",
  ),
  T(
    "parser/parsing/tests.py",
    TABLES,
    "test_sched_blocked_reason_symbolized_sched_blocked_reason_function",
    "blocked_function on each D interval from interned kernel symbols",
  ),
  T(
    "parser/parsing/tests.py",
    SYSTRACE,
    "test_sched_blocked_systrace_sched_blocked_reason",
    "systrace: D states and their caller",
  ),
  T(
    "parser/parsing/tests.py",
    TABLES,
    "test_sched_blocked_proto_sched_blocked_reason",
    "io_wait on each D interval",
  ),
  // Drivers' tracing_mark_write events (atrace slices and counters)
  T(
    "parser/process_tracking/tests.py",
    KM,
    "test_slice_with_pid_sde_tracing_mark_write",
    "sde begin/end slices",
  ),
  T("parser/parsing/tests.py", KM, "test_slice_mdss_tracing_mark_write", "mdss begin/end slices"),
  T(
    "parser/parsing/tests.py",
    KM,
    "test_kernel_tmw_counter_process_counter_and_track",
    "g2d counters in the payload's process",
  ),
  T(
    "parser/parsing/tests.py",
    KM,
    "test_kernel_dpu_tmw_counter_process_counter_and_track",
    "dpu counters written by another thread keep the payload's pid",
  ),
  // Device, packages, CPU, binder
  T("parser/parsing/tests.py", TABLES, "test_config_metadata", "system_info: device, release and API level"),
  T(
    "parser/parsing/tests.py",
    TABLES,
    "test_process_metadata_matching",
    "packages_list: packages, version by uid",
  ),
  T("parser/parsing/tests.py", TABLES, "test_android_binder", "binder calls with their serving thread"),
  T("metrics/network/tests.py", TABLES, "test_netperf_metric", "cpu_frequency into per-CPU cpufreq counters"),
];

describe("the diff tests used", () => {
  const files = [...new Set(DIFF_TESTS.map((t) => t.file))];
  const text = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

  it("each listed test is asserted, by name, in the file the list names", () => {
    const missing = DIFF_TESTS.filter((t) => !text.get(t.file)!.includes(t.name)).map(
      (t) => `${t.file}: ${t.name}`,
    );
    expect(missing).toEqual([]);
  });

  it("every diff test a test title names is in the list", () => {
    const listed = new Set(DIFF_TESTS.map((t) => t.name));
    const titled = files.flatMap((f) =>
      [...text.get(f)!.matchAll(/\bit\("(test_[a-z0-9_]+)/g)].map((m) => `${f}: ${m[1]}`),
    );
    expect(titled.length).toBeGreaterThan(25);
    expect(titled.filter((t) => !listed.has(t.split(": ")[1]!))).toEqual([]);
  });
});
