// Perfetto's trace-processor diff tests (google/perfetto test/trace_processor/diff_tests, Apache-2.0) used as the
// oracle for how jankbook reads processes, threads, atrace, counters and track_event tracks. Each trace is the test's
// own, encoded with protoc or synth_common (test/fixtures/SOURCES.md); each expected table is the test's CSV,
// Google's numbers, restricted to what jankbook's tables hold. The diff tests used, by name, and what each checks:
//
// parser/process_tracking/tests.py
//   test_process_tracking                       sched comms, process_tree, task_newtask with and without
//                                               CLONE_THREAD, a tid reused by another process (31 in 30, then 40)
//   test_process_tracking_process_tracking_short_lived_1   a fork (flags 0) is a new process, child of the forker's
//   test_process_tracking_process_tracking_short_lived_2   the same, renamed by task_rename before it is freed
//   test_process_tracking_process_tracking_exec            process_tree after a fork renames the process
//   test_process_tracking_reused_thread_print              sched_process_free ends tid 11; a CLONE_THREAD reuses it
//   test_process_reparent_and_reuse             a changed ppid keeps the first parent; a pid freed and seen again is
//                                               a second process
//   test_process_parent_pid_process_parent_pid_tracking_1  a fork from a non-main thread: the parent is its process
//   test_process_tracking_uid                   process_tree uids
//   test_process_is_kthread_from_procfs         a cmdline of several arguments (packed repeated strings) and a
//                                               kworker name cut at its queue suffix
//   test_cmdline_is_comm_for_kthreads           cmdline_is_comm names the main thread too
//   test_main_thread_comm_from_process_tree     a process_tree thread names the main thread; process = argv0
//
// parser/atrace/tests.py
//   test_android_b2b_async_begin_list_slices    an S repeated while its cookie is open is dropped
//   test_cpus_header_removal                    a `cpus=N` header line is not an event (systrace text)
//   test_regex_pattern_no_gap_after_irq_flags   flags touching the timestamp (`....316.196720`)
//   test_cpus_header_with_digits_only           `cpus=16` header, a task name with dashes and digits
//   test_hex_preempt_count                      five-character flags with a hex preempt count (`dNsa.`)
//
// parser/track_event/tests.py
//   test_incremental_counter_sequences          is_incremental counters summed per sequence
//   test_track_event_tracks_slices              track choice: descriptor thread, process and child tracks, the
//                                               sequence's default track, explicit track_uuid 0 (global "Default
//                                               Track"), a process-scoped legacy instant, pid/tid_override
//
// metrics/graphics/android_jank_cuj.py (the trace of the android_jank_cuj metric tests)
//   CUJ tracks are unnamed descriptor tracks under the app's process track: trace processor names each by its
//   earliest event, the `J<...>` CUJ slice, which its metric then finds by name
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ProcessRow, ThreadRow } from "../../../collectors/sources/perfetto/rows";
import { sliceRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { parseSystraceText } from "../../../collectors/sources/systrace/parse-systrace";

const decode = (name: string) =>
  decodePerfetto(new Uint8Array(readFileSync(`test/fixtures/perfetto/difftest_${name}.pftrace`)));

// Trace processor's CSV as lines, header dropped.
const csv = (text: string) =>
  text
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.trim());
const q = (v: string | number | null) =>
  v === null ? '"[NULL]"' : typeof v === "string" ? `"${v}"` : String(v);

/** `SELECT tid, pid, process.name, thread.name FROM thread LEFT JOIN process USING(upid) WHERE tid > 0 ORDER BY
 * tid` over jankbook's rows (no pid is reused in the traces this is used on). */
function threadTable(threads: ThreadRow[], processes: ProcessRow[], threadNameFirst = false): string[] {
  return threads.map((t) => {
    const p = processes.find((p) => p.pid === t.pid)?.name ?? null;
    return [t.tid, t.pid, ...(threadNameFirst ? [t.name, p] : [p, t.name])].map(q).join(",");
  });
}

// jankbook's threads table holds named threads only (its name column is not nullable): trace processor's rows with
// a NULL thread name are checked through the rows' pid elsewhere, not listed.
const named = (rows: string[]) => rows.filter((r) => !r.endsWith('"[NULL]"'));

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

  it("test_process_tracking_process_tracking_short_lived_1/2: a fork is a process of its own", () => {
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

describe("trace processor diff tests: atrace", () => {
  it("test_android_b2b_async_begin_list_slices: a repeated S with an open cookie is dropped", () => {
    const d = decodePerfetto(
      new Uint8Array(readFileSync("test/fixtures/perfetto/difftest_android_b2b_async_begin.pftrace")),
    );
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

describe("trace processor diff tests: track_event", () => {
  it("test_incremental_counter_sequences: deltas add up per sequence", () => {
    const d = decode("incremental_counter_sequences");
    expect(d.rows.counters.map((c) => [c.ts, c.value.toFixed(6)].join(","))).toEqual(
      csv(`
        "ts","value"
        100,100.000000
        150,50.000000
        200,110.000000
        250,55.000000`),
    );
  });

  it("test_track_event_tracks_slices: which track each event lands on", () => {
    const d = decode("track_event_tracks");
    // jankbook's slices: a thread's slice carries tid, thread name and pid, no track; a process or named track's
    // carries the pid and the track's name (a process track is named by its process). TP's columns map to
    // (track ?? process, thread, pid); processes p1 and p2 share pid 5.
    const got = sliceRows(d.rows.sliceColumns!).map((s) =>
      [s.track, s.thread_name, s.ts, s.dur, s.name].map(q).join(","),
    );
    const tp = csv(`
      "track","process","thread","thread_process","ts","dur","category","name"
      "[NULL]","[NULL]","t1","p1",1000,0,"cat","event1_on_t1"
      "[NULL]","[NULL]","t2","p1",2000,0,"cat","event1_on_t2"
      "[NULL]","[NULL]","t2","p1",3000,0,"cat","event2_on_t2"
      "[NULL]","p1","[NULL]","[NULL]",4000,0,"cat","event1_on_p1"
      "async","p1","[NULL]","[NULL]",5000,0,"cat","event1_on_async"
      "async2","p1","[NULL]","[NULL]",5100,100,"cat","event1_on_async2"
      "async3","[NULL]","t2","p1",6000,0,"cat","event1_on_async3"
      "[NULL]","[NULL]","t1","p1",6000,0,"cat","event3_on_t1"
      "[NULL]","[NULL]","t3","p1",11000,0,"cat","event1_on_t3"
      "[NULL]","p2","[NULL]","[NULL]",21000,0,"cat","event1_on_p2"
      "[NULL]","[NULL]","t4","p2",22000,0,"cat","event1_on_t4"
      "Default Track","[NULL]","[NULL]","[NULL]",30000,0,"cat","event1_on_t1"
      "[NULL]","p2","[NULL]","[NULL]",31000,0,"cat","event2_on_p2"
      "[NULL]","[NULL]","t4","p2",32000,0,"cat","event2_on_t4"
      "event_and_track_async3","p1","[NULL]","[NULL]",40000,0,"cat","event_and_track_async3"`).map((l) => {
      const [track, proc, thread, , ts, dur, , name] = l.split(",");
      const named = track !== '"[NULL]"' ? track : thread === '"[NULL]"' ? proc : '"[NULL]"';
      // Differences: thread descriptors t1 and t3 both name tid 1 of pid 5: trace processor keeps two threads,
      // jankbook one thread named by the last (t3). The async3 track under thread t2 is a named track here, without
      // the thread.
      const t = thread === '"t1"' ? '"t3"' : name === '"event1_on_async3"' ? '"[NULL]"' : thread;
      return [named, t, ts, dur, name].join(",");
    });
    expect(got.sort()).toEqual(tp.sort());
    expect(sliceRows(d.rows.sliceColumns!).every((s) => s.pid === 5 || s.track === "Default Track")).toBe(
      true,
    );
  });

  it("android_jank_cuj: an unnamed track is named by its earliest event, not the first in the file", () => {
    const d = decode("android_jank_cuj");
    const cuj = sliceRows(d.rows.sliceColumns!).filter((s) => s.track?.startsWith("J<"));
    // FT#beginVsync#10 (ts 7) comes first in the file on track 321, J<FIRST_CUJ> (ts 5) first in time.
    expect(cuj.find((s) => s.name === "FT#beginVsync#10" && s.ts === 7)?.track).toBe("J<FIRST_CUJ>");
    expect(cuj.find((s) => s.name === "FT#beginVsync#10" && s.ts === 12)?.track).toBe("J<SHADE_ROW_EXPAND>");
  });
});
