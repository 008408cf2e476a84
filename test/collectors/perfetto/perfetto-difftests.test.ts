// Traces from Perfetto's own diff tests, encoded by protoc and Perfetto's synth_common (test/fixtures/SOURCES.md),
// checked against trace processor's expected output from the same tests.py, or against counts taken with the
// independent field walker in pb.ts. Where our reading differs from trace processor's, the test says why.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { sliceRows, threadStateRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { at, walk } from "./pb";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(`test/fixtures/perfetto/difftest_${name}.pftrace`));
const csv = (text: string) =>
  text
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.trim());
const cell = (v: unknown) =>
  v === null
    ? '"[NULL]"'
    : typeof v === "string"
      ? `"${v}"`
      : typeof v === "boolean"
        ? v
          ? "1"
          : "0"
        : String(v);

describe("Perfetto diff-test traces", () => {
  // graphics/tests.py test_expected_frame_timeline_events and test_actual_frame_timeline_events.
  it("frame_timeline_events: expected and actual timelines as trace processor reads them", () => {
    const d = decodePerfetto(fixture("frame_timeline_events"));
    expect(d.complete).toBe(true);
    const tokens = (r: (typeof d.rows.frameTimeline)[number]) =>
      r.scope === "display" ? [r.token, null] : [r.display_frame_token, r.token];
    const expected = d.rows.frameTimeline
      .filter((r) => r.timeline === "expected")
      .map((r) => [r.ts, r.dur ?? -1, r.pid, ...tokens(r), r.layer_name].map(cell).join(","));
    // Trace processor sorts packets by time before pairing cookies: the trace's start/end/start/end of token 18
    // with one cookie becomes start/start/end/end and its first copy never closes (dur -1). We read in file
    // order, where each start is followed by its own end, so both copies last 10 ns.
    const tpExpected = csv(`
      "ts","dur","pid","display_frame_token","surface_frame_token","layer_name"
      20,6,666,2,"[NULL]","[NULL]"
      21,15,1000,4,1,"Layer1"
      40,6,666,4,"[NULL]","[NULL]"
      41,15,1000,6,5,"Layer1"
      80,6,666,6,"[NULL]","[NULL]"
      90,16,1000,8,7,"Layer1"
      120,6,666,8,"[NULL]","[NULL]"
      140,6,666,12,"[NULL]","[NULL]"
      150,20,1000,15,14,"Layer1"
      170,6,666,15,"[NULL]","[NULL]"
      200,6,666,17,"[NULL]","[NULL]"
      220,-1,666,18,"[NULL]","[NULL]"
      220,10,666,18,"[NULL]","[NULL]"`).map((l) => l.replace("220,-1,", "220,10,"));
    // Layer2's expected slice (150, 20) is in the trace too; trace processor's expected query keeps one per token.
    expect(expected.filter((l) => !l.endsWith('"Layer2"')).sort()).toEqual(tpExpected.sort());
    expect(expected.filter((l) => l.endsWith('"Layer2"'))).toEqual(['150,20,1000,15,14,"Layer2"']);

    const actual = d.rows.frameTimeline
      .filter((r) => r.timeline === "actual")
      .map((r) =>
        [
          r.ts,
          r.dur ?? -1,
          r.pid,
          ...tokens(r),
          r.layer_name,
          r.present_type,
          r.on_time_finish,
          r.gpu_composition,
          r.jank_type,
          r.prediction_type,
        ]
          .map(cell)
          .join(","),
      );
    const tpActual = csv(`
      "ts","dur","pid","display_frame_token","surface_frame_token","layer_name","present_type","on_time_finish","gpu_composition","jank_type","prediction_type"
      20,6,666,2,"[NULL]","[NULL]","On-time Present",1,0,"None","Valid Prediction"
      21,16,1000,4,1,"Layer1","On-time Present",1,0,"None","Valid Prediction"
      41,33,1000,6,5,"Layer1","Late Present",0,0,"App Deadline Missed","Valid Prediction"
      42,5,666,4,"[NULL]","[NULL]","On-time Present",1,0,"None","Valid Prediction"
      80,110,1000,17,16,"Layer1","Unknown Present",0,0,"Unknown Jank","Expired Prediction"
      81,7,666,6,"[NULL]","[NULL]","On-time Present",1,0,"None","Valid Prediction"
      90,16,1000,8,7,"Layer1","Early Present",1,0,"SurfaceFlinger Scheduling","Valid Prediction"
      108,4,666,8,"[NULL]","[NULL]","Early Present",1,0,"SurfaceFlinger Scheduling","Valid Prediction"
      148,8,666,12,"[NULL]","[NULL]","Late Present",0,0,"SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed","Valid Prediction"
      150,17,1000,15,14,"Layer1","On-time Present",1,0,"None","Valid Prediction"
      150,17,1000,15,14,"Layer2","On-time Present",1,0,"None","Valid Prediction"
      170,6,666,15,"[NULL]","[NULL]","On-time Present",1,0,"None","Valid Prediction"
      200,6,666,17,"[NULL]","[NULL]","On-time Present",1,0,"None","Valid Prediction"
      245,-1,666,18,"[NULL]","[NULL]","Late Present",0,0,"SurfaceFlinger Stuffing","Valid Prediction"
      245,15,666,18,"[NULL]","[NULL]","Dropped Frame",0,0,"Dropped Frame","Unspecified Prediction"`).map(
      (l) => l.replace("245,-1,", "245,15,"),
    );
    expect(actual.sort()).toEqual(tpActual.sort());
  });

  it("frame_timeline_events: pid 1000's surface frames become frames rows (worked by hand from the trace)", () => {
    const imp = importPerfetto(fixture("frame_timeline_events"), "ft.pftrace", "r");
    const frames = imp.tables.frames!.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
    const got = frames.map((f) =>
      [
        f.window,
        f.frame_timeline_vsync_id,
        f.intended_vsync,
        f.frame_completed,
        f.duration,
        f.deadline,
        f.jank,
      ]
        .map(String)
        .join(" "),
    );
    // expected surface slice of the same token: start and budget; actual slice end: completion.
    expect(got).toEqual([
      "Layer1 1 21 37 16 15 false",
      "Layer1 5 41 74 33 15 true", // Late Present
      "Layer1 16 80 190 110 16670000 false", // no expected slice: own start, 16.67 ms; Unknown Present
      "Layer1 7 90 106 16 16 false", // Early Present
      "Layer1 14 150 167 17 20 false",
      "Layer2 14 150 167 17 20 false",
    ]);
    expect(frames.every((f) => f.source === "perfetto")).toBe(true);
    expect(imp.warnings.some((w) => /1 app frames without an expected timeline slice/.test(w))).toBe(true);
  });

  // parsing/tests.py test_ftrace_with_tracing_start_list_sched_slice_spans: trace processor drops what precedes
  // tracing_started (ts 100) and reports (100, 10, tid 1), (110, -1, tid 2). We keep every switch; the running
  // intervals, by hand from ftrace_with_tracing_start.py, end with trace processor's two.
  it("ftrace_with_tracing_start: running intervals from plain sched_switch on two CPUs", () => {
    const d = decodePerfetto(fixture("ftrace_with_tracing_start"));
    const running = threadStateRows(d.rows.threadStateColumns!)
      .filter((s) => s.state === "running")
      .map((s) => `${s.cpu} ${s.ts} ${s.dur ?? -1} ${s.tid} ${s.thread_name}`);
    expect(running).toEqual([
      "0 50 10 2 t2",
      "0 60 10 1 t1",
      "0 70 10 2 t2",
      "2 80 10 1 t1",
      "2 90 10 2 t2",
      "2 100 10 1 t1",
      "2 110 -1 2 t2",
    ]);
    // prev_state unset (0, TASK_RUNNING): each switched-out thread was preempted.
    expect(
      threadStateRows(d.rows.threadStateColumns!)
        .filter((s) => s.state !== "running")
        .every((s) => s.state === "runnable_preempted"),
    ).toBe(true);
  });

  // ftrace_crop_tests.py test_crop_compact_sched_switch: trace processor crops to (3,1200,-1,51), (6,1100,100,42),
  // (6,1200,-1,43); uncropped, compact_sched's delta timestamps give by hand the intervals below.
  it("crop_compact_sched: compact_sched switches, delta timestamps and interned comms", () => {
    const d = decodePerfetto(fixture("crop_compact_sched"));
    const running = threadStateRows(d.rows.threadStateColumns!)
      .filter((s) => s.state === "running")
      .map((s) => `${s.cpu} ${s.ts} ${s.dur ?? -1} ${s.tid} ${s.thread_name}`)
      .sort();
    expect(running).toEqual(
      [
        "3 1100 100 50 zero:3",
        "3 1200 -1 51 one:3",
        "6 500 100 40 zero:6",
        "6 600 500 41 one:6",
        "6 1100 100 42 two:6",
        "6 1200 -1 43 three:6",
      ].sort(),
    );
    for (const tp of ["3 1200 -1 51 one:3", "6 1100 100 42 two:6", "6 1200 -1 43 three:6"])
      expect(running).toContain(tp);
  });

  // atrace/tests.py test_process_track_slices_android_async_slice (its .out): 74289018336,373584672,1204,"launching: ...".
  it("android_async_slice: S on one CPU, F on another", () => {
    const d = decodePerfetto(fixture("android_async_slice"));
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.pid, s.name, s.track, s.category]),
    ).toEqual([
      [
        74289018336,
        373584672,
        1204,
        "launching: com.android.chrome",
        "launching: com.android.chrome",
        "async",
      ],
    ]);
  });

  // track_event/tests.py test_track_event_monotonic_trace_clock_slices: primary clock MONOTONIC, one event on
  // MONOTONIC and one on BOOTTIME (snapshot MONOTONIC 1000 = BOOTTIME 11000); trace processor: 1000 and 2000.
  it("monotonic_trace_clock: both clocks land on CLOCK_MONOTONIC", () => {
    const imp = importPerfetto(fixture("monotonic_trace_clock"), "m.pftrace", "r");
    const slices = imp.tables.slices!.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
    expect(slices.map((s) => [Number(s.ts), Number(s.dur), s.name, s.category])).toEqual([
      [1000, 0, "name1", "track_event:cat"],
      [2000, 0, "name2", "track_event:cat"],
    ]);
    expect(imp.clock).toMatchObject({ domain: "CLOCK_MONOTONIC", offset_ns: -10000 });
  });

  // track_event/tests.py test_track_event_with_atrace: event1 (10000, 1000), event2 (20000, 8000) on t1, and the
  // atrace slice (21000, 7000). Trace processor keeps one stack per thread track, so the track_event end at 28000
  // closes the atrace slice too; we keep atrace and track_event stacks apart, so its own E|5 at 29000 closes it.
  it("track_event_with_atrace: legacy B/E phases on the sequence's default track, and a print slice", () => {
    const d = decodePerfetto(fixture("track_event_with_atrace"));
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.thread_name, s.ts, s.dur, s.name, s.category]),
    ).toEqual([
      ["t1", 10000, 1000, "event1", "track_event:cat"],
      ["t1", 20000, 8000, "event2", "track_event:cat"],
      ["t1", 21000, 8000, "atrace", "atrace"],
    ]);
    expect(d.rows.threads).toEqual([{ tid: 1, name: "t1", pid: 5 }]);
  });

  it("android_jank_cuj: counts match an independent walk of the same bytes", () => {
    const bytes = fixture("android_jank_cuj");
    const prints = at(bytes, [1, 1, 2, 3]).flatMap((p) =>
      walk(p)
        .filter((x) => x.f === 2)
        .map((x) => new TextDecoder().decode(x.b)),
    );
    const starts = (c: string) => prints.filter((p) => p.startsWith(c + "|")).length;
    const timeline = at(bytes, [1, 76]).map((m) => walk(m)[0]!.f);
    const pids = new Set(at(bytes, [1, 2, 1]).map((p) => walk(p).find((x) => x.f === 1)!.n));
    const teSlices = at(bytes, [1, 11]).filter((e) =>
      walk(e).some((x) => x.f === 9 && (x.n === 1n || x.n === 3n)),
    );
    const teCounters = at(bytes, [1, 11]).filter((e) => walk(e).some((x) => x.f === 9 && x.n === 4n));
    // sched_switch.next_pid (6); switching to the idle task (0, absent) opens no running interval.
    const switches = at(bytes, [1, 1, 2, 4]).filter((m) =>
      walk(m).some((x) => x.f === 6 && x.n !== 0n),
    ).length;

    const d = decodePerfetto(bytes);
    expect(d.complete).toBe(true);
    const atrace = sliceRows(d.rows.sliceColumns!).filter(
      (s) => s.category === "atrace" || s.category === "async",
    );
    expect(atrace).toHaveLength(starts("B") + starts("S") + starts("I"));
    expect(atrace.filter((s) => s.dur === null)).toHaveLength(
      starts("B") + starts("S") - starts("E") - starts("F"),
    );
    expect(d.rows.counters).toHaveLength(starts("C") + teCounters.length);
    expect(sliceRows(d.rows.sliceColumns!).filter((s) => s.category?.startsWith("track_event"))).toHaveLength(
      teSlices.length,
    );
    expect(d.rows.frameTimeline).toHaveLength(timeline.filter((f) => f >= 1 && f <= 4).length);
    expect(d.rows.frameTimeline.filter((r) => r.dur === null)).toHaveLength(
      timeline.filter((f) => f <= 4).length - timeline.filter((f) => f === 5).length,
    );
    expect(d.rows.processes.map((p) => BigInt(p.pid)).sort()).toEqual([...pids].sort());
    expect(threadStateRows(d.rows.threadStateColumns!).filter((s) => s.state === "running")).toHaveLength(
      switches,
    );
    expect(prints.length).toBeGreaterThan(50);
  });
});
