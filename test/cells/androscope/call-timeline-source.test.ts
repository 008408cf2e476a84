// The call timeline as a zoomable timeline's source, in DuckDB-WASM's Node build, on the hand-worked calls of
// call-table.ts (thread 1: A 0..1000 { B 100..110, B 120..125, C 300..900 { B 310..312 } }, thread 2: C 50..60).
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStream } from "../../../bundle/encode-stream";
import { makeBundleTable } from "../../../bundle/table-builder";
import { callTimelineSource } from "../../../cells/androscope/call-timeline-source";
import {
  callTimelineSummary,
  callTimelineSummaryQueries,
} from "../../../cells/androscope/call-timeline-summary";
import type { TimelineQuerySource } from "../../../cells/common/timeline-lod";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import type { SqlEngine } from "../../../workspace/db/engine";
import { callsTable, HAND_THREADS } from "./call-table";

let engine: SqlEngine;
let source: TimelineQuerySource;
const methods = [
  { id: 1, className: "com.example.A", methodName: "a", signature: "()V" },
  { id: 2, className: "com.example.B", methodName: "b", signature: "(I)V" },
  { id: 3, className: "com.example.C", methodName: "c", signature: "()Z" },
];

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.insertArrowStream("calls", encodeStream(callsTable(HAND_THREADS, "src")));
  await engine.insertArrowStream(
    "methods",
    encodeStream(
      makeBundleTable("methods", "src", {
        method_id: methods.map((m) => BigInt(m.id)),
        class_name: methods.map((m) => m.className),
        method_name: methods.map((m) => m.methodName),
        signature: methods.map((m) => m.signature),
      }),
    ),
  );
  let rows: Table | null = null;
  for (const q of callTimelineSummaryQueries({ runId: "src" })) rows = await engine.query(q.sql, q.params);
  source = callTimelineSource({
    summary: callTimelineSummary(rows!),
    methods,
    threads: [
      { id: 1, name: "worker" },
      { id: 2, name: "main" },
    ],
  });
});
afterAll(() => engine?.close());

const boxesOf = async (w: [number, number], widthPx: number) => {
  const q = source.query(w, widthPx);
  return source.boxes(await engine.query(q.sql, q.params));
};

describe("callTimelineSource", () => {
  it("one track per thread, the main thread first, as deep as its deepest call; the calls' extent", () => {
    expect(source.tracks).toEqual([
      { name: "main 2", rows: 1 },
      { name: "worker 1", rows: 3 },
    ]);
    expect(source.extent).toEqual([0, 1000]);
  });

  it("wide enough, every call is its own box, named, on its thread and depth", async () => {
    const boxes = await boxesOf([0, 1000], 1000);
    expect(
      boxes
        .map((b) => [b.track, b.depth, b.start, b.end, b.name, b.count])
        .sort((a, b) => Number(a[2]) - Number(b[2])),
    ).toEqual([
      ["worker 1", 0, 0, 1000, "com.example.A.a", 1],
      ["main 2", 0, 50, 60, "com.example.C.c", 1],
      ["worker 1", 1, 100, 110, "com.example.B.b", 1],
      ["worker 1", 1, 120, 125, "com.example.B.b", 1],
      ["worker 1", 1, 300, 900, "com.example.C.c", 1],
      ["worker 1", 2, 310, 312, "com.example.B.b", 1],
    ]);
  });

  it("narrow, short calls are counted together and every call is counted once", async () => {
    const boxes = await boxesOf([0, 1000], 10);
    expect(boxes.reduce((n, b) => n + b.count, 0)).toBe(6);
    const merged = boxes.find((b) => b.count > 1)!;
    // the two B calls at 100..110 and 120..125 share a 128 ns cell
    expect([merged.track, merged.depth, merged.count, merged.busy, merged.name]).toEqual([
      "worker 1",
      1,
      2,
      15,
      "com.example.B.b",
    ]);
  });

  it("a call cut by the window has its whole span and its signature in its details", async () => {
    const boxes = await boxesOf([200, 400], 1000);
    const a = boxes.find((b) => b.name === "com.example.A.a")!;
    expect([a.start, a.end]).toEqual([200, 400]);
    const q = source.details!(a)!;
    const row = (await engine.query(q.sql, q.params)).get(0)!.toJSON();
    expect([Number(row.start_ns), Number(row.dur_ns), row.signature]).toEqual([0, 1000, "()V"]);
    // a summary box has no single call to detail
    expect(source.details!({ ...a, count: 2, args: {} })).toBeNull();
  });
});
