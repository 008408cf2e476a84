import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import { partitionSegments, type SegmentInput } from "../../../cells/androscope/segment-partition";
import { callSegments, callSegmentsPlot, type CallSegments } from "../../../cells/androscope/segments";
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { themePlot } from "../../../charts/chart-theme";
import { chartOptions, plotWithoutWarnings } from "../../golden-svg";
import { readMethodTrace, type TraceClock } from "../../../collectors/sources/method-trace";
import { writeMethodTrace, type TraceRecordSpec } from "../../../collectors/sources/method-trace-writer";

const { document } = parseHTML("<!doctype html><html><body></body></html>");

interface Seg {
  start: number;
  end: number;
  thread: number;
  cpu?: number;
}
const input = (segs: Seg[]): SegmentInput => ({
  start: Float64Array.from(segs, (s) => s.start),
  end: Float64Array.from(segs, (s) => s.end),
  thread: Int32Array.from(segs, (s) => s.thread),
  cpu: Int32Array.from(segs, (s) => s.cpu ?? 0),
});
/** A segment of `thread` on `cpu` (default 0) from start to end. */
const seg = (thread: number, start: number, end: number, cpu?: number): Seg => ({ start, end, thread, cpu });
/** The partition as plain values: pieces [segment, start, end] in time order, time run per segment, overlaps. */
const partitionOf = (segs: Seg[]) => {
  const p = partitionSegments(input(segs));
  return {
    pieces: Array.from(p.piece.segment, (s, i) => [s, p.piece.start[i], p.piece.end[i]]),
    running: [...p.running],
    full: p.full,
    partial: p.partial,
  };
};

describe("partitionSegments: AndroScope Fig. 12", () => {
  it("(b) full overlap: thread 2's segment inside thread 1's is removed from it", () => {
    // Thread 1 runs [0, 10]; thread 2 runs [3, 6] inside it: thread 1 was switched out for [3, 6].
    expect(partitionOf([seg(1, 0, 10), seg(2, 3, 6)])).toEqual({
      pieces: [
        [0, 0, 3],
        [1, 3, 6],
        [0, 6, 10],
      ],
      running: [7, 3],
      full: 1,
      partial: 0,
    });
  });

  it("(c) partial overlap: thread 2 first, thread 1 starts before it ends: split at the middle of [4, 6]", () => {
    // Thread 2 [0, 6], thread 1 [4, 10]: the switch is put half-way between thread 1's start and thread 2's end,
    // whichever order they are listed in.
    const split = { running: [5, 5], full: 0, partial: 1 };
    expect(partitionOf([seg(2, 0, 6), seg(1, 4, 10)])).toEqual({
      pieces: [
        [0, 0, 5],
        [1, 5, 10],
      ],
      ...split,
    });
    expect(partitionOf([seg(1, 4, 10), seg(2, 0, 6)])).toMatchObject(split);
  });

  it("segments on different CPUs, or of one thread, do not compete", () => {
    expect(partitionOf([seg(1, 0, 10, 0), seg(2, 3, 6, 1)]).running).toEqual([10, 3]);
    expect(partitionOf([seg(1, 0, 4), seg(1, 4, 9)]).running).toEqual([4, 5]);
    // touching is not overlapping
    expect(partitionOf([seg(1, 0, 4), seg(2, 4, 9)])).toMatchObject({ running: [4, 5], full: 0, partial: 0 });
  });

  it("three threads, nested and chained, worked by hand", () => {
    // S [0,10], T [5,20] (partial with S: m = 7.5), U [6,8] inside both: U runs [6,8], S [0,6], T [8,20].
    expect(partitionOf([seg(1, 0, 10), seg(2, 5, 20), seg(3, 6, 8)])).toMatchObject({
      running: [6, 12, 2],
      pieces: [
        [0, 0, 6],
        [2, 6, 8],
        [1, 8, 20],
      ],
    });
  });

  it("any two segments: the paper's formulas", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(50), fc.integer({ min: 1, max: 50 }), fc.nat(50), fc.integer({ min: 1, max: 50 })),
        ([a, la, b, lb]) => {
          const [x, y] =
            a < b || (a === b && la >= lb)
              ? [
                  { s: a, e: a + la },
                  { s: b, e: b + lb },
                ]
              : [
                  { s: b, e: b + lb },
                  { s: a, e: a + la },
                ];
          const p = partitionSegments(
            input([
              { start: x.s, end: x.e, thread: 1 },
              { start: y.s, end: y.e, thread: 2 },
            ]),
          );
          const [rx, ry] = [p.running[0]!, p.running[1]!];
          if (y.s >= x.e)
            expect([rx, ry]).toEqual([x.e - x.s, y.e - y.s]); // apart
          else if (y.e <= x.e)
            expect([rx, ry]).toEqual([x.e - x.s - (y.e - y.s), y.e - y.s]); // full: removed from x
          else {
            const m = (y.s + x.e) / 2; // partial: half-way between y's start and x's end
            expect([rx, ry]).toEqual([m - x.s, y.e - m]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** Reference: the same rule computed by brute force, every pair then every elementary interval. */
function bruteForce(segs: Seg[]): number[] {
  const n = segs.length;
  const before = (a: number, b: number) => {
    const [x, y] = [segs[a]!, segs[b]!];
    return x.start - y.start || y.end - x.end || x.thread - y.thread || a - b;
  };
  const ts = segs.map((s) => s.start);
  const te = segs.map((s) => s.end);
  const firstPartner = new Array<number>(n).fill(Infinity);
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      const [x, y] = [segs[a]!, segs[b]!];
      if (a === b || x.thread === y.thread || (x.cpu ?? 0) !== (y.cpu ?? 0) || before(a, b) > 0) continue;
      if (x.end <= x.start || y.end <= y.start || y.start >= x.end || y.end <= x.end) continue;
      const m = (y.start + x.end) / 2;
      firstPartner[a] = Math.min(firstPartner[a]!, m);
      ts[b] = Math.max(ts[b]!, m);
    }
  for (let a = 0; a < n; a++) te[a] = Math.min(te[a]!, firstPartner[a]!);
  const points = [...new Set([...ts, ...te])].sort((a, b) => a - b);
  const running = new Array<number>(n).fill(0);
  for (let k = 0; k + 1 < points.length; k++) {
    const mid = (points[k]! + points[k + 1]!) / 2;
    const winners = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      if (!(ts[i]! <= mid && mid < te[i]!)) continue;
      const cpu = segs[i]!.cpu ?? 0;
      const w = winners.get(cpu);
      if (w === undefined || before(w, i) < 0) winners.set(cpu, i);
    }
    for (const w of winners.values()) running[w]! += points[k + 1]! - points[k]!;
  }
  return running;
}

/** Random threads, each a run of consecutive segments with gaps, on 1-2 CPUs. */
const segmentsArb = fc
  .array(
    fc.record({
      thread: fc.integer({ min: 1, max: 4 }),
      cuts: fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.nat(1)), {
        minLength: 1,
        maxLength: 6,
      }),
      from: fc.nat(20),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((threads) => {
    const segs: Seg[] = [];
    const seen = new Set<number>();
    for (const t of threads) {
      if (seen.has(t.thread)) continue;
      seen.add(t.thread);
      let at = t.from;
      for (const [len, gap, cpu] of t.cuts) {
        if (!gap) segs.push({ start: at, end: at + len, thread: t.thread, cpu });
        at += len;
      }
    }
    return segs;
  });

const measureOfUnion = (xs: [number, number][]) => {
  const s = xs.filter(([a, b]) => b > a).sort((p, q) => p[0] - q[0]);
  let total = 0;
  let [lo, hi] = [-Infinity, -Infinity];
  for (const [a, b] of s) {
    if (a > hi) ((total += hi - lo > 0 ? hi - lo : 0), ([lo, hi] = [a, b]));
    else hi = Math.max(hi, b);
  }
  return total + (hi - lo > 0 && Number.isFinite(lo) ? hi - lo : 0);
};

describe("partitionSegments against a brute force (fast-check)", () => {
  it("the same running time per segment; CPU time is conserved; pieces never overlap on a CPU", () => {
    fc.assert(
      fc.property(segmentsArb, (segs) => {
        const p = partitionSegments(input(segs));
        const ref = bruteForce(segs);
        ref.forEach((r, i) => expect(p.running[i]).toBeCloseTo(r, 9));
        for (const cpu of [0, 1]) {
          const mine = segs.map((s, i) => [s, i] as const).filter(([s]) => (s.cpu ?? 0) === cpu);
          const union = measureOfUnion(mine.map(([s]) => [s.start, s.end]));
          expect(mine.reduce((sum, [, i]) => sum + p.running[i]!, 0)).toBeCloseTo(union, 9);
          const ps = Array.from(p.piece.segment, (s, k) => ({
            s,
            a: p.piece.start[k]!,
            b: p.piece.end[k]!,
          })).filter((x) => (segs[x.s]!.cpu ?? 0) === cpu);
          ps.sort((x, y) => x.a - y.a);
          for (let k = 1; k < ps.length; k++) expect(ps[k]!.a).toBeGreaterThanOrEqual(ps[k - 1]!.b);
          for (const x of ps)
            expect(x.a >= segs[x.s]!.start && x.b <= segs[x.s]!.end && x.b > x.a).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});

// Traces: thread 1 and 2 with calls timed in µs; method ids 0x10.. per letter.
const threads = [
  { id: 1, name: "main" },
  { id: 2, name: "worker" },
  { id: 3, name: "pool" },
];
const methods = ["A", "A1", "B", "C"].map((m, i) => ({
  id: 0x10 + 4 * i,
  className: "x.Y",
  methodName: m,
  signature: "()V",
}));
const id = (m: string) => methods.find((x) => x.methodName === m)!.id;
const rec = (threadId: number, m: string, action: number, wallUs: number, cpu = 0): TraceRecordSpec => ({
  threadId,
  methodId: id(m),
  action,
  wallUs,
  threadCpuUs: wallUs,
  cpu,
});
const traceOf = (records: TraceRecordSpec[], extended = false, clock: TraceClock = "dual") =>
  readMethodTrace(
    writeMethodTrace({
      dataVersion: 3,
      clock,
      threads,
      methods,
      records,
      ...(extended ? { extended: {} } : {}),
    }),
  );
const byMethod = (records: TraceRecordSpec[], extended = false) => {
  const t = traceOf(records, extended);
  const calls = buildCalls(t);
  const s = callSegments(calls, t.events);
  const m = calls.getChild("method_id")!.toArray() as BigInt64Array;
  const out: Record<string, [number, number]> = {};
  m.forEach(
    (v, row) =>
      (out[methods.find((x) => x.id === Number(v))!.methodName] = [
        s.runningInclusive[row]! / 1000,
        s.runningExclusive[row]! / 1000,
      ]),
  );
  return { out, s };
};

describe("callSegments on call records", () => {
  it("Fig. 12(b) as calls: B on thread 2 inside A on thread 1; A1 nested in A loses the overlap", () => {
    const { out, s } = byMethod([
      rec(1, "A", 0, 0),
      rec(1, "A1", 0, 2),
      rec(2, "B", 0, 4),
      rec(2, "B", 1, 6),
      rec(1, "A1", 1, 8),
      rec(1, "A", 1, 10),
    ]);
    // A's own segments [0,2] and [8,10]; A1 [2,8] minus B's [4,6]: A ran 8 of its 10 µs.
    expect(out).toEqual({ A: [8, 4], A1: [4, 4], B: [2, 2] });
    expect(s.counts).toEqual({ segments: 4, fullOverlaps: 1, partialOverlaps: 0, migrations: 0 }); // B inside A1
    expect(s.cpus).toBe("single");
  });

  it("Fig. 12(c) as calls: B on thread 2 from 0 to 6, A on thread 1 from 4 to 10", () => {
    const { out } = byMethod([rec(2, "B", 0, 0), rec(1, "A", 0, 4), rec(2, "B", 1, 6), rec(1, "A", 1, 10)]);
    expect(out).toEqual({ A: [5, 5], B: [5, 5] });
  });

  it("CPU ids from extended records: overlap on different CPUs is parallelism, not a switch", () => {
    const { out, s } = byMethod(
      [rec(1, "A", 0, 0, 0), rec(2, "B", 0, 3, 1), rec(2, "B", 1, 6, 1), rec(1, "A", 1, 10, 0)],
      true,
    );
    expect(out).toEqual({ A: [10, 10], B: [3, 3] });
    expect(s.cpus).toBe("records");
  });

  it("a thread that migrated is split at the middle between its two CPUs (§V-3's half-length rule)", () => {
    // A: enter on CPU 0 at 0, exit on CPU 1 at 10 -> [0,5] on CPU 0, [5,10] on CPU 1; C [1,3] on CPU 0 and
    // B [6,8] on CPU 1 are each inside one half: A ran 10 - 2 - 2 µs.
    const { out, s } = byMethod(
      [
        rec(1, "A", 0, 0, 0),
        rec(3, "C", 0, 1, 0),
        rec(3, "C", 1, 3, 0),
        rec(2, "B", 0, 6, 1),
        rec(2, "B", 1, 8, 1),
        rec(1, "A", 1, 10, 1),
      ],
      true,
    );
    expect(out).toEqual({ A: [6, 6], B: [2, 2], C: [2, 2] });
    expect(s.counts.migrations).toBe(1);
    expect(Array.from(s.pieces.cpu)).toEqual([0, 0, 0, 1, 1, 1]);
    // One bar per piece, coloured by the CPU it ran on, with a legend since CPU ids came from the records.
    const chart = callSegmentsPlot(s);
    expect((chart.data as { cpu: string }[]).map((d) => d.cpu)).toEqual(["0", "0", "0", "1", "1", "1"]);
    expect([chart.mark, chart.fill, (chart.layout.color as { legend: boolean }).legend]).toEqual([
      "barX",
      "cpu",
      true,
    ]);
  });

  it("draws its chart without a Plot warning, CPUs as categories in numeric order (cpu 10 after cpu 2)", () => {
    // Thread and CPU ids are strings of digits: Plot warned "strings that appear to be numbers" on both scales.
    const n = 4;
    const s = {
      cpus: "records",
      pieces: {
        call: Int32Array.from({ length: n }, (_, i) => i),
        thread: Int32Array.from([7, 7, 12, 12]),
        cpu: Int32Array.from([10, 2, 1, 2]),
        start: Float64Array.from([0, 1e6, 2e6, 3e6]),
        end: Float64Array.from([1e6, 2e6, 3e6, 4e6]),
      },
    } as unknown as CallSegments;
    const chart = callSegmentsPlot(s);
    expect(chart.layout.color).toMatchObject({ type: "categorical", domain: ["1", "2", "10"] });
    const figure = plotWithoutWarnings({ ...themePlot(chartOptions(chart)), document } as Plot.PlotOptions);
    expect((figure as unknown as Plot.Plot).scale("color")!.domain).toEqual(["1", "2", "10"]);
  });

  it("refuses a thread-cpu trace and cpus records without CPU ids", () => {
    const t = traceOf([rec(1, "A", 0, 0), rec(1, "A", 1, 5)], false, "thread-cpu");
    expect(() => callSegments(buildCalls(t), t.events)).toThrow(/no wall times \(a thread-cpu trace\)/);
    const d = traceOf([rec(1, "A", 0, 0), rec(1, "A", 1, 5)]);
    expect(() => callSegments(buildCalls(d), d.events, { cpus: "records" })).toThrow(
      /needs method_events.cpu/,
    );
  });

  it("random call trees: one thread alone is never switched out; all threads on one CPU share its time", () => {
    const walk = fc.array(
      fc.tuple(
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
      ),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(walk, (steps) => {
        const stacks = new Map<number, string[]>();
        const records: TraceRecordSpec[] = [];
        let now = 0;
        const spans = new Map<number, [number, number]>();
        for (const [th, enter, m, dt] of steps) {
          now += dt;
          const st = stacks.get(th) ?? [];
          stacks.set(th, st);
          if (enter || st.length === 0)
            (st.push(methods[m]!.methodName), records.push(rec(th, methods[m]!.methodName, 0, now)));
          else records.push(rec(th, st.pop()!, 1, now));
          const span = spans.get(th);
          spans.set(th, [span?.[0] ?? now, now]);
        }
        const t = traceOf(records);
        const calls = buildCalls(t);
        const s = callSegments(calls, t.events);
        const inclusive = calls.getChild("inclusive")!.toArray() as BigInt64Array;
        const depth = calls.getChild("depth")!.toArray() as Int32Array;
        let outer = 0;
        for (let r = 0; r < calls.numRows; r++) {
          expect(s.runningInclusive[r]!).toBeLessThanOrEqual(Number(inclusive[r]) + 1e-6);
          if (depth[r] === 0) outer += s.runningInclusive[r]!;
          if (spans.size === 1) expect(s.runningInclusive[r]).toBeCloseTo(Number(inclusive[r]), 6);
        }
        // Outermost calls of one thread follow each other: together the threads get the union of their spans.
        const enter = calls.getChild("enter")!.toArray() as BigInt64Array;
        const exit = calls.getChild("exit")!.toArray() as BigInt64Array;
        const outerSpans: [number, number][] = [];
        for (let r = 0; r < calls.numRows; r++)
          if (depth[r] === 0) outerSpans.push([Number(enter[r]), Number(exit[r])]);
        expect(outer).toBeCloseTo(measureOfUnion(outerSpans), 6);
      }),
      { numRuns: 200 },
    );
  });
});
