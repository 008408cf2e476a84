// Drivers' own tracing_mark_write ftrace events (display, blitter, GPU, camera, Samsung) as trace processor reads
// them: atrace slices and counters of the emitting thread, in the payload's process. The diff tests are google/
// perfetto's (Apache-2.0, parser/parsing and parser/process_tracking, encoded with protoc, test/fixtures/
// SOURCES.md), their CSVs the expected rows; the list of every diff test used is difftests-list.test.ts. The
// Samsung, Mali and malformed cases have no diff test: built here with the field numbers of samsung.proto,
// mali.proto and dpu.proto, and worked by hand from ftrace_parser.cc's Parse*TracingMarkWrite.
import { describe, expect, it } from "vitest";
import { sliceRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { csv, decode, q } from "./difftest-csv";
import { trace, type Field } from "./pb";

const counters = (name: string) =>
  decode(name).rows.counters.map((c) => [c.ts, q(c.name), c.value.toFixed(6), c.pid].join(","));

describe("trace processor diff tests: kernel tracing_mark_write", () => {
  it("test_slice_with_pid_sde_tracing_mark_write: sde begin/end by trace_begin", () => {
    const d = decode("sde_tracing_mark_write");
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.name, s.dur, s.tid, s.pid].map(q).join(",")),
    ).toEqual(
      csv(`
        "name","dur","tid","pid"
        "test_event",1,403,403`),
    );
  });

  it("test_slice_mdss_tracing_mark_write: mdss's tracing_mark_write (FtraceEvent field 80)", () => {
    const d = decode("mdss_tracing_mark_write");
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.name, s.dur, s.tid].map(q).join(","))).toEqual(
      csv(`
        "name","dur","tid"
        "test_event",100,584`),
    );
  });

  it("test_kernel_tmw_counter_process_counter_and_track: g2d counters in the payload's process", () => {
    expect(counters("kernel_tmw_counter")).toEqual(
      csv(`
        "ts","name","value","pid"
        795572805481,"g2d_frame_hw#15",0.000000,237
        795572870504,"g2d_frame_sw#15",0.000000,237
        795620516581,"g2d_frame_sw#15",1.000000,237
        795620943421,"g2d_frame_hw#15",1.000000,237
        795623633810,"g2d_frame_hw#15",0.000000,237
        795623633810,"g2d_frame_hw#15",0.000000,237
        795623739848,"g2d_frame_sw#15",0.000000,237`),
    );
  });

  it("test_kernel_dpu_tmw_counter_process_counter_and_track: dpu counters from another thread keep the pid", () => {
    expect(counters("kernel_dpu_tmw_counter")).toEqual(
      csv(`
        "ts","name","value","pid"
        795572805481,"dpu_vote_clock",123.000000,237
        795572870504,"dpu_vote_clock",100.000000,237
        795620516581,"dpu_vote_clock",125.000000,237
        795620943421,"dpu_vote_clock",100.000000,237`),
    );
  });

  it("samsung and mali markers; a dpu slice's pid is not trusted; an unknown type is counted, not read", () => {
    const ev = (ts: number, tid: number, kind: number, m: Field[]): Field => ({
      f: 2,
      m: [
        { f: 1, v: ts },
        { f: 2, v: tid },
        { f: kind, m },
      ],
    });
    const B = 66;
    const E = 69;
    const bytes = trace([
      [
        {
          f: 1,
          m: [
            { f: 1, v: 0 },
            // samsung (484): pid 1, trace_name 2, trace_type 4, value 5
            ev(10, 77, 484, [
              { f: 1, v: 70 },
              { f: 2, s: "composite" },
              { f: 4, v: B },
            ]),
            ev(30, 77, 484, [
              { f: 1, v: 70 },
              { f: 4, v: E },
            ]),
            // mali (350): name 1, pid 2, type 3, value 4
            ev(40, 5, 350, [
              { f: 1, s: "gpu_queue" },
              { f: 2, v: 300 },
              { f: 3, v: 67 },
              { f: 4, v: 3 },
            ]),
            // dpu (348): pid 1, name 4, type 5 — a B naming process 999 from thread 6
            ev(50, 6, 348, [
              { f: 1, v: 999 },
              { f: 4, s: "commit" },
              { f: 5, v: B },
            ]),
            ev(60, 6, 348, [
              { f: 1, v: 999 },
              { f: 5, v: E },
            ]),
            // g2d (349) with type 'X': not a marker
            ev(70, 6, 349, [
              { f: 1, v: 1 },
              { f: 4, s: "odd" },
              { f: 5, v: 88 },
            ]),
          ],
        },
      ],
    ]);
    const d = decodePerfetto(bytes);
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.tid, s.pid, s.name])).toEqual([
      [10, 20, 77, 70, "composite"],
      [50, 10, 6, null, "commit"],
    ]);
    expect(d.rows.counters.map((c) => [c.ts, c.pid, c.name, c.value])).toEqual([[40, 300, "gpu_queue", 3]]);
    expect(d.warnings.join("\n")).toMatch(
      /1 atrace markers not understood, e\.g\. "ftrace event 349 without/,
    );
  });
});
