import fc from "fast-check";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { attributeCounters } from "../../../cells/androscope/counter-attribution";
import { arbitraryCalls, callsTable, flatten, type CallSpec } from "./call-table";

interface Sample {
  ts: number;
  counter: string;
  value: number;
  cpu?: number;
}
const hpcTable = (samples: Sample[]): Table =>
  makeBundleTable("hpc_samples", "test", {
    ts: samples.map((s) => s.ts),
    cpu: samples.map((s) => s.cpu ?? null),
    counter: samples.map((s) => s.counter),
    value: Float64Array.from(samples.map((s) => s.value)),
  });

/**
 * Brute force on a 1 ns grid: in each interval, every (thread, ns) with a running call belongs to that
 * thread's innermost call; each such ns gets value / max(interval length, such ns in the interval).
 */
function reference(
  threads: Record<number, CallSpec[]>,
  samples: Sample[],
  window: [number, number] | null,
  intervalNs?: number,
  cpuFactor?: number,
) {
  const calls = flatten(threads);
  // a call's weight: its thread-CPU own time over its wall own time, as the table stores them
  const inc = calls.map((c) => c.exit - c.enter);
  const exc = calls.map(
    (c, i) => inc[i]! - calls.reduce((sum, d, j) => sum + (d.parent === i ? inc[j]! : 0), 0),
  );
  const weight = exc.map((e) =>
    cpuFactor === undefined || e === 0 ? 1 : Math.min(1, Math.round(e * cpuFactor) / e),
  );
  const out = new Map<string, number[]>();
  const series = new Map<string, Sample[]>();
  for (const s of samples)
    series.set(`${s.counter}/${s.cpu ?? -1}`, [...(series.get(`${s.counter}/${s.cpu ?? -1}`) ?? []), s]);
  for (const list of series.values()) {
    list.sort((a, b) => a.ts - b.ts);
    const first = intervalNs ?? (list.length > 1 ? list[1]!.ts - list[0]!.ts : NaN);
    if (!(first > 0)) continue;
    const acc = out.get(list[0]!.counter) ?? calls.map(() => 0);
    out.set(list[0]!.counter, acc);
    list.forEach((s, k) => {
      const from = k === 0 || intervalNs !== undefined ? s.ts - first : list[k - 1]!.ts;
      const lo = window ? Math.max(from, window[0]) : from;
      const hi = window ? Math.min(s.ts, window[1]) : s.ts;
      if (hi <= lo || s.ts <= from) return;
      const value = (s.value * (hi - lo)) / (s.ts - from);
      const owners: number[] = [];
      let covered = 0;
      for (let t = lo; t < hi; t++)
        for (const thread of Object.keys(threads).map(Number)) {
          let best = -1;
          calls.forEach((c, i) => {
            if (
              c.thread === thread &&
              c.enter <= t &&
              c.exit >= t + 1 &&
              (best < 0 || c.depth > calls[best]!.depth)
            )
              best = i;
          });
          if (best >= 0) (owners.push(best), (covered += weight[best]!));
        }
      for (const i of owners) acc[i] = acc[i]! + (value * weight[i]!) / Math.max(hi - lo, covered);
    });
  }
  return out;
}

describe("attributeCounters", () => {
  // thread 1: A 0..100 { B 20..60 }
  const one: Record<number, CallSpec[]> = { 1: [[1, 0, 100, [[2, 20, 60]]]] };
  const cycles = [
    { ts: 50, counter: "cpu-cycles", value: 1000 },
    { ts: 100, counter: "cpu-cycles", value: 500 },
  ];

  it("splits each interval by the calls' own time in it, worked by hand", () => {
    const r = attributeCounters(callsTable(one), hpcTable(cycles));
    // (0, 50]: A's own 0..20 and B 20..50 -> 400 / 600; (50, 100]: B 50..60 and A 60..100 -> 100 / 400
    expect([...r.exclusive["cpu-cycles"]!]).toEqual([800, 700]);
    expect([...r.inclusive["cpu-cycles"]!]).toEqual([1500, 700]);
    expect(r.totals["cpu-cycles"]).toEqual({ counted: 1500, attributed: 1500 });
  });

  it("shares an interval between threads running in parallel, and leaves untraced time unattributed", () => {
    const two = { ...one, 2: [[3, 0, 100]] as CallSpec[] };
    const r = attributeCounters(callsTable(two), hpcTable(cycles));
    expect([...r.exclusive["cpu-cycles"]!]).toEqual([400, 350, 750]);
    const idle = attributeCounters(callsTable({ 1: [[1, 0, 25]] }), hpcTable(cycles));
    // 25 of the first interval's 50 ns ran traced code: half its count; nothing ran in the second
    expect(idle.exclusive["cpu-cycles"]![0]).toBe(500);
    expect(idle.totals["cpu-cycles"]).toEqual({ counted: 1500, attributed: 500 });
  });

  it("cuts intervals to a window, scaling their counts; shifts sample times onto the calls' clock", () => {
    const r = attributeCounters(callsTable(one), hpcTable(cycles), { window: [40, 70] });
    // (0, 50] cut to 40..50: 1000 * 10/50 = 200, all B; (50, 100] cut to 50..70: 500 * 20/50 = 200, B 10 and A 10
    expect([...r.exclusive["cpu-cycles"]!]).toEqual([100, 300]);
    expect(r.totals["cpu-cycles"]!.counted).toBe(400);
    const shifted = attributeCounters(
      callsTable(one),
      hpcTable(cycles.map((s) => ({ ...s, ts: s.ts + 1000 }))),
      { timeShiftNs: -1000 },
    );
    expect([...shifted.exclusive["cpu-cycles"]!]).toEqual([800, 700]);
  });

  it("weights own time by its thread-CPU share: a thread blocked in a call takes almost nothing", () => {
    // thread 1 blocked in P 0..50 (1 ns of CPU), thread 2 running Q 0..50
    const calls = makeBundleTable("calls", "t", {
      call_id: [0, 1],
      thread_id: [1, 2],
      method_id: [1, 2],
      depth: [0, 0],
      parent: [null, null],
      enter: [0, 0],
      exit: [50, 50],
      inclusive: [50, 50],
      exclusive: [50, 50],
      cpu_inclusive: [1, 50],
      cpu_exclusive: [1, 50],
      synthetic_exit: [false, false],
    });
    const r = attributeCounters(calls, hpcTable([{ ts: 50, counter: "cpu-cycles", value: 1020 }]), {
      intervalNs: 50,
    });
    expect([...r.exclusive["cpu-cycles"]!].map((v) => +v.toFixed(9))).toEqual([20, 1000]);
    const flat = attributeCounters(calls, hpcTable([{ ts: 50, counter: "cpu-cycles", value: 1020 }]), {
      intervalNs: 50,
      cpuWeighted: false,
    });
    expect([...flat.exclusive["cpu-cycles"]!]).toEqual([510, 510]);
  });

  it("warns about a series it cannot give an interval to, and names a missing column", () => {
    const r = attributeCounters(callsTable(one), hpcTable([{ ts: 50, counter: "instructions", value: 9 }]));
    expect(r.warnings).toEqual([
      "hpc_samples: instructions has one sample and no interval length: not attributed (pass intervalNs)",
    ]);
    expect(
      attributeCounters(callsTable(one), hpcTable([{ ts: 50, counter: "instructions", value: 9 }]), {
        intervalNs: 50,
      }).exclusive.instructions![0],
    ).toBeCloseTo((9 * 20) / 50, 9);
    expect(() => attributeCounters(callsTable(one), callsTable(one))).toThrow(
      /missing column ts \(int64\) in hpc_samples/,
    );
    expect(() => attributeCounters(callsTable(one), hpcTable(cycles), { window: [5, 1] })).toThrow(
      /invalid window/,
    );
  });

  it("matches the 1 ns brute force on random calls, per-core series and windows; inclusive adds callees", () => {
    const samples = fc.array(
      fc.record({
        ts: fc.integer({ min: 1, max: 60 }),
        counter: fc.constantFrom("cpu-cycles", "instructions"),
        value: fc.integer({ min: 0, max: 1000 }),
        cpu: fc.constantFrom(0, 1),
      }),
      { minLength: 2, maxLength: 12 },
    );
    const windowArb = fc.option(
      fc
        .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }))
        .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number]),
    );
    fc.assert(
      fc.property(
        arbitraryCalls({ threads: 2, span: 60 }),
        samples,
        windowArb,
        fc.option(fc.integer({ min: 1, max: 20 })),
        fc.option(fc.double({ min: 0, max: 1.2, noNaN: true })),
        (threads, raw, window, interval, factor) => {
          // one sample per (counter, core, ts)
          const unique = [...new Map(raw.map((s) => [`${s.counter}/${s.cpu}/${s.ts}`, s])).values()];
          const calls = callsTable(threads, "test", factor ?? undefined);
          const got = attributeCounters(calls, hpcTable(unique), {
            window,
            intervalNs: interval ?? undefined,
          });
          const want = reference(threads, unique, window, interval ?? undefined, factor ?? undefined);
          expect(Object.keys(got.exclusive).sort()).toEqual([...want.keys()].sort());
          for (const [name, values] of want) {
            [...got.exclusive[name]!].forEach((v, i) => expect(v).toBeCloseTo(values[i]!, 6));
            expect(got.totals[name]!.attributed).toBeLessThanOrEqual(got.totals[name]!.counted + 1e-6);
            const flat = flatten(threads);
            const inc = got.inclusive[name]!;
            flat.forEach((_, i) => {
              const kids = flat.map((c, j) => (c.parent === i ? inc[j]! : 0)).reduce((a, b) => a + b, 0);
              expect(inc[i]).toBeCloseTo(got.exclusive[name]![i]! + kids, 6);
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
