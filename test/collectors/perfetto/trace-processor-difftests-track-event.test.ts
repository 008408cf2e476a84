// Perfetto's trace-processor diff tests for track_event (google/perfetto test/trace_processor/diff_tests/parser/
// track_event and metrics/graphics, Apache-2.0): which track, thread and process each event lands on, and counters.
// Traces encoded with protoc or synth_common (test/fixtures/SOURCES.md); expected tables are the tests' CSVs. The
// list of every diff test used is difftests-list.test.ts.
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { sliceRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { csv, decode, fixture, named, q, threadTable } from "./difftest-csv";
import { trace, type Field } from "./pb";

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

  // One tid in two processes (pid namespaces): two threads, each slice on its own.
  it("test_track_event_same_tids_threads and test_track_event_same_tids_slices: tid 1 of pid 5 and tid 1 of pid 10", () => {
    const d = decode("track_event_same_tids");
    // TP also lists the unnamed main threads 5 and 10, which jankbook's threads table leaves out.
    expect(threadTable(d.rows.threads, d.rows.processes)).toEqual(
      named(
        csv(`
        "tid","pid","pname","tname"
        1,5,"[NULL]","t1"
        1,10,"[NULL]","t2"
        5,5,"[NULL]","[NULL]"
        10,10,"[NULL]","[NULL]"`),
      ),
    );
    const tp = csv(`
      "track","process","thread","thread_process","ts","dur","category","name"
      "[NULL]","[NULL]","t1","[NULL]",1000,0,"cat","name1"
      "[NULL]","[NULL]","t2","[NULL]",2000,0,"cat","name2"`).map((l) => {
      const [, , thread, , ts, dur, , name] = l.split(",");
      return [thread, ts, dur, name].join(",");
    });
    const row = (s: { thread_name: unknown; ts: unknown; dur: unknown; name: unknown }) =>
      [s.thread_name, Number(s.ts), Number(s.dur), s.name].map((v) => q(v as string | number)).join(",");
    expect(sliceRows(d.rows.sliceColumns!).map(row)).toEqual(tp);
    // The bundle's slices table resolves the thread the same way (column-tables.ts).
    const imp = importPerfetto(fixture("track_event_same_tids"), "t.pftrace", "r");
    const slices = imp.tables.slices!.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
    expect(slices.map((s) => row(s as never))).toEqual(tp);
    expect(slices.map((s) => s.pid)).toEqual([5, 10]);
  });

  it("test_track_event_instant_slices: TYPE_INSTANT and legacy I and R land on the default track's thread", () => {
    const d = decode("track_event_instant");
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) =>
        [s.track, s.thread_name, s.ts, s.dur, s.category?.replace("track_event:", ""), s.name]
          .map(q)
          .join(","),
      ),
    ).toEqual(
      csv(`
        "track","thread","ts","dur","category","name"
        "[NULL]","t1",1000,0,"cat","instant_on_t1"
        "[NULL]","t1",2000,0,"cat","legacy_instant_on_t1"
        "[NULL]","t1",3000,0,"cat","legacy_mark_on_t1"`),
    );
  });

  it("test_track_event_with_atrace_separate_tracks: track_event and atrace slices of one thread", () => {
    const d = decode("track_event_with_atrace_separate_tracks");
    // Trace processor's category is NULL for the atrace slice; jankbook's is "atrace".
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) =>
        [s.thread_name, s.ts, s.dur, s.category === "atrace" ? null : s.category?.slice(12), s.name]
          .map(q)
          .join(","),
      ),
    ).toEqual(
      csv(`
        "thread","ts","dur","category","name"
        "t1",10000,1000,"cat","event1"
        "t1",20000,8000,"cat","event2"
        "t1",21000,8000,"[NULL]","atrace"`),
    );
  });

  it("test_track_event_counters_slices and test_track_event_counters_counters: slices, TYPE_COUNTER and extra counter values", () => {
    const d = decode("track_event_counters");
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.thread_name, s.ts, s.dur, s.name].map(q).join(",")),
    ).toEqual(
      csv(`
        "thread","ts","dur","name"
        "t1",1000,100,"event1_on_t1"
        "t1",2000,200,"event2_on_t1"
        "t1",2000,200,"event3_on_t1"
        "t1",4000,0,"event4_on_t1"
        "t4",4000,100,"event1_on_t3"
        "t1",4300,0,"float_counter_on_t1"
        "t1",4500,0,"float_counter_on_t1"`),
    );
    expect(d.rows.processes.map((p) => [p.pid, p.name])).toEqual([[5, "Browser"]]);
    // Trace processor's counters: TYPE_COUNTER events, and extra_counter_values riding on slices on the tracks the
    // event or its sequence's TrackEventDefaults name (thread_time incremental, in µs × 1000). Its t4 rows come from
    // Chrome's deprecated thread_time_absolute_us / thread_instruction_count_absolute, not read here.
    const tp = csv(`
      "counter_name","process","thread","thread_process","unit","ts","value"
      "thread_time","[NULL]","t1","Browser","ns",1000,1000000.000000
      "thread_time","[NULL]","t1","Browser","ns",1100,1010000.000000
      "thread_time","[NULL]","t1","Browser","ns",2000,2000000.000000
      "thread_time","[NULL]","t1","Browser","ns",2000,2010000.000000
      "thread_time","[NULL]","t1","Browser","ns",2200,2020000.000000
      "thread_time","[NULL]","t1","Browser","ns",2200,2030000.000000
      "MySizeCounter","[NULL]","[NULL]","[NULL]","bytes",3000,1024.000000
      "MySizeCounter","[NULL]","[NULL]","[NULL]","bytes",3100,2048.000000
      "thread_time","[NULL]","t1","Browser","ns",4000,2040000.000000
      "MySizeCounter","[NULL]","[NULL]","[NULL]","bytes",4000,1024.000000
      "thread_time","[NULL]","t4","Browser","[NULL]",4000,10000.000000
      "thread_instruction_count","[NULL]","t4","Browser","[NULL]",4000,20.000000
      "thread_time","[NULL]","t4","Browser","[NULL]",4100,15000.000000
      "thread_instruction_count","[NULL]","t4","Browser","[NULL]",4100,25.000000
      "MyDoubleCounter","[NULL]","[NULL]","[NULL]","[NULL]",4200,3.141593
      "MyDoubleCounter","[NULL]","[NULL]","[NULL]","[NULL]",4300,0.500000
      "MySizeCounter","[NULL]","[NULL]","[NULL]","bytes",4500,4096.000000
      "MyDoubleCounter","[NULL]","[NULL]","[NULL]","[NULL]",4500,2.718280`)
      .filter((l) => !l.includes('"t4"'))
      .map((l) => {
        const [name, , , proc, , ts, value] = l.split(",");
        return [name, proc === '"Browser"' ? 5 : "-", ts, value].join(",");
      });
    expect(d.rows.counters.map((c) => [q(c.name), c.pid ?? "-", c.ts, c.value.toFixed(6)].join(","))).toEqual(
      tp,
    );
  });

  it("test_legacy_async_event: S/F nest on the track the global id and name give; T and p are its steps", () => {
    const d = decode("legacy_async_event");
    // Trace processor's rows (one per arg; the args are not kept here): track "name1", no process or thread. The
    // two S come from two threads' sequences; one global id puts them on one track, where each F closes the
    // innermost.
    const tp = csv(`
      "track","process","thread","thread_process","ts","dur","category","name"
      "name1","[NULL]","[NULL]","[NULL]",1000,7000,"cat","name1"
      "name1","[NULL]","[NULL]","[NULL]",2000,1000,"cat","name1"
      "name1","[NULL]","[NULL]","[NULL]",3000,0,"cat","name1"
      "name1","[NULL]","[NULL]","[NULL]",5000,0,"cat","name1"`);
    const got = sliceRows(d.rows.sliceColumns!).map((s) =>
      [s.track, null, s.thread_name, null, s.ts, s.dur, s.category?.replace("track_event:", ""), s.name]
        .map(q)
        .join(","),
    );
    expect(got).toEqual(tp);
    expect(sliceRows(d.rows.sliceColumns!).every((s) => s.pid === null)).toBe(true);
  });

  it("legacy async ids: a local_id is its process's, a nestable b/e pair is keyed by category, no id is dropped", () => {
    // Worked by hand from track_event_event_importer.h: two processes' b/e with local_id 7 are two tracks; an 'n'
    // without any id is skipped and counted.
    const seq = (id: number, pid: number, tid: number): Field[] => [
      { f: 10, v: id },
      { f: 8, v: 0 },
      // incremental_state_cleared: the descriptor's thread becomes the sequence's
      { f: 41, v: 1 },
      {
        f: 60,
        m: [
          { f: 1, v: id },
          {
            f: 4,
            m: [
              { f: 1, v: pid },
              { f: 2, v: tid },
              { f: 5, s: `t${tid}` },
            ],
          },
        ],
      },
    ];
    const ev = (id: number, ts: number, phase: string, name: string, local?: number): Field[] => [
      { f: 10, v: id },
      { f: 8, v: ts },
      {
        f: 11,
        m: [
          { f: 22, s: "cat" },
          { f: 23, s: name },
          {
            f: 6,
            m: [{ f: 2, v: phase.charCodeAt(0) }, ...(local === undefined ? [] : [{ f: 10, v: local }])],
          },
        ],
      },
    ];
    const d = decodePerfetto(
      trace([
        seq(1, 100, 101),
        seq(2, 200, 201),
        ev(1, 10, "b", "load", 7),
        ev(2, 12, "b", "load", 7),
        ev(1, 15, "e", "load", 7),
        ev(2, 30, "e", "load", 7),
        ev(1, 40, "n", "orphan"),
      ]),
    );
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.pid, s.depth, s.track])).toEqual([
      [10, 5, 100, 0, "load"],
      [12, 18, 200, 0, "load"],
    ]);
    expect(d.warnings).toContain("1 legacy async track_events without an id skipped");
  });

  // jankbook has no track table: each test's track names are compared with the names its slices carry (the
  // extended test's "Parent" track has no slice of its own).
  it("test_track_event_name_resolution, test_track_event_name_resolution_extended, test_track_event_name_resolution_null_override: names of re-sent descriptors", () => {
    const names = (trace: string) =>
      [...new Set(sliceRows(decode(trace).rows.sliceColumns!).map((s) => q(s.track)))].sort();
    expect(names("track_event_name_resolution")).toEqual(
      csv(`
        "name"
        "Before Event"
        "Event Name"
        "Second Name"`),
    );
    expect(names("track_event_name_resolution_extended")).toEqual(
      csv(`
        "name","is_root"
        "After Event",1
        "Child Event",0
        "Event Name",1
        "Parent",1
        "Second Name",1`)
        .map((l) => l.split(",")[0]!)
        .filter((n) => n !== '"Parent"'),
    );
    expect(names("track_event_name_resolution_null_override")).toEqual(
      csv(`
        "name"
        "First Name"`),
    );
  });

  it("test_android_jank_cuj: an unnamed track is named by its earliest event, not the first in the file", () => {
    const d = decode("android_jank_cuj");
    const cuj = sliceRows(d.rows.sliceColumns!).filter((s) => s.track?.startsWith("J<"));
    // FT#beginVsync#10 (ts 7) comes first in the file on track 321, J<FIRST_CUJ> (ts 5) first in time.
    expect(cuj.find((s) => s.name === "FT#beginVsync#10" && s.ts === 7)?.track).toBe("J<FIRST_CUJ>");
    expect(cuj.find((s) => s.name === "FT#beginVsync#10" && s.ts === 12)?.track).toBe("J<SHADE_ROW_EXPAND>");
  });
});
