// notebooks/examples/perfetto-frames.md's per-frame investigation on a hand-built trace that has every table it
// reads: one late app frame (10-30 ms) during which the UI thread makes a binder call to system_server, blocks in
// filemap_fault on I/O, RenderThread draws, and cpu0 goes from 1 to 2 GHz half-way. Every value is worked by hand.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { trace, type Field } from "../collectors/perfetto/pb";

const NOTEBOOK = join(import.meta.dirname, "../../notebooks/examples/perfetto-frames.md");
const MS = 1_000_000;
const ev = (ts: number, tid: number, field: number, m: Field[]): Field[] => [
  { f: 1, v: ts },
  { f: 2, v: tid },
  { f: field, m },
];
const print = (ts: number, tid: number, buf: string) => ev(ts, tid, 3, [{ f: 2, s: buf }]);
const sw = (ts: number, prev: number, state: number, next: number) =>
  ev(ts, prev, 4, [
    { f: 2, v: prev },
    { f: 4, v: state },
    { f: 6, v: next },
  ]);
const freq = (ts: number, khz: number) =>
  ev(ts, 0, 11, [
    { f: 1, v: khz },
    { f: 2, v: 0 },
  ]);
const txn = (ts: number, tid: number, id: number, toProc: number, reply: number) =>
  ev(ts, tid, 50, [
    { f: 1, v: id },
    { f: 3, v: toProc },
    { f: 5, v: reply },
  ]);
const rcv = (ts: number, tid: number, id: number) => ev(ts, tid, 51, [{ f: 1, v: id }]);
const proc = (pid: number, uid: number, cmdline: string): Field => ({
  f: 1,
  m: [
    { f: 1, v: pid },
    { f: 3, s: cmdline },
    { f: 5, v: uid },
  ],
});
const thread = (tid: number, tgid: number, name: string): Field => ({
  f: 2,
  m: [
    { f: 1, v: tid },
    { f: 3, v: tgid },
    { f: 2, s: name },
  ],
});

const bytes = trace([
  [
    {
      f: 2,
      m: [
        proc(100, 10050, "com.example.app"),
        proc(200, 1000, "system_server"),
        thread(100, 100, "example.app"),
        thread(101, 100, "RenderThread"),
        thread(201, 200, "binder:200_1"),
      ],
    },
  ],
  // ActualSurfaceFrameStart: late (present 2), App Deadline Missed (64), severity Full (3); FrameEnd at 30 ms.
  [
    { f: 8, v: 10 * MS },
    {
      f: 76,
      m: [
        {
          f: 4,
          m: [
            { f: 1, v: 1 },
            { f: 2, v: 7 },
            { f: 3, v: 8 },
            { f: 4, v: 100 },
            { f: 5, s: "com.example.app/Main#0" },
            { f: 6, v: 2 },
            { f: 7, v: 0 },
            { f: 9, v: 64 },
            { f: 10, v: 1 },
            { f: 12, v: 3 },
          ],
        },
      ],
    },
  ],
  [
    { f: 8, v: 30 * MS },
    { f: 76, m: [{ f: 5, m: [{ f: 1, v: 1 }] }] },
  ],
  [
    { f: 10, v: 5 },
    { f: 13, v: 1 },
    {
      f: 12,
      m: [
        {
          f: 26,
          m: [
            { f: 1, v: 1 },
            { f: 2, s: "filemap_fault" },
          ],
        },
      ],
    },
    {
      f: 1,
      m: [
        { f: 1, v: 0 },
        ...[
          sw(1 * MS, 0, 0, 100),
          freq(5 * MS, 1_000_000),
          print(11 * MS, 100, "B|100|doFrame"),
          txn(12 * MS, 100, 1, 200, 0),
          rcv(12.5 * MS, 201, 1),
          txn(15 * MS, 201, 2, 100, 1),
          rcv(15.5 * MS, 100, 2),
          sw(16 * MS, 100, 2, 0),
          ev(16 * MS + 100, 0, 18, [
            { f: 1, v: 100 },
            { f: 2, v: 1 },
            { f: 3, v: 1 },
          ]),
          ev(18 * MS, 0, 20, [{ f: 2, v: 100 }]),
          sw(18.5 * MS, 0, 0, 100),
          freq(20 * MS, 2_000_000),
          print(25 * MS, 100, "E|100"),
          print(26 * MS, 101, "B|100|DrawFrame"),
          print(29 * MS, 101, "E|100"),
        ].map((m) => ({ f: 2, m })),
      ],
    },
  ],
]);

type Row = Record<string, unknown>;
let r: HeadlessResult;
const value = async (name: string): Promise<Row[]> => {
  const t = (await r.runtime.value(name)) as Table | null;
  return t ? t.toArray().map((x: { toJSON(): Row }) => ({ ...x.toJSON() })) : [];
};
// 10-30 ms in the trace; labelled from the trace's first FrameTimeline event, which is this frame's start
const FRAME = "frame 7, com.example.app/Main#0, 0.0-20.0 ms";

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "jb-pf-nb-"));
  const file = join(dir, "t.perfetto-trace");
  writeFileSync(file, bytes);
  await importFiles([file], join(dir, "runs"), { runId: "run" });
  r = await runNotebookFile(NOTEBOOK, { runs: [join(dir, "runs")] });
}, 240_000);
afterAll(() => r?.close());

describe("perfetto-frames.md: what happened inside a janky frame", () => {
  it("every cell runs; the frame is Self Jank, Full", async () => {
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    expect((await value("jank_by_tag")).map((x) => [x.layer, x.jank_tag, x.severity, x.frames])).toEqual([
      ["com.example.app/Main#0", "Self Jank", "Full", 1],
    ]);
  });

  it("blocked function, binder call and CPU frequency inside the frame", async () => {
    expect(
      (await value("frame_blocked")).map((x) => [x.frame, x.thread, x.blocked_function, x.io_wait, x.ms]),
    ).toEqual([[FRAME, "main", "filemap_fault", true, 2]]);
    // Sent at 12 ms (2 ms into the frame), served 12.5-15, reply back at 15.5.
    expect(
      (await value("frame_binder")).map((x) => [
        x.caller,
        x.server,
        x.server_thread,
        x.from_ms,
        x.dur_ms,
        x.served_ms,
        x.one_way,
      ]),
    ).toEqual([["example.app", "system_server", "binder:200_1", 2, 3.5, 2.5, false]]);
    // 1 GHz for 10-20 ms, 2 GHz for 20-30 ms.
    expect((await value("frame_cpufreq")).map((x) => [x.cpu, x.mean_mhz, x.min_mhz, x.max_mhz])).toEqual([
      [0, 1500, 1000, 2000],
    ]);
    expect((await value("frame_render_slices")).map((x) => [x.name, x.from_ms, x.overlap_ms])).toEqual([
      ["DrawFrame", 16, 3],
    ]);
    const text = ((await r.runtime.value("perFrame")) as string[]).join("\n");
    expect(text).toContain("UI thread ran doFrame 14.0 ms");
    expect(text).toContain("RenderThread ran DrawFrame 3.0 ms.");
    expect(text).toContain("main blocked in filemap_fault (I/O) 2.0 ms.");
    expect(text).toContain("Binder: example.app → system_server (binder:200_1) 3.5 ms.");
    expect(text).toContain("CPUs: cpu0 1500 MHz.");
  });

  it("the chosen frame (the only janky one) opened as Perfetto UI shows it: both threads, states, binder, CPU", async () => {
    expect(await r.runtime.value("chosenFrame")).toBe(FRAME);
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ["the trace has FrameTimeline", true],
      // no expected timeline in this trace, so no frame to judge against its deadline
      ["every App Deadline Missed frame ended after its expected end", true],
      ["the chosen frame's UI-thread states neither overlap nor outlast it", true],
    ]);
    expect((await value("chosen_slices")).map((x) => [x.thread, x.name, x.from_ms, x.dur_ms])).toEqual([
      ["UI thread", "doFrame", 1, 14],
      ["RenderThread", "DrawFrame", 16, 3],
    ]);
    // runs from 1 ms, D in filemap_fault 16-18 ms (I/O), woken at 18, back on cpu0 at 18.5 until the trace ends
    expect(
      (await value("chosen_states")).map((x) => [
        x.thread,
        x.state,
        x.from_ms,
        x.ms,
        x.cpu,
        x.blocked_function,
        x.io_wait,
      ]),
    ).toEqual([
      ["UI thread", "running", 0, 6, 0, null, null],
      ["UI thread", "uninterruptible", 6, 2, null, "filemap_fault", true],
      ["UI thread", "runnable", 8, 0.5, null, null, null],
      ["UI thread", "running", 8.5, 11.5, 0, null, null],
    ]);
    expect(
      (await value("chosen_binder")).map((x) => [
        x.caller,
        x.server,
        x.server_thread,
        x.from_ms,
        x.dur_ms,
        x.served_from_ms,
        x.served_ms,
      ]),
    ).toEqual([["example.app", "system_server", "binder:200_1", 2, 3.5, 2.5, 2.5]]);
    expect((await value("chosen_cpufreq")).map((x) => [x.cpu, x.from_ms, x.ms, x.mhz])).toEqual([
      [0, 0, 10, 1000],
      [0, 10, 10, 2000],
    ]);
    // the timeline counts from the frame's start; a track per thread's slices and states, the binder call, cpu0
    const tracks = new Set(
      ((await r.runtime.value("chosenSlices")) as { track: string }[]).map((x) => x.track),
    );
    expect([...tracks]).toEqual([
      "frame",
      "UI thread",
      "RenderThread",
      "UI thread state",
      "binder: example.app",
      "cpu0 MHz",
    ]);
  });
});
