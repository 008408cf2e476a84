// Perfetto's trace-processor diff tests (google/perfetto test/trace_processor/diff_tests, Apache-2.0) used as the
// oracle for how jankbook reads processes, threads, atrace, counters and track_event tracks. Each trace is the test's
// own, encoded with protoc or synth_common (test/fixtures/SOURCES.md); each expected table is the test's CSV,
// Google's numbers, restricted to what jankbook's tables hold. The list of every diff test used, with what each
// checks, is difftests-list.test.ts.
import { describe, expect, it } from "vitest";
import { sliceRows } from "../../../collectors/sources/perfetto/rows";
import { parseSystraceText } from "../../../collectors/sources/systrace/parse-systrace";
import { csv, decode, named, q, threadTable } from "./difftest-csv";

describe("trace processor diff tests: processes and threads", () => {
  it("test_process_tracking: comms, process_tree, CLONE_THREAD and a reused tid", () => {
    const d = decode("synth_process_tracking");
    expect(threadTable(d.rows.threads, d.rows.processes)).toEqual(
      named(
        csv(`
        "tid","pid","pname","tname"
        10,10,"process1","p1-t0"
        11,"[NULL]","[NULL]","p1-t1"
        12,10,"process1","p1-t2"
        20,20,"process_2","p2-t0"
        21,20,"process_2","p2-t1"
        22,20,"process_2","p2-t2"
        30,30,"process_3","p3-t0"
        31,30,"process_3","p3-t1"
        31,40,"process_4","p4-t1"
        32,30,"process_3","p3-t2"
        33,30,"process_3","p3-t3"
        34,30,"process_3","p3-t4"
        40,40,"process_4","p4-t0"`),
      ),
    );
  });

  it("test_process_tracking_uid: uids from process_tree", () => {
    const d = decode("synth_process_tracking");
    // Trace processor also lists pid 0, the idle process; jankbook leaves the idle task out.
    expect(d.rows.processes.map((p) => [p.pid, p.uid].map(q).join(","))).toEqual(
      csv(`
        "pid","uid"
        10,1001
        20,1002
        30,"[NULL]"
        40,"[NULL]"`),
    );
  });

  it("test_process_tracking_process_tracking_short_lived_1 and test_process_tracking_process_tracking_short_lived_2: a fork is a process of its own", () => {
    for (const [name, child] of [
      ["process_tracking_short_lived_1", "child"],
      ["process_tracking_short_lived_2", "true_name"],
    ] as const) {
      const d = decode(name);
      expect(threadTable(d.rows.threads, d.rows.processes)).toEqual([
        '10,10,"parent","parent"',
        `11,11,"${child}","${child}"`,
      ]);
      // short_lived_1's fork: child of the forking thread's process (process_tracker.cc
      // AssociateCreatedProcessToParentThread).
      expect(d.rows.processes.find((p) => p.pid === 11)!.ppid).toBe(10);
    }
  });

  it("test_process_parent_pid_process_parent_pid_tracking_1: forked by a worker thread, child of its process", () => {
    const d = decode("process_parent_pid_tracking_1");
    // Trace processor: (10, 0), (20, 10) as (child_pid, parent_pid); jankbook's ppid holds the parent's pid.
    expect(d.rows.processes.map((p) => [p.pid, p.ppid])).toEqual([
      [10, 0],
      [20, 10],
    ]);
  });

  it("test_process_tracking_process_tracking_exec: the process_tree after the fork names the process", () => {
    const d = decode("process_tracking_exec");
    expect(threadTable(d.rows.threads, d.rows.processes)).toEqual(
      csv(`
        "tid","pid","pname","tname"
        10,10,"parent","parent"
        11,11,"true_process_name","true_name"`),
    );
  });

  it("test_process_tracking_reused_thread_print: tid 11 freed, then a thread of process 10", () => {
    const d = decode("reused_thread_print");
    const tp = csv(`
        "tid","pid","pname","tname"
        10,10,"parent","[NULL]"
        11,11,"short_lived","[NULL]"
        11,10,"parent","true_name"`);
    expect(threadTable(d.rows.threads, d.rows.processes)).toEqual(named(tp));
    // The unnamed first tid 11 (pid 11) shows in its slice: B|11 at 10, before the free at 12.
    const slices = d.rows.sliceColumns!;
    const first = [...slices.ts].indexOf(10);
    expect([slices.tid[first], slices.reused?.get(11)?.pids]).toEqual([11, [11, 10]]);
    expect(d.rows.processes.map((p) => [p.pid, p.name])).toEqual([
      [10, "parent"],
      [11, "short_lived"],
    ]);
  });

  it("test_process_reparent_and_reuse: first parent kept; a freed pid seen again is another process", () => {
    const d = decode("process_reparent_and_reuse");
    const rows = d.rows.processes
      .filter((p) => p.pid === 200 || p.pid === 300)
      .map((p) => [p.pid, p.name, p.ppid].map(q).join(","));
    expect(rows).toEqual(
      csv(`
        "pid","name","parent_pid"
        200,"child_a",100
        300,"orig_b",1
        300,"reused_b",2000`),
    );
  });

  it("test_process_is_kthread_from_procfs: several cmdline arguments; a kworker's queue suffix cut", () => {
    const d = decode("process_is_kthread_from_procfs");
    expect(d.complete).toBe(true);
    // Trace processor's cmdline column: "kworker/R" and "/usr/sbin/apache2 -k start"; jankbook keeps the
    // process name, argv0 (system_probes_parser.cc), which is what its name column holds too.
    expect(
      d.rows.processes.filter((p) => p.pid === 618 || p.pid === 710).map((p) => [p.pid, p.name, p.uid]),
    ).toEqual([
      [618, "kworker/R", 0],
      [710, "/usr/sbin/apache2", 33],
    ]);
  });

  it("test_cmdline_is_comm_for_kthreads: the cmdline names the main thread", () => {
    const d = decode("cmdline_is_comm_for_kthreads");
    expect(threadTable(d.rows.threads, d.rows.processes, true)).toEqual(
      csv(`
        "tid","pid","thread_name","process_name"
        27,27,"ksoftirqd/1","ksoftirqd/1"
        28,28,"kworker/1:0","kworker/1:0"`),
    );
  });

  it("test_main_thread_comm_from_process_tree: process named by argv0, main thread by its own name", () => {
    const d = decode("main_thread_comm_from_process_tree");
    expect(threadTable(d.rows.threads, d.rows.processes, true)).toEqual(
      csv(`
        "tid","pid","thread_name","process_name"
        100,100,"AppMainThread","/usr/bin/app"`),
    );
  });
});

describe("trace processor diff tests: more process tracking", () => {
  it("test_process_parent_pid_process_parent_pid_tracking_2: forked by a thread whose process comes later", () => {
    const d = decode("process_parent_pid_tracking_2");
    // The fork (ts 15) precedes the process_tree (ts 25) that puts thread 11 in process 10.
    expect(d.rows.processes.map((p) => [p.pid, p.ppid].map(q).join(","))).toEqual(
      csv(`
        "child_pid","parent_pid"
        10,0
        20,10`),
    );
  });

  it("test_kworker_main_thread_name_redacted: cmdline_is_comm kworker, queue suffix cut from both", () => {
    const d = decode("kworker_main_thread_name_redacted");
    expect(threadTable(d.rows.threads, d.rows.processes, true)).toEqual(
      csv(`
        "tid","pid","thread_name","process_name"
        28,28,"kworker/1:0","kworker/1:0"`),
    );
  });

  it("test_unknown_thread_name_tracking: a <...> comm does not replace the thread's name", () => {
    // process_tracking/unknown_thread_name.systrace, quoted.
    const r = parseSystraceText(
      `          <idle>-0     [001] d..2  1234.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=real_name next_pid=19999 next_prio=120
           <...>-19999 [001] d..3  1234.000002: sched_wake_idle_without_ipi: cpu=2
`,
      "unknown_thread_name.systrace",
    );
    expect(r.rows.threads.map((t) => [t.tid, t.pid, t.name].map(q).join(","))).toEqual(
      csv(`
        "tid","pid","tname"
        19999,"[NULL]","real_name"`),
    );
  });
});

describe("trace processor diff tests: atrace", () => {
  it("test_android_b2b_async_begin_list_slices: a repeated S with an open cookie is dropped", () => {
    const d = decode("android_b2b_async_begin");
    const got = sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.name].map(q).join(","));
    expect(got.sort()).toEqual(
      csv(`
        "ts","dur","name"
        1000,30,"multistart"
        1015,45,"multistart"
        1030,20,"multistart"`),
    );
    expect(d.warnings.some((w) => /slice ends with no open slice/.test(w))).toBe(false);
  });

  it("test_async_track_atrace_process_track_slices: G/H slices on a named process track, by cookie", () => {
    const d = decode("async_track_atrace");
    // H|1|track|2048 names no slice: it ends the one with cookie 2048 (ts 55).
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.pid, s.name, s.track].map(q).join(",")),
    ).toEqual(
      csv(`
        "ts","dur","pid","slice_name","track_name"
        50,25,1,"ev","track"
        55,15,1,"ev","track"
        60,5,2,"ev","track"`),
    );
  });

  // parser/atrace/tests_error_handling.py
  it("test_instant_atrace_instant_with_thread and test_instant_async_atrace_instant_async: I and N", () => {
    const thread = decode("instant_atrace");
    expect(
      sliceRows(thread.rows.sliceColumns!)
        .filter((s) => s.dur === 0)
        .map((s) => [s.thread_name, s.name, s.ts].map(q).join(",")),
    ).toEqual(
      csv(`
        "thread_name","track_name","ts"
        "t2","t2_event",51
        "t1","t1_event",53`),
    );
    const proc = decode("instant_async_atrace");
    const pname = (pid: number | null) => proc.rows.processes.find((p) => p.pid === pid)?.name ?? null;
    expect(
      sliceRows(proc.rows.sliceColumns!)
        .filter((s) => s.dur === 0 && s.tid === null)
        .map((s) => [pname(s.pid), s.track, s.name, s.ts].map(q).join(",")),
    ).toEqual(
      csv(`
        "process_name","track_name","instant_name","ts"
        "p2","track_p2","ev1",51
        "p1","track_p1","ev2",53`),
    );
  });

  it("test_bad_print_textproto_list_slices: prints that are not atrace markers make no slice", () => {
    const d = decode("bad_print");
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.name].map(q).join(","))).toEqual(
      csv(`
        "ts","dur","name"
        74662603048,2,"valid_print"`),
    );
  });

  it("the same S/F sequence as systrace text reads the same", () => {
    // The diff test's events, written as the ftrace text atrace saves (ts in µs: 1000 ns → 0.000001000 s).
    const ev = [
      [1000, 4064, "S|1204|multistart|0"],
      [1010, 1257, "S|1204|multistart|0"],
      [1015, 1257, "S|1204|multistart|10"],
      [1020, 1240, "S|1204|multistart|0"],
      [1030, 4293, "F|1204|multistart|0"],
      [1030, 1240, "S|1204|multistart|0"],
      [1050, 4293, "F|1204|multistart|0"],
      [1060, 4009, "F|1204|multistart|10"],
    ] as const;
    const text = ev
      .map(
        ([ts, tid, m]) =>
          `t-${tid} (${1204}) [003] .... 0.${String(ts).padStart(9, "0")}: tracing_mark_write: ${m}`,
      )
      .join("\n");
    const r = parseSystraceText(text, "b2b.systrace");
    expect(r.rows.slices.map((s) => [s.ts, s.dur, s.name].map(q).join(",")).sort()).toEqual([
      '1000,30,"multistart"',
      '1015,45,"multistart"',
      '1030,20,"multistart"',
    ]);
  });

  // The Systrace(...) inputs of parser/atrace/tests.py, quoted.
  it("test_cpus_header_removal: a cpus=8 header neither fails the run nor hides its slices", () => {
    const r = parseSystraceText(
      `cpus=8
kworker/u16:1-77    (   77) [004] ....   316.196720: tracing_mark_write: B|77|test_slice
kworker/u16:1-77    (   77) [004] ....   316.196730: tracing_mark_write: E|77
`,
      "cpus.systrace",
    );
    expect(r.complete).toBe(true);
    expect(r.warnings).toEqual([]);
    expect(r.rows.slices.map((s) => [s.ts, s.name, s.dur].map(q).join(","))).toEqual(
      csv(`
        "ts","name","dur"
        316196720000,"test_slice",10000`),
    );
  });

  it("test_regex_pattern_no_gap_after_irq_flags: flags that touch the timestamp", () => {
    const r = parseSystraceText(
      `cpus=8
kworker/u16:1-77    (   77) [004] ....316.196720: tracing_mark_write: B|77|no_gap_after_dots
kworker/u16:2-78    (   78) [005] .... 316.196730: tracing_mark_write: B|78|space_after_dots
test-process-123    (  123) [002] d...316.196740: tracing_mark_write: B|123|no_gap_after_flags
<idle>-0     [000]  0.002188: tracing_mark_write: E|77
<idle>-0     [001]  0.002198: tracing_mark_write: E|78
<idle>-0     [002]  0.002208: tracing_mark_write: E|123
`,
      "gap.systrace",
    );
    const names = ["no_gap_after_dots", "no_gap_after_flags", "space_after_dots"];
    expect(names.map((n) => `"${n}",${r.rows.slices.filter((s) => s.name === n).length}`)).toEqual(
      csv(`
        "name","count"
        "no_gap_after_dots",1
        "no_gap_after_flags",1
        "space_after_dots",1`),
    );
    expect(r.complete).toBe(true);
    // The diff test counts slices only; the timestamps are as printed, four flag characters before them.
    expect(r.rows.slices.map((s) => [s.ts, s.tid])).toEqual([
      [316196720000, 77],
      [316196730000, 78],
      [316196740000, 123],
    ]);
  });

  it("test_cpus_header_with_digits_only and test_hex_preempt_count", () => {
    const a = parseSystraceText(
      `cpus=16
task-1234-567    ( 567) [000] ....   100.000000: tracing_mark_write: B|567|task_work
task-1234-567    ( 567) [000] ....   100.001000: tracing_mark_write: E|567
`,
      "a.systrace",
    );
    expect([a.complete, a.rows.slices.filter((s) => s.name === "task_work").length]).toEqual([true, 1]);
    const b = parseSystraceText(
      `cpus=8
chrome-10830 ( 10830) [000] dNsa. 4213.033572: tracing_mark_write: B|10830|hex_preempt
chrome-10830 ( 10830) [000] dNsa. 4213.033672: tracing_mark_write: E|10830
`,
      "b.systrace",
    );
    expect(b.rows.slices.map((s) => [s.ts, s.name].map(q).join(","))).toEqual(
      csv(`
        "ts","name"
        4213033572000,"hex_preempt"`),
    );
  });
});
