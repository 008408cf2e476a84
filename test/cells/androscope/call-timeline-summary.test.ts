// The call timeline's per-run summary, built and queried in DuckDB-WASM's Node build: for any window its rows
// equal the direct aggregation over the calls table and the brute-force rule (call-timeline-reference.ts).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import { callTimelineQuery, type CallTimelineOptions } from "../../../cells/androscope/call-timeline";
import {
  callTimelineSummary,
  callTimelineSummaryQueries,
  type CallTimelineSummary,
  type CallTimelineSummaryOptions,
} from "../../../cells/androscope/call-timeline-summary";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { listTables } from "../../../workspace/db/engine";
import {
  arbitraryCalls,
  callsTable,
  HAND_THREADS,
  callsTableOf,
  flatten,
  callTree,
  oneLaneCalls,
  type FlatCall,
} from "./call-table";
import { reference, sortOut, type Out } from "./call-timeline-reference";
import { callsEngine } from "./calls-engine";
import { fcRuns } from "../../support/fc-runs";

const { engine, load, run, freshRunId } = callsEngine();

async function summarise(options: CallTimelineSummaryOptions): Promise<CallTimelineSummary> {
  let last: Table | null = null;
  for (const q of callTimelineSummaryQueries(options)) last = await engine.query(q.sql, q.params);
  return callTimelineSummary(last!);
}

describe("callTimelineSummaryQueries", () => {
  const threads = HAND_THREADS;

  it("stores per level, lane and cell the calls shorter than the cell; the lanes and levels come back", async () => {
    await load(callsTable(threads, "hand"));
    const summary = await summarise({ runId: "hand", minLevel: 0 });
    // 2^10 = 1024 is the first power of two beyond every exit and duration
    expect([summary.runId, summary.minLevel, summary.maxLevel]).toEqual(["hand", 0, 10]);
    // the derived tables stay out of the schema browser's list (main): only the run's own tables show
    expect((await listTables(engine)).map((t) => t.name)).toEqual(["calls"]);
    expect(
      summary.lanes.map((l) => [l.threadId, l.depth, l.calls, l.minEnter, l.maxEnter, l.maxExit]),
    ).toEqual([
      [1, 0, 1, 0, 0, 1000],
      [1, 1, 3, 100, 300, 900],
      [1, 2, 1, 310, 310, 312],
      [2, 0, 1, 50, 50, 60],
    ]);
    const cells = await engine.query(
      `SELECT level, cell, thread_id, depth, calls, busy, min_enter, max_enter, max_exit, first_call FROM ${summary.tables.cells} WHERE level IN (3, 7, 10) ORDER BY level, thread_id, depth, cell`,
    );
    expect(cells.toArray().map((r) => Object.values(r.toJSON()).map(Number))).toEqual([
      // cells of 8 ns: only calls under 8 ns (B 120..125 in cell 15, B 310..312 in cell 38)
      [3, 15, 1, 1, 1, 5, 120, 120, 125, 2],
      [3, 38, 1, 2, 1, 2, 310, 310, 312, 4],
      // cells of 128 ns: both B of depth 1 in cell 0; thread 2's C
      [7, 0, 1, 1, 2, 15, 100, 120, 125, 1],
      [7, 2, 1, 2, 1, 2, 310, 310, 312, 4],
      [7, 0, 2, 0, 1, 10, 50, 50, 60, 5],
      // 1024 ns: every call
      [10, 0, 1, 0, 1, 1000, 0, 0, 1000, 0],
      [10, 0, 1, 1, 3, 615, 100, 300, 900, 1],
      [10, 0, 1, 2, 1, 2, 310, 310, 312, 4],
      [10, 0, 2, 0, 1, 10, 50, 50, 60, 5],
    ]);
    // the windows of callTimelineQuery's own tests, from the summary
    for (const o of [
      { window: [105, 400], widthPx: 100 },
      { widthPx: 20 },
      { widthPx: 20, maxRects: 8 },
      { widthPx: 20, maxRects: 4 },
      { widthPx: 20, maxDepth: 0 },
      { widthPx: 20, threadIds: [2] },
    ] as CallTimelineOptions[])
      expect(await run({ ...o, summary })).toEqual(await run({ ...o, runId: "hand" }));
  });

  it("cuts the cells at the window's edges call by call", async () => {
    // one lane, 12..12 zero-length; window [5, 13) at 2 buckets: cells of 4.
    // 3..6 enters in the cell before t0's and ends after t0: cut to 5..6, it joins t0's cell with 7..8;
    // 9..12 and 12..12 (visible, unlike 13..13 at t1) are alone in their cells.
    await load(callsTable(oneLaneCalls(4, "1..2 3..6 7..8 9..12 12..12 13..13"), "cut"));
    const summary = await summarise({ runId: "cut", minLevel: 0 });
    const o: CallTimelineOptions = { window: [5, 13], widthPx: 4 };
    expect(callTimelineQuery({ ...o, summary }).sql).toContain(`FROM ${summary.tables.cells}`);
    const rows = await run({ ...o, summary });
    expect(rows.map((r) => [r.kind, r.start, r.end, r.calls, r.busy, r.method_id])).toEqual([
      ["bucket", 5, 8, 2, 2, 2],
      ["call", 9, 12, 1, 3, 4],
      ["call", 12, 12, 1, 0, 5],
    ]);
    expect(await run({ ...o, runId: "cut" })).toEqual(rows);
  });

  it("leaves out of a cut cell the calls entering at or after t1 when the window lies inside one cell", async () => {
    // fast-check's counterexample (seed 750493016): one thread, depths 0..4 (5 lanes), 1 bucket per lane.
    // [1624, 3672.5] is read as [1624, 3673): 2049 ns, so cells of 4096 and the window inside cell 0, which is
    // cut at both ends. B 3882..3888 (depth 1) enters in that cell after t1: not visible. It used to be taken
    // as a cut call (t0's cell reaches 4096) and cut to 3882..3673, busy -209 in depth 1's bucket.
    const threads = callTree(
      1,
      `
      3 1623..4276
        3 2369..3644
          1 2628..2795
            5 2678..2715
              4 2688..2697
              5 2698..2708
              1 2708..2709
          5 2818..2979
            4 2853..2856
              2 2853..2853
              1 2853..2856
          5 3046..3634
        4 3657..3701
        2 3882..3888`,
    );
    await load(callsTable(threads, "inside"));
    const summary = await summarise({ runId: "inside", minLevel: 0 });
    const row = (r: Out) => [r.kind, r.depth, r.start, r.end, r.calls, r.busy, r.method_id, r.call_id];
    const o: CallTimelineOptions = { window: [1624, 3672.5], widthPx: 1, bucketPx: 3, maxRects: 1 };
    expect(callTimelineQuery({ ...o, summary }).sql).toContain(`FROM ${summary.tables.cells}`);
    const rows = await run({ ...o, summary });
    expect(rows.map(row)).toEqual([
      ["call", 0, 1624, 3673, 1, 2049, 3, 0],
      // 2369..3644 and 3657..3701 cut to 3657..3673: 1275 + 16
      ["bucket", 1, 1624, 3673, 2, 1291, 3, null],
      ["bucket", 2, 1624, 3673, 3, 167 + 161 + 588, 5, null],
      ["bucket", 3, 1624, 3673, 2, 37 + 3, 5, null],
      ["bucket", 4, 1624, 3673, 5, 9 + 10 + 1 + 0 + 3, 5, null],
    ]);
    expect(await run({ ...o, runId: "inside" })).toEqual(rows);
    // the fraction plays no part: the integer window [1624, 3673] gives the same rows
    expect(await run({ ...o, window: [1624, 3673], summary })).toEqual(rows);
    // the counterexample's second view, the whole run [1623, 4276): cells of 4096, B 3882..3888 in depth 1's bucket
    const whole = await run({ ...o, window: null, summary });
    expect(whole.map(row)).toEqual([
      ["call", 0, 1623, 4276, 1, 2653, 3, 0],
      ["bucket", 1, 1623, 4096, 3, 1275 + 44 + 6, 3, null],
      ["bucket", 2, 1623, 4096, 3, 916, 5, null],
      ["bucket", 3, 1623, 4096, 2, 40, 5, null],
      ["bucket", 4, 1623, 4096, 5, 23, 5, null],
    ]);
    expect(await run({ ...o, window: null, runId: "inside" })).toEqual(whole);
  });

  it("keeps levels from the first whose cells hold four calls on average", async () => {
    // 64 calls of 1 ns, 4 ns apart: cells of 16 ns (level 4) hold 4 each; 2^8 = 256 > the last exit, 253
    await load(
      callsTableOf(
        Array.from({ length: 64 }, (_, i): FlatCall => ({
          thread: 1,
          method: 1,
          depth: 0,
          parent: -1,
          enter: 4 * i,
          exit: 4 * i + 1,
        })),
        "even",
      ),
    );
    const summary = await summarise({ runId: "even" });
    expect([summary.minLevel, summary.maxLevel]).toEqual([4, 8]);
    const levels = await engine.query(
      `SELECT level, count(*)::INTEGER AS cells, min(calls) AS least FROM ${summary.tables.cells} GROUP BY level ORDER BY level`,
    );
    expect(levels.toArray().map((r) => [r.level, r.cells, r.least])).toEqual([
      [4, 16, 4],
      [5, 8, 8],
      [6, 4, 16],
      [7, 2, 32],
      [8, 1, 64],
    ]);
    // a window finer than level 4 reads the calls directly (4 buckets of 20 ns: level 3), the others the cells
    // (level 9 is above the last level, 8: its cells); the same rows either way
    for (const [window, fromCells] of [
      [[10, 30], false],
      [[0, 253], true],
      [[-500, 900], true],
    ] as [[number, number], boolean][]) {
      expect(callTimelineQuery({ window, widthPx: 8, summary }).sql.includes(summary.tables.cells)).toBe(
        fromCells,
      );
      expect(await run({ window, widthPx: 8, summary })).toEqual(
        await run({ window, widthPx: 8, runId: "even" }),
      );
    }
  });

  it("an empty run gives an empty summary; bad options are refused by name", async () => {
    const summary = await summarise({ runId: "no such run" });
    expect([summary.lanes, summary.minLevel, summary.maxLevel]).toEqual([[], 0, 0]);
    expect(await run({ widthPx: 100, summary })).toEqual([]);
    expect(await run({ widthPx: 100, window: [0, 100], summary })).toEqual([]);
    expect(() => callTimelineSummaryQueries({ minLevel: 63 })).toThrow(/invalid minLevel: 63/);
    expect(() => callTimelineSummaryQueries({ name: "x; DROP TABLE calls" })).toThrow(/invalid summary name/);
    expect(() => callTimelineQuery({ widthPx: 10, runId: "other", summary })).toThrow(
      /summary is of run no such run, not other/,
    );
    expect(() => callTimelineSummary(summaryRowsWithout())).toThrow(/empty/);
    const names = callTimelineSummaryQueries({ runId: "a-b" })
      .concat(callTimelineSummaryQueries({ runId: "a_b" }))
      .map((q) => q.sql.match(/TABLE ([\w.]+)_calls/)?.[1]);
    expect(new Set(names.filter(Boolean)).size).toBe(2);
  });
});

function summaryRowsWithout(): Table {
  return { numRows: 0, getChild: () => ({ get: () => null }) } as unknown as Table;
}

describe("the summary's answer", () => {
  it("equals the direct aggregation and the brute-force rule for random calls, windows, widths and filters", async () => {
    const window = fc
      .tuple(fc.integer({ min: -100, max: 5100 }), fc.integer({ min: -100, max: 5100 }), fc.boolean())
      .map(([a, b, half]) => [Math.min(a, b), Math.max(a, b) + (half ? 0.5 : 0)] as [number, number]);
    const view = fc.record({
      window: fc.option(window),
      widthPx: fc.integer({ min: 1, max: 300 }),
      maxRects: fc.integer({ min: 1, max: 400 }),
      maxDepth: fc.option(fc.integer({ min: 0, max: 3 })),
      threadIds: fc.option(fc.subarray([1, 2, 3], { minLength: 1 })),
    });
    await fc.assert(
      fc.asyncProperty(
        arbitraryCalls({ threads: 3, methods: 5, span: 5000, maxDepth: 5 }),
        // negative times and times far from 0 (high levels)
        fc.constantFrom(0, -2600, 2 ** 40 + 3),
        // mostly every level stored, so most windows are answered from cells
        fc.oneof(
          { arbitrary: fc.constant(0), weight: 3 },
          { arbitrary: fc.integer({ min: 0, max: 14 }), weight: 2 },
          { arbitrary: fc.constant(null), weight: 1 },
        ),
        fc.array(view, { minLength: 1, maxLength: 8 }),
        async (threads, offset, minLevel, views) => {
          const runId = freshRunId("s");
          const flat = flatten(threads).map((c) => ({
            ...c,
            enter: c.enter + offset,
            exit: c.exit + offset,
          }));
          await load(callsTableOf(flat, runId));
          const summary = await summarise({ runId, minLevel });
          for (const v of views) {
            const o: CallTimelineOptions = {
              ...v,
              window: v.window && [v.window[0] + offset, v.window[1] + offset],
              bucketPx: 3,
            };
            const direct = await run({ ...o, runId });
            expect(sortOut(direct)).toEqual(reference(flat, o));
            expect(await run({ ...o, summary })).toEqual(direct);
          }
        },
      ),
      { numRuns: fcRuns(60) },
    );
  }, 180_000); // ~9 s alone; 60 DuckDB round trips per run can take far longer on a loaded 2-core machine

  it("equals the direct aggregation on a real trace, at every zoom", async () => {
    const trace = readMethodTrace(
      new Uint8Array(
        readFileSync("test/fixtures/dmtrace/Grigory-Rylov-android-methods-profiler_legacy.trace"),
      ),
      { runId: "legacy" },
    );
    await load(buildCalls(trace));
    for (const minLevel of [null, 0]) {
      const summary = await summarise({ runId: "legacy", minLevel });
      const [t0, t1] = [
        Math.min(...summary.lanes.map((l) => l.minEnter)),
        Math.max(...summary.lanes.map((l) => l.maxExit)),
      ];
      const span = t1 - t0;
      for (const window of [
        null,
        [t0, t1],
        [t0 + span / 4, t0 + span / 2],
        [t0 + span / 2, t0 + span / 2 + span / 500],
        [t0 + span / 3, t0 + span / 3 + span / 50000],
      ] as ([number, number] | null)[]) {
        const o: CallTimelineOptions = { window, widthPx: 800, maxRects: 2000 };
        const direct = await run({ ...o, runId: "legacy" });
        expect(direct.length).toBeGreaterThan(0);
        expect(await run({ ...o, summary })).toEqual(direct);
      }
    }
  });
});
