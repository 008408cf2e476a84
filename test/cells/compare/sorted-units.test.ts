// The linear paths for big sides against the plain computations they replace: the anchored quantile of a
// resample against repeating each block's values and taking the type-7 quantile, Cliff's δ by one merge against
// counting every pair, and the per-run and per-block statistics of ascending units against the same units in
// another order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MetricSide } from "../../../cells/compare/compare-metric";
import { perBlock, perRun, sideStatistic } from "../../../cells/compare/side-statistics";
import { quantileSorted } from "../../../cells/compare/stats/quantile";
import { anchoredQuantile, cliffsDeltaSorted } from "../../../cells/compare/stats/sorted-units";
import { fcRuns } from "../../support/fc-runs";

/** Every pair counted: P(B > A) − P(B < A), each value repeated as often as its count says. */
function pairsDelta(a: number[], ca: number[], b: number[], cb: number[]): number {
  let g = 0;
  let l = 0;
  let n = 0;
  let m = 0;
  a.forEach((x, i) => (n += ca[i]!));
  b.forEach((y, j) => (m += cb[j]!));
  a.forEach((x, i) =>
    b.forEach((y, j) => (y > x ? (g += ca[i]! * cb[j]!) : y < x ? (l += ca[i]! * cb[j]!) : 0)),
  );
  return (g - l) / (n * m);
}

describe("anchoredQuantile", () => {
  it("gives the quantile of the values repeated by their block's count (hand-worked)", () => {
    // values 1 2 3 4 5 6 in blocks 0 1 0 1 2 2; counts 2, 0, 1 → 1 1 3 3 5 6, whose p50 is (3 + 3) / 2 = 3
    const f = anchoredQuantile(Float64Array.of(1, 2, 3, 4, 5, 6), Int32Array.of(0, 1, 0, 1, 2, 2), 3, 0.5);
    expect(f(Float64Array.of(2, 0, 1))).toBe(3);
    // counts 0, 3, 0 → 2 2 2 4 4 4: p90 at position 4.5 is 4
    const g = anchoredQuantile(Float64Array.of(1, 2, 3, 4, 5, 6), Int32Array.of(0, 1, 0, 1, 2, 2), 3, 0.9);
    expect(g(Float64Array.of(0, 3, 0))).toBe(4);
    expect(g(Float64Array.of(0, 0, 0))).toBeNaN();
  });

  it("agrees with repeating the values, for any counts and q", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 4 })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 5, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (units, counts, q) => {
          units.sort((x, y) => x[0] - y[0]);
          const repeated = units.flatMap(([v, g]) => Array<number>(counts[g]!).fill(v));
          const f = anchoredQuantile(
            Float64Array.from(units, (u) => u[0]),
            Int32Array.from(units, (u) => u[1]),
            5,
            q,
          );
          const got = f(Float64Array.from(counts));
          if (repeated.length === 0) expect(got).toBeNaN();
          else expect(got).toBe(quantileSorted(repeated, q));
        },
      ),
      { numRuns: fcRuns(300), seed: 41 },
    );
  });
});

describe("cliffsDeltaSorted", () => {
  it("counts pairs as the definition does, with and without counts", () => {
    // A = 1 2 2, B = 2 3: pairs B > A: (2>1) (3>1) (3>2) (3>2) = 4, B < A: none; δ = 4 / 6
    expect(cliffsDeltaSorted([1, 2, 2], [2, 3])).toBeCloseTo(4 / 6, 15);
    // 0/1 outcomes: 8 of 10 zeros against 5 of 10: δ is the difference of the rates, 0.5 − 0.2
    expect(cliffsDeltaSorted([0, 1], [0, 1], [8, 2], [5, 5])).toBeCloseTo(0.3, 15);
    expect(cliffsDeltaSorted([], [1])).toBeNaN();
  });

  it("agrees with counting every pair, for any sorted samples with counts", () => {
    const sample = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 })), {
        minLength: 1,
        maxLength: 25,
      })
      .map((xs) => xs.sort((x, y) => x[0] - y[0]));
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const ca = a.map((x) => x[1]);
        const cb = b.map((x) => x[1]);
        const got = cliffsDeltaSorted(
          a.map((x) => x[0]),
          b.map((x) => x[0]),
          ca,
          cb,
        );
        const want = pairsDelta(
          a.map((x) => x[0]),
          ca,
          b.map((x) => x[0]),
          cb,
        );
        if (Number.isNaN(want)) expect(got).toBeNaN();
        else expect(got).toBeCloseTo(want, 12);
      }),
      { numRuns: fcRuns(300), seed: 42 },
    );
  });
});

describe("per-run and per-block statistics", () => {
  it("give the same values for ascending units as for the same units unsorted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 5 })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (units, q) => {
          // six blocks, the first three in run 0 and the rest in run 1
          const side = (us: [number, number][]): MetricSide => ({
            runs: ["r0", "r1"],
            blockRun: Int32Array.of(0, 0, 0, 1, 1, 1),
            value: Float64Array.from(us, (u) => u[0]),
            weight: new Float64Array(us.length).fill(1),
            block: Int32Array.from(us, (u) => u[1]),
          });
          const plain = side(units);
          const sorted = side([...units].sort((x, y) => x[0] - y[0]));
          const stat = { kind: "quantile", q } as const;
          expect(sideStatistic(sorted, stat)).toBe(sideStatistic(plain, stat));
          expect(Array.from(perRun(sorted, stat))).toEqual(Array.from(perRun(plain, stat)));
          const byValue = (x: Float64Array) => Array.from(x).sort((s, t) => s - t);
          expect(byValue(perBlock(sorted, stat))).toEqual(byValue(perBlock(plain, stat)));
          // by hand for the run: its values' type-7 quantile
          const run0 = units
            .filter((u) => u[1] < 3)
            .map((u) => u[0])
            .sort((s, t) => s - t);
          const r0 = perRun(plain, stat)[0]!;
          if (run0.length) expect(r0).toBe(quantileSorted(run0, q));
          else expect(r0).toBeNaN();
        },
      ),
      { numRuns: fcRuns(200), seed: 43 },
    );
  });
});
