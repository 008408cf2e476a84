// Perfetto diff-test traces for the tables a jank investigation reads (device, packages, CPU frequency, blocked
// reasons, process memory, FrameTimeline jank tags), encoded by protoc from google/perfetto's own text protos
// (test/fixtures/SOURCES.md), checked against trace processor's expected output in the same tests.py, or against
// the values written in the text proto where the test asserts on a table jankbook does not have.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { threadStateRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(`test/fixtures/perfetto/difftest_${name}.pftrace`));
const rowsOf = (t: { toArray(): { toJSON(): Record<string, unknown> }[] } | undefined) =>
  t ? t.toArray().map((r) => ({ ...r.toJSON() })) : [];

describe("Perfetto diff-test traces: investigation tables", () => {
  // parsing/tests.py test_config_metadata: android_build_fingerprint as written; android_sdk_version 31 derived.
  it("config_metadata: system_info's fingerprint names the device, release and API level", () => {
    const imp = importPerfetto(fixture("config_metadata"), "t.pftrace", "r");
    expect(imp.context).toMatchObject({
      device_model: "coral",
      manufacturer: "google",
      sdk_release: "12",
      api_level: 31,
    });
    expect(imp.warnings.join("\n")).not.toMatch(/system_info/);
  });

  // parsing/tests.py test_process_metadata_matching: gms (uid 10100, and 1010100 for user 10) is package
  // com.google.android.gms version 1234.
  it("process_metadata_matching: packages_list into packages, the app's version by uid", () => {
    const imp = importPerfetto(fixture("process_metadata_matching"), "t.pftrace", "r");
    expect(rowsOf(imp.tables.packages)).toEqual([
      {
        run_id: "r",
        name: "com.google.android.gms",
        uid: 10100,
        version_code: 1234n,
        debuggable: null,
        profileable_from_shell: null,
      },
      {
        run_id: "r",
        name: "com.google.android.gsf",
        uid: 10100,
        version_code: 1n,
        debuggable: null,
        profileable_from_shell: null,
      },
    ]);
    const d = decodePerfetto(fixture("process_metadata_matching"));
    expect(d.system.packageOf("com.google.android.gms.persistent", 10100)?.version_code).toBe(1234);
    expect(d.system.packageOf("com.google.android.gms", 1010100)?.version_code).toBe(1234);
    expect(d.system.packageOf("system_server", 1000)).toBeNull();
  });

  // parsing/tests.py test_sched_blocked_reason_symbolized_sched_blocked_reason_function: blocked_function on the D rows, caller 2 not interned
  // stays null, a later D interval of thread 100 gets its own function.
  it("sched_blocked_reason_symbolized: blocked function on each D interval", () => {
    const d = decodePerfetto(fixture("sched_blocked_reason_symbolized"));
    const got = threadStateRows(d.rows.threadStateColumns!)
      .filter((r) => r.state === "uninterruptible")
      .map((r) => [r.ts, r.tid, r.blocked_function])
      .sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
    // Trace processor's rows, ordered by ts then tid (its own order among equal ts is by insertion).
    expect(got).toEqual([
      [999000, 102, "filemap_fault"],
      [999000, 105, "some_fn"],
      [1000000, 100, "filemap_fault"],
      [1001000, 101, null],
      [1002000, 103, null],
      [1003000, 100, "some_other_fn"],
      [1005000, 104, "filemap_fault"],
    ]);
    const table = rowsOf(
      importPerfetto(fixture("sched_blocked_reason_symbolized"), "t", "r").tables.thread_states,
    );
    expect(table.filter((r) => r.blocked_function === "filemap_fault")).toHaveLength(3);
    expect(table.filter((r) => r.io_wait === false).length).toBeGreaterThan(0);
  });

  // parsing/tests.py test_sched_blocked_proto_sched_blocked_reason: io_wait of each D interval (sched_blocked_proto.py).
  it("sched_blocked_proto: io_wait on the D intervals", () => {
    const imp = importPerfetto(fixture("sched_blocked_proto"), "t.pftrace", "r");
    const d = rowsOf(imp.tables.thread_states)
      .filter((r) => r.state === "uninterruptible")
      .map((r) => `${r.ts},${r.tid},${r.io_wait ? 1 : 0}`);
    expect(d).toEqual(["100,1,0", "110,2,1"]);
  });

  // process_tracking/tests.py test_process_stats_process_runtime: runtime.user_ns and runtime.kernel_ns of pid
  // 9301 at both polls; the memory counters come in bytes (kB x 1024) as trace processor keeps them.
  it("process_stats_process_runtime: process counters as trace processor names them", () => {
    const d = decodePerfetto(fixture("process_stats_process_runtime"));
    const c = d.rows.counters.filter((r) => r.pid === 9301);
    const at = (name: string) => c.filter((r) => r.name === name).map((r) => [r.ts, r.value]);
    expect(at("runtime.kernel_ns")).toEqual([
      [1088821520899054, 1327800000000],
      [1088821786436938, 1327860000000],
    ]);
    expect(at("runtime.user_ns")).toEqual([
      [1088821520899054, 16637390000000],
      [1088821786436938, 16638280000000],
    ]);
    expect(at("mem.rss.anon")).toEqual([
      [1088821520899054, 1045332 * 1024],
      [1088821786436938, 832028 * 1024],
    ]);
    expect(at("mem.swap").map((r) => r[1])).toEqual([163936 * 1024, 163936 * 1024]);
    expect(at("oom_score_adj").map((r) => r[1])).toEqual([300, 300]);
  });

  // metrics/network/tests.py test_netperf_metric: netperf_metric.textproto's five cpu_frequency events (its test asserts a metric built on them).
  it("netperf_metric: cpu_frequency into per-CPU cpufreq counters", () => {
    const imp = importPerfetto(fixture("netperf_metric"), "t", "r");
    const freq = rowsOf(imp.tables.counter_samples)
      .filter((r) => r.name === "cpufreq")
      .map((r) => [Number(r.ts), r.cpu, r.value]);
    expect(freq).toEqual([
      [100000000, 0, 2000000],
      [100000000, 4, 2000000],
      [120000000, 1, 2000000],
      [140000000, 0, 1000000],
      [140000000, 1, 1000000],
    ]);
  });

  // graphics/tests.py test_actual_frame_timeline_events: the jank_tag and jank_severity_type columns.
  it("frame_timeline_events: jank tag and severity type on the actual timeline", () => {
    const d = decodePerfetto(fixture("frame_timeline_events"));
    const got = d.rows.frameTimeline
      .filter((r) => r.timeline === "actual")
      .map(
        (r) => `${r.ts},${r.pid},${r.layer_name ?? "-"},${r.jank_type},${r.jank_tag},${r.jank_severity_type}`,
      );
    const tp = `
      20,666,-,None,No Jank,None
      21,1000,Layer1,None,No Jank,None
      41,1000,Layer1,App Deadline Missed,Self Jank,Full
      42,666,-,None,No Jank,None
      80,1000,Layer1,Unknown Jank,Self Jank,Partial
      81,666,-,None,No Jank,None
      90,1000,Layer1,SurfaceFlinger Scheduling,Other Jank,Unknown
      108,666,-,SurfaceFlinger Scheduling,Self Jank,Unknown
      148,666,-,SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed,Self Jank,Unknown
      150,1000,Layer1,None,No Jank,None
      150,1000,Layer2,None,No Jank,None
      170,666,-,None,No Jank,None
      200,666,-,None,No Jank,None
      245,666,-,SurfaceFlinger Stuffing,SurfaceFlinger Stuffing,Unknown
      245,666,-,Dropped Frame,Dropped Frame,Unknown`
      .trim()
      .split("\n")
      .map((l) => l.trim());
    expect(got.sort()).toEqual(tp.sort());
    expect(
      d.rows.frameTimeline.filter((r) => r.timeline === "expected").every((r) => r.jank_tag === null),
    ).toBe(true);
  });
  // parsing/tests.py test_android_binder (android_binder.py, written out as a text proto: the same events in the
  // same order): trace processor counts 2 "binder transaction" slices in test_process_a and one "binder reply" in
  // each of test_process_b and test_process_c. The script's caller receives each reply (ts 2, 6) before the server
  // sent it (ts 4, 8); in time order the receipt matches nothing, so the calls never end, as trace processor's
  // transaction slices do not.
  it("android_binder: two calls from process a, served by b and c", () => {
    const imp = importPerfetto(fixture("android_binder"), "t", "r");
    const rows = rowsOf(imp.tables.binder_transactions);
    expect(
      rows.map((r) => [
        Number(r.ts),
        r.dur,
        r.client_pid,
        r.client_tid,
        r.server_pid,
        r.server_tid,
        Number(r.server_ts),
        Number(r.server_dur),
        r.one_way,
      ]),
    ).toEqual([
      [1, null, 1, 7, 2, 2, 3, 1, false],
      [5, null, 1, 7, 3, 3, 7, 1, false],
    ]);
  });
});
