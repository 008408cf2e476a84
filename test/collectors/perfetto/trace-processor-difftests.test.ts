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
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ProcessRow, ThreadRow } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";

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
