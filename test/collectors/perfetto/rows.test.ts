// tracesToTables: every column of every table holds what the rows hold (int64 as BigInt, nulls kept), with the
// columns bundle/schema.ts declares. Frame timeline rows come from Perfetto's frame_timeline_events diff test.
import { readFileSync } from "node:fs";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { tableSpec } from "../../../bundle/schema";
import {
  emptyTraceRows,
  tracesToTables,
  type FrameTimelineRow,
  type TraceRows,
} from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";

const rowsOf = (t: Table | undefined) =>
  t ? t.toArray().map((r: { toJSON(): Record<string, unknown> }) => ({ ...r.toJSON() })) : [];
const big = (v: number | null) => (v === null ? null : BigInt(v));

const decoded = decodePerfetto(
  new Uint8Array(readFileSync("test/fixtures/perfetto/difftest_frame_timeline_events.pftrace")),
).rows.frameTimeline;
// Every frame there has a dur and a pid: one more without them.
// Nor a severity score: one is given to that extra row.
const frameTimeline = [...decoded, { ...decoded[0]!, dur: null, pid: null, jank_severity_score: 0.25 }];

const input: TraceRows = {
  ...emptyTraceRows(),
  threadStates: [
    {
      ts: 100,
      dur: 5,
      tid: 7,
      pid: 70,
      thread_name: "main",
      state: "running",
      cpu: 2,
      blocked_function: null,
    },
    {
      ts: 105,
      dur: null,
      tid: 8,
      pid: null,
      thread_name: null,
      state: "sleeping",
      cpu: null,
      blocked_function: "f",
    },
  ],
  counters: [
    { ts: 10, pid: 70, name: "mem", value: 1.5 },
    { ts: 11, pid: null, name: "cpu", value: -2 },
  ],
  processes: [
    { pid: 70, ppid: 1, name: "com.example", uid: 10001 },
    { pid: 71, ppid: null, name: null, uid: null },
  ],
  threads: [
    { tid: 7, name: "main", pid: 70 },
    { tid: 8, name: "worker", pid: null },
  ],
  frameTimeline,
};

describe("tracesToTables", () => {
  const tables = tracesToTables(input, "r");

  it("the frame timeline rows have nulls and values in every nullable column", () => {
    const nullable = tableSpec("frame_timeline").columns.filter((c) => c.nullable);
    expect(nullable).toHaveLength(12);
    for (const { name } of nullable) {
      const values = frameTimeline.map((f) => f[name as keyof FrameTimelineRow]);
      expect(values, name).toContain(null);
      expect(
        values.some((v) => v !== null),
        name,
      ).toBe(true);
    }
  });

  it.each<[keyof typeof tables, object[]]>([
    [
      "thread_states",
      input.threadStates.map((s) => ({ ...s, ts: big(s.ts), dur: big(s.dur), io_wait: null })),
    ],
    ["counter_samples", input.counters.map((c) => ({ ...c, ts: big(c.ts), cpu: null }))],
    ["processes", input.processes],
    ["threads", input.threads.map(({ tid, ...t }) => ({ thread_id: tid, ...t }))],
    [
      "frame_timeline",
      frameTimeline.map((f) => ({
        ...f,
        ts: big(f.ts),
        dur: big(f.dur),
        token: big(f.token),
        display_frame_token: big(f.display_frame_token),
      })),
    ],
  ])("%s holds each row's values and the schema's columns", (name, expected) => {
    const got = rowsOf(tables[name]);
    expect(got).toEqual(expected.map((e) => ({ run_id: "r", ...e })));
    expect(Object.keys(got[0]!)).toEqual(tableSpec(name).columns.map((c) => c.name));
  });

  it("leaves out the tables with no rows", () => {
    expect(Object.keys(tracesToTables(emptyTraceRows(), "r"))).toEqual([]);
  });
});
