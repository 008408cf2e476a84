// The timeline's level-of-detail SQL, run in DuckDB-WASM's Node build (one engine for the file), against a
// brute-force aggregation written out here.
import { readFileSync } from "node:fs";
import * as Plot from "@observablehq/plot";
import fc from "fast-check";
import type { Table } from "apache-arrow";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStream } from "../../../bundle/encode-stream";
import { buildCalls } from "../../../cells/androscope/calls";
import { callTimelineExtentQuery, callTimelinePlot, callTimelineQuery, callTimelineRects, type CallTimelineOptions } from "../../../cells/androscope/call-timeline";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { createNodeEngine } from "../../../workspace/db/duckdb-node";
import type { SqlEngine } from "../../../workspace/db/engine";
import { arbitraryCalls, callsTable, flatten, type CallSpec, type FlatCall } from "./call-table";

interface Out {
  kind: string;
  thread_id: number;
  depth: number;
  start: number;
  end: number;
  calls: number;
  busy: number;
  method_id: number;
  call_id: number | null;
}

/** The same rule, by hand: filter, cut to the window, then all calls or (wide calls + per-bucket short ones). */
function reference(calls: FlatCall[], o: CallTimelineOptions): Out[] {
  const mine = calls
    .map((c, i) => ({ ...c, id: i }))
    .filter((c) => (!o.threadIds || o.threadIds.includes(c.thread)) && (o.maxDepth == null || c.depth <= o.maxDepth));
  if (!mine.length) return [];
  const t0 = o.window ? Math.floor(o.window[0]) : Math.min(...mine.map((c) => c.enter));
  const t1 = o.window ? Math.ceil(o.window[1]) : Math.max(...mine.map((c) => c.exit));
  // lanes: every thread's deepest depth + 1, over the run's calls (not only the window's)
  const lanes = runLanes(mine);
  const B = Math.max(1, Math.min(Math.floor(o.widthPx / (o.bucketPx ?? 2)), Math.floor((o.maxRects ?? 8_000) / Math.max(lanes, 1))));
  const shown = mine
    .filter((c) => c.enter < t1 && (c.exit > t0 || (c.exit === c.enter && c.enter >= t0)))
    .map((c) => ({ ...c, s: Math.max(c.enter, t0), e: Math.min(c.exit, t1) }));
  const len = t1 - t0;
  const wide = (c: { s: number; e: number }) => (c.e - c.s) * B >= len;
  const asCall = (c: (typeof shown)[number]): Out => ({ kind: "call", thread_id: c.thread, depth: c.depth, start: c.s, end: c.e, calls: 1, busy: c.e - c.s, method_id: c.method, call_id: c.id });
  const out: Out[] = shown.filter(wide).map(asCall);
  const groups = new Map<string, typeof shown>();
  for (const c of shown.filter((x) => !wide(x))) {
    const b = Math.floor(((c.s - t0) * B) / len);
    const key = `${c.thread}/${c.depth}/${b}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [key, g] of groups) {
    if (g.length === 1) {
      out.push(asCall(g[0]!));
      continue;
    }
    const b = Number(key.split("/")[2]);
    const longest = [...g].sort((x, y) => y.e - y.s - (x.e - x.s) || x.method - y.method)[0]!;
    out.push({
      kind: "bucket",
      thread_id: g[0]!.thread,
      depth: g[0]!.depth,
      start: t0 + Math.floor((b * len) / B),
      end: t0 + Math.floor(((b + 1) * len) / B),
      calls: g.length,
      busy: g.reduce((s, c) => s + c.e - c.s, 0),
      method_id: longest.method,
      call_id: null,
    });
  }
  return sortOut(out);
}

function runLanes(calls: { thread: number; depth: number }[]): number {
  const deepest = new Map<number, number>();
  for (const c of calls) deepest.set(c.thread, Math.max(deepest.get(c.thread) ?? 0, c.depth + 1));
  return [...deepest.values()].reduce((a, b) => a + b, 0);
}

const sortOut = (rows: Out[]) =>
  [...rows].sort((a, b) => a.thread_id - b.thread_id || a.depth - b.depth || a.start - b.start || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.call_id ?? -1) - (b.call_id ?? -1));

let engine: SqlEngine;
let runSeq = 0;
beforeAll(async () => {
  engine = await createNodeEngine();
});
afterAll(() => engine?.close());

async function load(table: Table): Promise<void> {
  await engine.insertArrowStream("calls", encodeStream(table));
}

async function run(o: CallTimelineOptions): Promise<Out[]> {
  const q = callTimelineQuery(o);
  const t = await engine.query(q.sql, q.params);
  return t.toArray().map((r) => {
    const x = r.toJSON() as Record<string, unknown>;
    return { kind: String(x.kind), thread_id: Number(x.thread_id), depth: Number(x.depth), start: Number(x.start), end: Number(x.end), calls: Number(x.calls), busy: Number(x.busy), method_id: Number(x.method_id), call_id: x.call_id == null ? null : Number(x.call_id) };
  });
}


describe("callTimelineQuery in DuckDB", () => {
  // thread 1: A 0..1000 { B 100..110, B 120..125, C 300..900 { B 310..312 } }, thread 2: C 50..60
  const threads: Record<number, CallSpec[]> = {
    1: [[1, 0, 1000, [[2, 100, 110], [2, 120, 125], [3, 300, 900, [[2, 310, 312]]]]]],
    2: [[3, 50, 60]],
  };

  it("draws calls as themselves where few are visible (alone in their bucket or wide), cut to the window", async () => {
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

  it("buckets calls narrower than a bucket that share it; the lanes cap the buckets", async () => {
    // whole trace 0..1000, 10 buckets of 100 ns; A and C are wide, the B calls and thread 2's C are short
    const rows = await run({ runId: "hand", widthPx: 20 });
    expect(rows.map((r) => [r.kind, r.thread_id, r.depth, r.start, r.end, r.calls, r.busy, r.method_id])).toEqual([
      ["call", 1, 0, 0, 1000, 1, 1000, 1],
      ["bucket", 1, 1, 100, 200, 2, 15, 2],
      ["call", 1, 1, 300, 900, 1, 600, 3],
      // alone in its bucket: drawn as itself
      ["call", 1, 2, 310, 312, 1, 2, 2],
      ["call", 2, 0, 50, 60, 1, 10, 3],
    ]);
    // the same with the window and the lanes given: every term a constant
    const eq = callTimelineExtentQuery({ runId: "hand" });
    const [extent] = (await engine.query(eq.sql, eq.params)).toArray().map((r) => r.toJSON());
    expect([Number(extent!.t0), Number(extent!.t1), extent!.lanes]).toEqual([0, 1000, 4]);
    expect(await run({ runId: "hand", widthPx: 20, window: [0, 1000], lanes: 4 })).toEqual(await run({ runId: "hand", widthPx: 20 }));
    // lanes x buckets capped by maxRects: 4 lanes (depths 0-2 on thread 1, 0 on thread 2), 8 rects -> 2 buckets of 500
    expect((await run({ runId: "hand", widthPx: 20, maxRects: 8 })).map((r) => [r.kind, r.thread_id, r.depth, r.start, r.end, r.calls, r.busy])).toEqual([
      ["call", 1, 0, 0, 1000, 1, 1000],
      ["bucket", 1, 1, 0, 500, 2, 15],
      ["call", 1, 1, 300, 900, 1, 600],
      ["call", 1, 2, 310, 312, 1, 2],
      ["call", 2, 0, 50, 60, 1, 10],
    ]);
    // threads and depth filters
    expect((await run({ runId: "hand", widthPx: 20, maxDepth: 0 })).map((r) => r.thread_id)).toEqual([1, 2]);
    expect((await run({ runId: "hand", widthPx: 20, threadIds: [2] })).map((r) => [r.thread_id, r.method_id])).toEqual([[2, 3]]);
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

  it("matches the brute-force aggregation on random call tables, windows and widths", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryCalls({ threads: 3, methods: 5, span: 5000, maxDepth: 5 }),
        fc.option(fc.tuple(fc.integer({ min: -100, max: 5100 }), fc.integer({ min: -100, max: 5100 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b) + 0.5] as [number, number])),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 3 })),
        fc.integer({ min: 1, max: 400 }),
        async (threads, window, widthPx, passLanes, maxDepth, maxRects) => {
          const runId = `r${++runSeq}`;
          const flat = flatten(threads);
          await load(callsTable(threads, runId));
          // with the lanes given (and a window) the query is all constants; without, it computes them
          const lanes = passLanes ? runLanes(flat.filter((c) => maxDepth == null || c.depth <= maxDepth)) : null;
          const o: CallTimelineOptions = { runId, window, widthPx, maxDepth, bucketPx: 3, maxRects, lanes };
          expect(sortOut(await run(o))).toEqual(reference(flat, o));
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe("callTimelineQuery on a real trace", () => {
  const trace = readMethodTrace(new Uint8Array(readFileSync("test/fixtures/dmtrace/Grigory-Rylov-android-methods-profiler_legacy.trace")), { runId: "legacy" });
  const calls = buildCalls(trace);

  it("accounts for every visible call once, in a bounded number of rows, at every zoom", async () => {
    await load(calls);
    const enter = calls.getChild("enter")!.toArray() as BigInt64Array;
    const exit = calls.getChild("exit")!.toArray() as BigInt64Array;
    const end = Math.max(...Array.from(exit, Number));
    for (const [t0, t1] of [[0, end], [end / 4, end / 2], [end / 2, end / 2 + end / 500]] as [number, number][]) {
      const rows = await run({ runId: "legacy", window: [t0, t1], widthPx: 800, maxRects: 2000 });
      const [a, b] = [Math.floor(t0), Math.ceil(t1)];
      let visible = 0;
      let time = 0;
      for (let i = 0; i < calls.numRows; i++) {
        const [s, e] = [Number(enter[i]), Number(exit[i])];
        if (s < b && (e > a || (e === s && s >= a))) visible++, (time += Math.min(e, b) - Math.max(s, a));
      }
      expect(rows.reduce((s, r) => s + r.calls, 0)).toBe(visible);
      expect(rows.reduce((s, r) => s + r.busy, 0)).toBe(time);
      // per lane at most B buckets and B + 1 wide calls, lanes x B <= maxRects
      const lanes = new Set(rows.map((r) => `${r.thread_id}/${r.depth}`)).size;
      expect(rows.length).toBeLessThanOrEqual(2 * 2000 + lanes);
      expect(rows.some((r) => r.kind === "call")).toBe(true);
      for (const r of rows) expect(r.end).toBeGreaterThanOrEqual(r.start);
    }
  });

  it("renders: one rectangle per row, lanes named after the threads", async () => {
    const q = callTimelineQuery({ runId: "legacy", widthPx: 600, maxRects: 2000 });
    const rows = await engine.query(q.sql, q.params);
    const rects = callTimelineRects(rows, { methods: trace.methods, threads: trace.threads });
    expect(rects).toHaveLength(rows.numRows);
    expect(rects.some((r) => r.kind === "bucket" && r.occupancy > 0 && r.occupancy <= 1)).toBe(true);
    expect(rects.some((r) => r.thread.startsWith("main"))).toBe(true);
    const { document } = parseHTML("<html><body></body></html>");
    const figure = Plot.plot({ ...callTimelinePlot(rows, { methods: trace.methods, threads: trace.threads }), document }) as unknown as Element;
    expect(figure.querySelectorAll("rect").length).toBeGreaterThanOrEqual(rects.length);
  });
});
