// The frames as `jankbook compare` has the engine summarise them, against the same summary made in JS from the
// frames table (cells/compare/frame-summary.ts) and against a hand-worked example: buckets cut from the engine's
// spans, a frame before the first bucket, suspect rows left out, a frame without a duration counted for the rates
// only, a run without UI events cut into windows, a run of no length (ten windows starting together: the last
// holds its frames, as blockAt's search says), and a run on neither side.
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSpans, comparisonBlocks, type RunSpans } from "../../../cells/compare/blocks";
import { frameSummaryOf } from "../../../cells/compare/frame-summary";
import { createNativeEngine, type NativeEngine } from "../../../workspace/db/node/duckdb-native";
import { sqlBlocks, sqlFrameSummary, sqlSpans } from "../../../workspace/node/compare-frames-sql";

const ms = 1_000_000n;
const rows = [
  // run, vsync ms, duration ms (null: none), jank, suspect
  ["a1", 20n, 5n, false, null],
  ["a1", 150n, 40n, true, null],
  ["a1", 310n, null, true, null],
  ["a1", 320n, 8n, null, "vsync before its predecessor"],
  ["a1", 330n, 12n, null, null],
  ["b1", 0n, 10n, false, null],
  ["b1", 500n, 20n, false, null],
  ["b2", 1000n, 7n, false, null],
  ["b2", 1000n, 9n, false, null],
  ["x", 40n, 3n, true, null],
] as const;
const frames = tableFromArrays({
  run_id: rows.map((r) => r[0]),
  intended_vsync: BigInt64Array.from(rows, (r) => r[1] * ms),
  // b2's frames have no completion time: its span has no length
  frame_completed: rows.map((r) => (r[0] === "b2" || r[2] === null ? null : (r[1] + r[2]) * ms)),
  duration: rows.map((r) => (r[2] === null ? null : r[2] * ms)),
  deadline: BigInt64Array.from(rows, () => 16n * ms),
  jank: rows.map((r) => r[3]),
  suspect: rows.map((r) => r[4]),
});
const uiEvents = tableFromArrays({
  run_id: ["a1", "a1"],
  ts: BigInt64Array.from([100n * ms, 300n * ms]),
  kind: ["click", "scroll"],
  target: ["ok", "list"],
});
const sides = { a: ["a1"], b: ["b1", "b2"] };

let engine: NativeEngine;
beforeAll(async () => {
  engine = await createNativeEngine();
  await engine.insertArrowStream("frames", tableToIPC(frames, "stream"));
  await engine.insertArrowStream("ui_events", tableToIPC(uiEvents, "stream"));
});
afterAll(() => engine.close());

describe("the frames' summary from the engine", () => {
  it("cuts the buckets the cells cut from the tables", async () => {
    const spans: RunSpans = new Map();
    addSpans(spans, frames, "intended_vsync", "frame_completed");
    const { blocks } = await sqlBlocks(engine, sides);
    expect(blocks).toEqual(comparisonBlocks(sides, spans, uiEvents));
    expect(blocks.a.key).toEqual(["before the first event", "click ok", "scroll list"]);
    // every run's span, the one on neither side too
    expect(await sqlSpans(engine)).toEqual(spans);
  });

  it("places, counts and sorts the frames as worked by hand, and as the JS summary does", async () => {
    const { blocks } = await sqlBlocks(engine, sides);
    const got = (await sqlFrameSummary(engine, blocks))!;
    expect(got).toEqual(frameSummaryOf(frames, blocks));
    // A: before the first event (20 ms), after the click (150 ms), after the scroll (310 ms without a duration,
    // 330 ms); the suspect row at 320 ms is left out
    expect(Array.from(got.a.frames)).toEqual([1, 1, 2]);
    expect(Array.from(got.a.jank)).toEqual([0, 1, 1]);
    expect(Array.from(got.a.missed2)).toEqual([0, 1, 0]); // 40 ms > 2 × 16 ms
    expect(Array.from(got.a.ms)).toEqual([5, 12, 40]);
    expect(Array.from(got.a.msBlock)).toEqual([0, 2, 1]);
    // B: b1 spans 0..520 ms in ten windows of 52 ms (0 ms in the first, 500 ms in the tenth); b2's ten windows
    // all start at 1000 ms and its frames are in the last of them, block 19; x is on neither side
    expect(Array.from(got.b.ms)).toEqual([7, 9, 10, 20]);
    expect(Array.from(got.b.msBlock)).toEqual([19, 19, 0, 9]);
    expect(got.b.frames.reduce((s, x) => s + x, 0)).toBe(4);
  });

  it("places the frames alike by one join over every run as by a join per run", async () => {
    const { blocks } = await sqlBlocks(engine, sides);
    const joined = (await sqlFrameSummary(engine, blocks, 0))!;
    const perRun = (await sqlFrameSummary(engine, blocks, 16))!;
    expect(joined).toEqual(perRun);
    expect(joined).toEqual(frameSummaryOf(frames, blocks));
  });
});
