import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iqrFlags, iqrFlagsPlot, quartiles } from "../../../cells/dune/iqr";

// Numbers from Weka 3.6.14 itself (Debian package `weka`), printed by our probe bench/weka/IqrProbe.java:
//   apt-get install -y weka
//   javac -cp /usr/share/java/weka.jar -d /tmp/wekaprobe bench/weka/IqrProbe.java
//   java -cp /usr/share/java/weka.jar:/tmp/wekaprobe IqrProbe 448 453 450 457 430 270
//   → q1=430.0 q3=453.0 median=451.5 outlier=no,no,no,no,no,no extreme=no,no,no,no,no,yes wekaDefaults=3.0/6.0
// (the probe runs weka.filters.unsupervised.attribute.InterquartileRange with OF = 0, so its outlier
// thresholds are Q1 and Q3, and again with OF = 1.5, EF = 3 for the per-value Outlier/ExtremeValue output).
// Weka on n = 1 (`IqrProbe 7`) and n = 2 (`IqrProbe 7 9`) throws ArrayIndexOutOfBoundsException, and on a
// missing value (`IqrProbe 448 453 ? 450`) NoSupportForMissingValuesException.
const wekaCases: [number[], number, number][] = [
  [[448, 453, 450, 457, 430, 270], 430, 453],
  [[1, 2, 3, 4, 5], 2.5, 4.5],
  [[1, 2, 3, 4], 2.5, 3.5],
  [[1, 2, 3, 4, 5, 6, 7], 2, 6],
  [[1, 2, 3, 4, 5, 6, 7, 8], 3.5, 6.5],
  [[5, 1, 4, 2, 3, 9, 7, 8, 6, 10, 11], 3, 9],
  [[3, 3, 3, 3], 3, 3],
  [[1, 1, 2, 2, 2, 9], 1, 2],
  [[1, 2, 3], 1, 3],
  [[10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000], 30, 90],
  [[0, 10, 10, 20, 20, 35], 10, 20],
  [[2, 2, 2, 2, 2, 50], 2, 2],
];

// Per-value Outlier (OF = 1.5) from the same probe runs; Weka's Outlier excludes extreme values (EF = 3),
// so those cases are compared as "beyond the outlier fence" = Outlier or ExtremeValue.
//   IqrProbe 0 10 10 20 20 35     → outlier=no,no,no,no,no,no   (35 is exactly on Q3 + 1.5·IQR: strict)
//   IqrProbe 0 10 10 20 20 35.5   → outlier=no,no,no,no,no,yes
//   IqrProbe -5 10 10 20 20 30    → outlier=no,no,no,no,no,no   (-5 on the lower fence)
//   IqrProbe -5.5 10 10 20 20 30  → outlier=yes,no,no,no,no,no
//   IqrProbe 10 20 30 40 50 60 70 80 90 100 200  → outlier=...,yes (last only)
//   IqrProbe 10 20 30 40 50 60 70 80 90 100 1000 → extreme=...,yes (last only)
const wekaFlagCases: [number[], number[]][] = [
  [
    [0, 10, 10, 20, 20, 35],
    [0, 0, 0, 0, 0, 0],
  ],
  [
    [0, 10, 10, 20, 20, 35.5],
    [0, 0, 0, 0, 0, 1],
  ],
  [
    [-5, 10, 10, 20, 20, 30],
    [0, 0, 0, 0, 0, 0],
  ],
  [
    [-5.5, 10, 10, 20, 20, 30],
    [-1, 0, 0, 0, 0, 0],
  ],
  [
    [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  ],
  [
    [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  ],
  [
    [448, 453, 450, 457, 430, 270],
    [0, 0, 0, 0, 0, -1],
  ],
];

describe("quartiles hf6 (default)", () => {
  it("reproduces the paper's worked example (§5.3.3): Q1 = 390, Q3 = 454", () => {
    expect(quartiles([448, 453, 450, 457, 430, 270])).toEqual({ q1: 390, q3: 454 });
  });
  it.each([
    [[1, 2, 3, 4], 1.25, 3.75],
    [[1, 2, 3, 4, 5], 1.5, 4.5],
    [[1, 2, 3, 4, 5, 6, 7], 2, 6],
  ])("(n+1)p interpolation on %j", (xs, q1, q3) => {
    expect(quartiles(xs)).toEqual({ q1, q3 });
  });
  it("is order-independent, lies within [min, max] and q1 <= q3 (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 40 }),
        fc.constantFrom("hf6" as const, "weka" as const),
        (xs, m) => {
          const { q1, q3 } = quartiles(xs, m);
          const rev = quartiles([...xs].reverse(), m);
          expect(rev).toEqual({ q1, q3 });
          expect(q1).toBeLessThanOrEqual(q3);
          expect(q1).toBeGreaterThanOrEqual(Math.min(...xs));
          expect(q3).toBeLessThanOrEqual(Math.max(...xs));
        },
      ),
    );
  });
  it("hf6 matches the definition computed independently (1-based (n+1)p, clamped)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 30 }), (xs) => {
        const s = [...xs].sort((a, b) => a - b);
        const ref = (p: number) => {
          const h = Math.min(Math.max((s.length + 1) * p, 1), s.length);
          const j = Math.floor(h);
          return j >= s.length ? s[s.length - 1]! : s[j - 1]! + (h - j) * (s[j]! - s[j - 1]!);
        };
        const { q1, q3 } = quartiles(xs);
        expect(q1).toBeCloseTo(ref(0.25), 9);
        expect(q3).toBeCloseTo(ref(0.75), 9);
      }),
    );
  });
});

describe("quartiles weka (Weka 3.6 InterquartileRange)", () => {
  it.each(wekaCases)("%j → Q1 %d, Q3 %d as Weka computed", (xs, q1, q3) => {
    expect(quartiles(xs, "weka")).toEqual({ q1, q3 });
  });
  it.each(wekaFlagCases)("flags %j like Weka's Outlier/ExtremeValue at OF = 1.5", (xs, flags) => {
    expect(Array.from(iqrFlags(xs, { method: "weka" }).flags)).toEqual(flags);
  });
  it("matches Weka's computeThresholds formula on a full sort, ties included (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 3, maxLength: 60 }), (xs) => {
        const s = [...xs].sort((a, b) => a - b);
        const half = Math.floor(s.length / 2);
        const quarter = Math.floor(half / 2);
        const n = s.length;
        const ref =
          half % 2 === 1
            ? { q1: s[quarter]!, q3: s[n - quarter - 1]! }
            : { q1: (s[quarter]! + s[quarter + 1]!) / 2, q3: (s[n - quarter - 1]! + s[n - quarter]!) / 2 };
        expect(quartiles(xs, "weka")).toEqual(ref);
      }),
    );
  });
  it("rejects an unknown method by name", () => {
    expect(() => quartiles([1, 2], "r7" as never)).toThrow("invalid quartile method: r7");
  });
});

describe("iqrFlags", () => {
  it("flags 270 as Outlier- in the paper's example (270 < 390 − 1.5·64)", () => {
    const r = iqrFlags([448, 453, 450, 457, 430, 270]);
    expect(r).toMatchObject({ q1: 390, q3: 454, iqr: 64, lowerFence: 294, upperFence: 550, missing: 0 });
    expect(Array.from(r.flags)).toEqual([0, 0, 0, 0, 0, -1]);
    expect(r.extreme).toBeUndefined();
  });
  it("extreme flags only beyond the extreme fences", () => {
    const r = iqrFlags([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 1000], { extremeFactor: 3 });
    // hf6: Q1 = 32.5, Q3 = 97.5, IQR = 65: outlier fence 195, extreme fence 292.5
    expect(r.q1).toBe(32.5);
    expect(r.q3).toBe(97.5);
    expect(Array.from(r.flags).slice(-2)).toEqual([1, 1]);
    expect(Array.from(r.extreme!).slice(-2)).toEqual([0, 1]);
  });
  it("a lower outlier factor flags sooner", () => {
    const xs = [10, 11, 12, 13, 14, 18];
    expect(iqrFlags(xs).flags[5]).toBe(0);
    expect(iqrFlags(xs, { outlierFactor: 0.5 }).flags[5]).toBe(1);
  });
  it("excludes and counts NaN values, never flags them", () => {
    const r = iqrFlags([448, NaN, 453, 450, 457, 430, NaN, 270]);
    expect(r).toMatchObject({ q1: 390, q3: 454, missing: 2 });
    expect(Array.from(r.flags)).toEqual([0, 0, 0, 0, 0, 0, 0, -1]);
  });
  it.each([
    ["n = 0", [], NaN, NaN, []],
    ["only NaN", [NaN, NaN], NaN, NaN, [0, 0]],
    ["n = 1", [7], 7, 7, [0]],
    ["n = 2", [9, 7], 7, 9, [0, 0]],
    ["all equal", [3, 3, 3, 3, 3], 3, 3, [0, 0, 0, 0, 0]],
  ])("edge case %s", (_name, xs, q1, q3, flags) => {
    for (const method of ["hf6", "weka"] as const) {
      const r = iqrFlags(xs as number[], { method });
      expect(r.q1).toBe(q1);
      expect(r.q3).toBe(q3);
      expect(Array.from(r.flags)).toEqual(flags);
    }
  });
  it("all equal but one: IQR 0, so any different value is flagged (strict fences)", () => {
    expect(Array.from(iqrFlags([2, 2, 2, 2, 2, 50]).flags)).toEqual([0, 0, 0, 0, 0, 1]);
  });
  it("flags exactly the values outside the fences (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 30 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (xs, of) => {
          const r = iqrFlags(xs, { outlierFactor: of });
          xs.forEach((x, i) =>
            expect(r.flags[i]).toBe(x < r.q1 - of * r.iqr ? -1 : x > r.q3 + of * r.iqr ? 1 : 0),
          );
        },
      ),
    );
  });
  it("rejects a negative outlier factor by name", () => {
    expect(() => iqrFlags([1], { outlierFactor: -1 })).toThrow("invalid outlierFactor: -1");
  });
  it("plot draws the fences and the values", () => {
    const xs = [448, 453, 450, 457, 430, 270];
    const p = iqrFlagsPlot(iqrFlags(xs), xs, { label: "frames" });
    // By hand (HF6 on 270 430 448 450 453 457): Q1 = 270 + 0.75·160 = 390, Q3 = 453 + 0.25·4 = 454, IQR 64,
    // fences 390 − 96 = 294 and 454 + 96 = 550; only 270 lies beyond one.
    expect(p.under!.map((l) => (l.data as { x: number }[]).map((d) => d.x))[0]).toEqual([294, 390, 454, 550]);
    expect((p.data as { flag: string }[]).map((d) => d.flag)).toEqual([
      "inside",
      "inside",
      "inside",
      "inside",
      "inside",
      "below",
    ]);
  });
});
