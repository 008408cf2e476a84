// The timeline's level-of-detail SQL over the calls table, run in DuckDB-WASM's Node build (one engine for
// the file), against the brute-force rule in call-timeline-reference.ts.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import {
  callTimelineExtentQuery,
  callTimelineQuery,
  type CallTimelineOptions,
} from "../../../cells/androscope/call-timeline";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { arbitraryCalls, callsTable, flatten, HAND_THREADS, oneLaneCalls } from "./call-table";
import { reference, runLanes, sortOut, type Out } from "./call-timeline-reference";
import { callsEngine } from "./calls-engine";

const { engine, load, run, freshRunId } = callsEngine();

describe("callTimelineQuery in DuckDB", () => {
  const threads = HAND_THREADS;

  it("draws calls as themselves where few are visible (alone in their cell or a cell long), cut to the window", async () => {
    await load(callsTable(threads, "hand"));
    const rows = await run({ runId: "hand", window: [105, 400], widthPx: 100 });
    expect(rows.map((r) => [r.kind, r.thread_id, r.depth, r.start, r.end, r.method_id])).toEqual([
      ["call", 1, 0, 105, 400, 1],
      ["call", 1, 1, 105, 110, 2],
      ["call", 1, 1, 120, 125, 2],
      ["call", 1, 1, 300, 400, 3],
      ["call", 1, 2, 310, 312, 2],
    ]);
  });

  it("buckets calls shorter than a cell that share one; the lanes cap the buckets", async () => {
    const row = (r: Out) => [r.kind, r.thread_id, r.depth, r.start, r.end, r.calls, r.busy, r.method_id];
    // whole trace 0..1000 at 10 buckets: cells of 128 ns (the least power of two >= 1000 / 10); A and C are at
    // least a cell long, the B calls and thread 2's C are short; B 310..312 is alone in its cell: drawn as itself.
    // A bucket's method is its longest call's.
    const tenBuckets: unknown[][] = [
      ["call", 1, 0, 0, 1000, 1, 1000, 1],
      ["bucket", 1, 1, 0, 128, 2, 15, 2],
      ["call", 1, 1, 300, 900, 1, 600, 3],
      ["call", 1, 2, 310, 312, 1, 2, 2],
      ["call", 2, 0, 50, 60, 1, 10, 3],
    ];
    // lanes x buckets are capped by maxRects: 4 lanes (depths 0-2 on thread 1, 0 on thread 2)
    const byMaxRects: { maxRects?: number; rows: unknown[][] }[] = [
      { rows: tenBuckets },
      {
        // 8 rects -> 2 buckets, cells of 512 ns: C (600 ns) still drawn as itself, the last cell cut at 1000; the
        // rows at 10 buckets but for the B bucket's cell
        maxRects: 8,
        rows: tenBuckets.with(1, ["bucket", 1, 1, 0, 512, 2, 15, 2]),
      },
      {
        // 4 rects -> 1 bucket, cells of 1024 ns: A (1000 ns) is short now but alone in its cell; C and the two B
        // share one
        maxRects: 4,
        rows: [
          ["call", 1, 0, 0, 1000, 1, 1000, 1],
          ["bucket", 1, 1, 0, 1000, 3, 615, 3],
          ["call", 1, 2, 310, 312, 1, 2, 2],
          ["call", 2, 0, 50, 60, 1, 10, 3],
        ],
      },
    ];
    for (const { maxRects, rows } of byMaxRects)
      expect((await run({ runId: "hand", widthPx: 20, maxRects })).map(row)).toEqual(rows);
    // the same with the window and the lanes given: every term a constant
    const eq = callTimelineExtentQuery({ runId: "hand" });
    const [extent] = (await engine.query(eq.sql, eq.params)).toArray().map((r) => r.toJSON());
    expect([Number(extent!.t0), Number(extent!.t1), extent!.lanes]).toEqual([0, 1000, 4]);
    expect(await run({ runId: "hand", widthPx: 20, window: [0, 1000], lanes: 4 })).toEqual(
      await run({ runId: "hand", widthPx: 20 }),
    );
    // threads and depth filters
    expect((await run({ runId: "hand", widthPx: 20, maxDepth: 0 })).map((r) => r.thread_id)).toEqual([1, 2]);
    expect(
      (await run({ runId: "hand", widthPx: 20, threadIds: [2] })).map((r) => [r.thread_id, r.method_id]),
    ).toEqual([[2, 3]]);
  });

  it("cuts calls and cells at the window's edges; zero-length calls count from t0 up to t1", async () => {
    // one lane, 6..6 and 12..12 zero-length; window [5, 12), 2 buckets -> cells of 4
    await load(callsTable(oneLaneCalls(7, "0..3 4..6 6..6 7..12 12..12 13..14"), "edges"));
    const rows = await run({ runId: "edges", window: [5, 12], widthPx: 4, bucketPx: 2 });
    // 4..6 enters before t0: cut to 5..6, grouped with the cell of t0 (4..8) with 6..6; 7..12 is a cell long
    expect(rows.map((r) => [r.kind, r.start, r.end, r.calls, r.busy, r.method_id])).toEqual([
      ["bucket", 5, 8, 2, 1, 2],
      ["call", 7, 12, 1, 5, 4],
    ]);
  });

  it("refuses bad options with a message naming them", () => {
    expect(() => callTimelineQuery({ widthPx: 0 })).toThrow(/invalid widthPx: 0/);
    expect(() => callTimelineQuery({ widthPx: 100, window: [5, 1] })).toThrow(/invalid window/);
    expect(() => callTimelineQuery({ widthPx: 100, lanes: -1 })).toThrow(/invalid lanes/);
    expect(() => callTimelineQuery({ widthPx: 100, maxDepth: 70_000 })).toThrow(/invalid maxDepth/);
    expect(() => callTimelineQuery({ widthPx: 100, threadIds: [1.5] })).toThrow(/invalid threadIds/);
    expect(() => callTimelineQuery({ widthPx: 100, maxRects: 0 })).toThrow(/invalid maxRects/);
    const q = callTimelineQuery({ widthPx: 100 });
    expect(q.parts.join("?")).toBe(q.sql);
    expect(q.parts.length - 1).toBe(q.params.length);
  });

  it("matches the brute-force rule on random call tables, windows and widths", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryCalls({ threads: 3, methods: 5, span: 5000, maxDepth: 5 }),
        fc.option(
          fc
            .tuple(fc.integer({ min: -100, max: 5100 }), fc.integer({ min: -100, max: 5100 }))
            .map(([a, b]) => [Math.min(a, b), Math.max(a, b) + 0.5] as [number, number]),
        ),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 3 })),
        fc.integer({ min: 1, max: 400 }),
        async (threads, window, widthPx, passLanes, maxDepth, maxRects) => {
          const runId = freshRunId("r");
          const flat = flatten(threads);
          await load(callsTable(threads, runId));
          // with the lanes given (and a window) the query is all constants; without, it computes them
          const lanes = passLanes
            ? runLanes(flat.filter((c) => maxDepth == null || c.depth <= maxDepth))
            : null;
          const o: CallTimelineOptions = { runId, window, widthPx, maxDepth, bucketPx: 3, maxRects, lanes };
          expect(sortOut(await run(o))).toEqual(reference(flat, o));
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe("callTimelineQuery on a real trace", () => {
  const trace = readMethodTrace(
    new Uint8Array(readFileSync("test/fixtures/dmtrace/Grigory-Rylov-android-methods-profiler_legacy.trace")),
    { runId: "legacy" },
  );
  const calls = buildCalls(trace);

  it("accounts for every visible call once, in a bounded number of rows, at every zoom", async () => {
    await load(calls);
    const enter = calls.getChild("enter")!.toArray() as BigInt64Array;
    const exit = calls.getChild("exit")!.toArray() as BigInt64Array;
    const end = Math.max(...Array.from(exit, Number));
    for (const [t0, t1] of [
      [0, end],
      [end / 4, end / 2],
      [end / 2, end / 2 + end / 500],
    ] as [number, number][]) {
      const rows = await run({ runId: "legacy", window: [t0, t1], widthPx: 800, maxRects: 2000 });
      const [a, b] = [Math.floor(t0), Math.ceil(t1)];
      let visible = 0;
      let time = 0;
      for (let i = 0; i < calls.numRows; i++) {
        const [s, e] = [Number(enter[i]), Number(exit[i])];
        if (s < b && (e > a || (e === s && s >= a))) (visible++, (time += Math.min(e, b) - Math.max(s, a)));
      }
      expect(rows.reduce((s, r) => s + r.calls, 0)).toBe(visible);
      expect(rows.reduce((s, r) => s + r.busy, 0)).toBe(time);
      // per lane at most B + 1 cells in view and B + 2 calls a cell long, lanes x B <= maxRects
      const lanes = new Set(rows.map((r) => `${r.thread_id}/${r.depth}`)).size;
      expect(rows.length).toBeLessThanOrEqual(2 * 2000 + 3 * lanes);
      expect(rows.some((r) => r.kind === "call")).toBe(true);
      for (const r of rows) expect(r.end).toBeGreaterThanOrEqual(r.start);
    }
  });
});
