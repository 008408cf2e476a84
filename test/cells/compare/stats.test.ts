// The comparison's statistics against independent truth: brute-force permutation distributions, R's documented
// wilcox.test example, hand-computed Benjamini-Hochberg and Cliff's delta, Student's t table values, and
// fast-check properties (p in [0, 1], U symmetric, BH monotone).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benjaminiHochberg } from "../../../cells/compare/stats/benjamini-hochberg";
import { betweenRunsP, runToRunVariance, widenInterval } from "../../../cells/compare/stats/between-runs";
import { bootstrapBlocks, bootstrapRuns, welchDf } from "../../../cells/compare/stats/bootstrap";
import { cliffsDelta } from "../../../cells/compare/stats/cliffs-delta";
import { exactWCounts, mannWhitney, smallestRankP } from "../../../cells/compare/stats/mann-whitney";
import { normalUpperTail } from "../../../cells/compare/stats/normal";
import { quantileSorted, weightedQuantileSorted } from "../../../cells/compare/stats/quantile";
import { seededRng } from "../../../cells/compare/stats/rng";
import { studentTwoSidedP } from "../../../cells/compare/stats/student-t";
import { fcRuns } from "../../support/fc-runs";

/** Every way to split the pooled values into a first sample of size n: the exact permutation distribution of W. */
function bruteForceP(a: number[], b: number[]): number {
  const all = [...a, ...b];
  const n = a.length;
  const w = (xs: number[], ys: number[]) => {
    let s = 0;
    for (const x of xs) for (const y of ys) s += x > y ? 1 : x === y ? 0.5 : 0;
    return s;
  };
  const observed = w(a, b);
  const ws: number[] = [];
  const pick = (start: number, chosen: number[]) => {
    if (chosen.length === n) {
      const xs = chosen.map((i) => all[i]!);
      const ys = all.filter((_, i) => !chosen.includes(i));
      ws.push(w(xs, ys));
      return;
    }
    for (let i = start; i < all.length; i++) pick(i + 1, [...chosen, i]);
  };
  pick(0, []);
  const mean = (n * b.length) / 2;
  // R's rule: the tail on the observed side of the mean, doubled
  const tail =
    observed > mean ? ws.filter((x) => x >= observed).length : ws.filter((x) => x <= observed).length;
  return Math.min(1, (2 * tail) / ws.length);
}

describe("mannWhitney", () => {
  it("gives R's wilcox.test result on its documented example (Hollander & Wolfe 1973, p. 69)", () => {
    // ?wilcox.test: wilcox.test(x, y, alternative = "g") gives W = 35, p-value = 0.1272; two-sided is twice that
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const r = mannWhitney(x, y);
    expect(r.w).toBe(35);
    expect(r.method).toBe("exact");
    expect(r.p).toBeCloseTo(0.2544, 4);
  });

  it("matches the brute-force permutation distribution for small samples without ties", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 2, maxLength: 9 }),
        fc.integer({ min: 1, max: 8 }),
        (values, cut) => {
          const k = Math.min(cut, values.length - 1);
          const a = values.slice(0, k);
          const b = values.slice(k);
          expect(mannWhitney(a, b).p).toBeCloseTo(bruteForceP(a, b), 10);
        },
      ),
      { numRuns: fcRuns(200), seed: 31 },
    );
  });

  it("counts W's null frequencies as the enumeration does, summing to C(n + m, n)", () => {
    // n = 2, m = 2: the six splits give W = 0, 1, 2, 2, 3, 4
    expect(Array.from(exactWCounts(2, 2))).toEqual([1, 1, 2, 1, 1]);
    const c = exactWCounts(5, 7);
    expect(c.reduce((s, x) => s + x, 0)).toBe(792);
    expect(smallestRankP(5, 5)).toBeCloseTo(2 / 252, 12);
  });

  it("uses the normal approximation with the tie correction of R when there are ties (hand-computed)", () => {
    // a = [1, 2, 2], b = [2, 3]: mid-ranks 1, 3, 3 | 3, 5; W = 7 − 6 = 1; ties: one group of 3 → Σ(t³ − t) = 24
    // σ² = (6/12)(6 − 24/20) = 2.4; z = (1 − 3 + 0.5)/√2.4 = −0.9682; p = 2Φ(−0.9682) = 0.3329
    const r = mannWhitney([1, 2, 2], [2, 3]);
    expect(r.method).toBe("normal");
    expect(r.w).toBe(1);
    expect(r.p).toBeCloseTo(0.3329, 3);
  });

  it("gives p in [0, 1], and the same p with W' = n·m − W when the samples swap", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 30 }),
        (a, b) => {
          const ab = mannWhitney(a, b);
          const ba = mannWhitney(b, a);
          expect(ab.p).toBeGreaterThanOrEqual(0);
          expect(ab.p).toBeLessThanOrEqual(1);
          expect(ab.w + ba.w).toBe(a.length * b.length);
          expect(ab.p).toBeCloseTo(ba.p, 12);
        },
      ),
      { numRuns: fcRuns(200), seed: 32 },
    );
  });
});

describe("benjaminiHochberg", () => {
  it("adjusts a hand-computed example as R's p.adjust(p, 'BH') does", () => {
    // sorted 0.005, 0.01, 0.03, 0.04 (m = 4): 0.04·4/4 = 0.04, 0.03·4/3 = 0.04, 0.01·4/2 = 0.02, 0.005·4 = 0.02
    expect(benjaminiHochberg([0.01, 0.04, 0.03, 0.005])).toEqual([0.02, 0.04, 0.04, 0.02]);
    expect(benjaminiHochberg([0.5, NaN, 0.9])).toEqual([0.9, NaN, 0.9]);
  });

  it("keeps the order of the p-values, never lowers one and never exceeds 1", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }),
        (p) => {
          const q = benjaminiHochberg(p);
          p.forEach((x, i) => {
            expect(q[i]!).toBeGreaterThanOrEqual(x - 1e-15);
            expect(q[i]!).toBeLessThanOrEqual(1);
            p.forEach((y, j) => {
              if (x < y) expect(q[i]!).toBeLessThanOrEqual(q[j]! + 1e-15);
            });
          });
        },
      ),
      { numRuns: fcRuns(200), seed: 33 },
    );
  });
});

describe("cliffsDelta", () => {
  it("counts pairs as the definition does (hand-computed and brute force)", () => {
    // b = [2, 4] against a = [1, 2, 3]: pairs b > a: 2>1, 4>1, 4>2, 4>3 = 4; b < a: 2<3 = 1; of 6 → 3/6
    expect(cliffsDelta([1, 2, 3], [2, 4])).toBeCloseTo(0.5, 12);
    expect(cliffsDelta([0, 0, 1, 1], [1, 1, 1, 0])).toBeCloseTo(0.75 - 0.5, 12); // rates: 0.75 − 0.5
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 25 }),
        (a, b) => {
          let s = 0;
          for (const x of a) for (const y of b) s += Math.sign(y - x);
          expect(cliffsDelta(a, b)).toBeCloseTo(s / (a.length * b.length), 12);
          expect(cliffsDelta(b, a)).toBeCloseTo(-cliffsDelta(a, b), 12);
        },
      ),
      { numRuns: fcRuns(200), seed: 34 },
    );
  });
});

describe("distributions", () => {
  it("gives the normal and Student's t tails of the printed tables", () => {
    expect(normalUpperTail(1.959964)).toBeCloseTo(0.025, 6);
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 7);
    expect(studentTwoSidedP(12.706, 1)).toBeCloseTo(0.05, 4);
    expect(studentTwoSidedP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(1000, 1)).toBeCloseTo(2 / (Math.PI * 1000), 6); // Cauchy tail
  });

  it("weights a quantile as repeating each block's values would", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (units, counts, q) => {
          units.sort((x, y) => x[0] - y[0]);
          const repeated = units.flatMap(([v, g]) => Array<number>(counts[g]!).fill(v));
          const got = weightedQuantileSorted(
            units.map((u) => u[0]),
            units.map((u) => u[1]),
            counts,
            q,
          );
          if (repeated.length === 0) expect(got).toBeNaN();
          else expect(got).toBeCloseTo(quantileSorted(repeated, q), 9);
        },
      ),
      { numRuns: fcRuns(300), seed: 35 },
    );
  });
});

describe("bootstraps", () => {
  const opts = (seed: number) => ({ resamples: 500, level: 0.95, rng: seededRng(seed) });

  it("gives the same answer for the same seed, and an interval around its estimate", () => {
    const a = Float64Array.from([10, 11, 12, 10.5, 11.5]);
    const b = Float64Array.from([20, 22, 21, 19, 23]);
    const x = bootstrapRuns(a, b, "ratio", opts(7));
    expect(bootstrapRuns(a, b, "ratio", opts(7))).toEqual(x);
    expect(x.estimate).toBeCloseTo(21 / 11, 12); // ratio of medians
    expect(x.ci[0]).toBeLessThanOrEqual(x.estimate);
    expect(x.ci[1]).toBeGreaterThanOrEqual(x.estimate);
    expect(x.p).toBeLessThan(0.01);
  });

  it("finds no change between identical sides, and resamples blocks within their runs", () => {
    const side = {
      value: Float64Array.from([1, 2, 3, 4, 5, 6]),
      weight: new Float64Array(6).fill(1),
      block: Int32Array.from([0, 0, 1, 1, 2, 2]),
      blockRun: Int32Array.from([0, 0, 1]),
    };
    const r = bootstrapBlocks(side, side, { kind: "mean" }, "ratio", opts(3));
    expect(r.estimate).toBe(1);
    expect(r.p).toBe(1);
  });
});

describe("welchDf", () => {
  it("is Welch–Satterthwaite's (va + vb)² / (va²/(ka − 1) + vb²/(kb − 1)), by hand", () => {
    // 25 / (16/4 + 1/9) = 225/37
    expect(welchDf(4, 1, [5, 10])).toBeCloseTo(225 / 37, 12);
    // equal variances on k units a side: 2(k − 1), both sides' degrees of freedom
    expect(welchDf(3, 3, [4, 4])).toBeCloseTo(6, 12);
    // a side that does not vary (a healthy run whose group never queues) adds none: the other side's k − 1
    expect(welchDf(0, 2, [9, 3])).toBeCloseTo(2, 12);
    expect(welchDf(2, 0, [3, 9])).toBeCloseTo(2, 12);
  });

  it("lies between the fewer side's degrees of freedom and both sides' together", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        fc.integer({ min: 2, max: 500 }),
        fc.integer({ min: 2, max: 500 }),
        (va, vb, ka, kb) => {
          const df = welchDf(va, vb, [ka, kb]);
          expect(df).toBeGreaterThanOrEqual(Math.min(ka, kb) - 1 - 1e-9);
          expect(df).toBeLessThanOrEqual(ka + kb - 2 + 1e-9);
        },
      ),
      { numRuns: fcRuns(200), seed: 31 },
    );
  });
});

describe("betweenRunsP", () => {
  it("adds the assumed run-to-run variance to the within-run one, by hand", () => {
    // nothing assumed: Student's t, t = 2 on 4 degrees of freedom is p = 0.11612 (t tables)
    expect(betweenRunsP(2, 1, 4, 0).p).toBeCloseTo(0.11612, 4);
    // within-run variance 1 on 4 df, 3 assumed: sd 2, and Satterthwaite's df 4² / (1² / 4) = 64
    const r = betweenRunsP(4, 1, 4, 3);
    expect(r.sd).toBe(2);
    expect(r.df).toBe(64);
    expect(r.p).toBeCloseTo(studentTwoSidedP(2, 64), 12);
    // only the assumed part (buckets all alike): known, so the normal tail, 2(1 − Φ(1)) = 0.31731
    expect(betweenRunsP(1, 0, 5, 1).p).toBeCloseTo(0.31731, 5);
  });

  it("is per run: ln(1 + cv²) for a ratio, rateSd² for a rate, each over both sides' runs", () => {
    expect(runToRunVariance("ratio", [1, 1], 0.4, 0.2)).toBeCloseTo(2 * Math.log(1.16), 12);
    expect(runToRunVariance("difference", [2, 2], 0.4, 0.2)).toBeCloseTo(0.04, 12);
    expect(runToRunVariance("ratio", [3, 1], 0.4, 0.2)).toBeCloseTo((4 / 3) * Math.log(1.16), 12);
  });

  it("widens the interval by the assumed variance in quadrature, on the test's scale, by hand", () => {
    // z = 1.959964 at 95 % (normal tables); an allowance of 3 / z² adds √3 in quadrature to a half-width of 1
    const z2 = 1.959963984540054 ** 2;
    const [lo, hi] = widenInterval(0, [-1, 1], "difference", 3 / z2, 0.95);
    expect(lo).toBeCloseTo(-2, 6);
    expect(hi).toBeCloseTo(2, 6);
    // ratio 2 with interval [1, 4]: half-widths ln 2 on the log scale, widened to 2 ln 2: [0.5, 8]
    const r = widenInterval(Math.log(2), [1, 4], "ratio", (3 * Math.log(2) ** 2) / z2, 0.95);
    expect(r[0]).toBeCloseTo(0.5, 6);
    expect(r[1]).toBeCloseTo(8, 5);
    // uneven half-widths stay uneven: 1 and 3 become √2 and √10 with an allowance of 1 / z²
    const u = widenInterval(0, [-1, 3], "difference", 1 / z2, 0.95);
    expect(u[0]).toBeCloseTo(-Math.SQRT2, 6);
    expect(u[1]).toBeCloseTo(Math.sqrt(10), 6);
    // nothing assumed: the bootstrap's own interval; a bound at 0 of a ratio stays where it is
    expect(widenInterval(0.3, [0.1, 0.5], "difference", 0, 0.95)).toEqual([0.1, 0.5]);
    expect(widenInterval(Math.log(2), [0, 4], "ratio", 1, 0.95)[0]).toBe(0);
  });
});

describe("bootstraps, as properties", () => {
  it("give p in [0, 1] (or NaN when resamples cannot judge) and an ordered interval, for any sides", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }),
        fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }),
        (a, b) => {
          const side = (v: number[]) => ({
            value: Float64Array.from(v),
            weight: new Float64Array(v.length).fill(1),
            block: Int32Array.from(v.keys()),
            blockRun: new Int32Array(v.length),
          });
          for (const r of [
            bootstrapRuns(Float64Array.from(a), Float64Array.from(b), "ratio", {
              resamples: 50,
              level: 0.95,
              rng: seededRng(1),
            }),
            bootstrapBlocks(side(a), side(b), { kind: "quantile", q: 0.9 }, "ratio", {
              resamples: 50,
              level: 0.95,
              rng: seededRng(1),
            }),
          ]) {
            if (!Number.isNaN(r.p)) {
              expect(r.p).toBeGreaterThanOrEqual(0);
              expect(r.p).toBeLessThanOrEqual(1);
            }
            expect(r.ci[0]).toBeLessThanOrEqual(r.ci[1]);
          }
        },
      ),
      { numRuns: fcRuns(100), seed: 36 },
    );
  });
});
