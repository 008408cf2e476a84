// One measure compared: the mode chosen by the sides' runs, too little data said in words, new and vanished
// subjects, the judgement against the minimum effect, and the ranked list's order and adjustment.
import { describe, expect, it } from "vitest";
import type { SideBlocks } from "../../../cells/compare/blocks";
import { compareMetric, judge, type Metric, type MetricSide } from "../../../cells/compare/compare-metric";
import { MetricBuilder } from "../../../cells/compare/metric-builder";
import { unitsDelta } from "../../../cells/compare/side-statistics";
import { rankRows, whatChanged } from "../../../cells/compare/what-changed";
import { smallestRankP } from "../../../cells/compare/stats/mann-whitney";

/** A side of `runs` runs, each with `blocks` blocks holding the given values (the same in every block). */
function side(perRun: number[][], blocks = 1): MetricSide {
  const value: number[] = [];
  const block: number[] = [];
  const blockRun: number[] = [];
  perRun.forEach((values, r) => {
    for (let k = 0; k < blocks; k++) {
      blockRun.push(r);
      for (const v of values) {
        value.push(v);
        block.push(blockRun.length - 1);
      }
    }
  });
  return {
    runs: perRun.map((_, r) => `run${r}`),
    blockRun: Int32Array.from(blockRun),
    value: Float64Array.from(value),
    weight: new Float64Array(value.length).fill(1),
    block: Int32Array.from(block),
  };
}

const metric = (a: MetricSide, b: MetricSide, rest: Partial<Metric> = {}): Metric => ({
  analysis: "frames",
  key: "k",
  subject: "all frames",
  measure: "frame duration (mean)",
  unit: "ms",
  statistic: { kind: "mean" },
  scale: "ratio",
  better: "lower",
  a,
  b,
  ...rest,
});

describe("compareMetric", () => {
  it("tests runs with Mann-Whitney once the sides have runs enough to reach α", () => {
    // 4 vs 4 runs, every B run slower: exact p = 2/70 (smallestRankP) ≤ 0.05
    const row = compareMetric(metric(side([[10], [11], [12], [13]]), side([[20], [21], [22], [23]])));
    expect(row.method).toBe("runs");
    expect(row.p).toBeCloseTo(smallestRankP(4, 4), 12);
    expect(row.delta).toBe(1);
    expect(row.change).toBeCloseTo(21.5 / 11.5, 12); // ratio of the runs' medians
    expect(row.note).toMatch(/runs 4 vs 4: Mann–Whitney \(exact\)/);
  });

  it("falls back to the block bootstrap with 3 vs 3 runs (no rank test over 3 runs reaches 0.05), and says why", () => {
    const sides = () =>
      metric(
        side(
          [
            [10, 11],
            [12, 10],
            [11, 12],
          ],
          2,
        ),
        side(
          [
            [20, 21],
            [22, 20],
            [21, 22],
          ],
          2,
        ),
      );
    const row = compareMetric(sides());
    expect(row.method).toBe("blocks");
    expect(row.note).toMatch(
      /too few runs for a rank test over runs: 3 vs 3; block bootstrap over 6 vs 6 UI-event buckets.*assumed \(40 % a run\)/,
    );
    // the buckets alone call ×1.9 certain; with runs assumed to vary 40 % each, 3 a side, it is p ≈ 0.04:
    // ln 1.9 = 0.64 against √(ln 1.16 · 2/3) = 0.31, and the buckets' own standard error is tiny beside it
    const bucketsAlone = compareMetric(sides(), { runCv: 0, runRateSd: 0 });
    expect(bucketsAlone.p).toBeLessThan(1e-6);
    expect(row.p).toBeGreaterThan(0.03);
    expect(row.p).toBeLessThan(0.05);
    expect(row.z).toBeCloseTo(Math.log(21 / 11) / Math.sqrt((Math.log(1.16) * 2) / 3), 1);
  });

  it("says plainly when one run against one run has too few buckets, never 'no change'", () => {
    const row = compareMetric(metric(side([[10, 11, 12]]), side([[10, 11, 12]])));
    expect(row.status).toBe("too-few");
    expect(row.p).toBeNaN();
    expect(row.note).toBe(
      "too few runs for a rank test over runs: 1 vs 1, and too few UI-event buckets with data: 1 vs 1, need ≥ 2 per side",
    );
    const p99 = compareMetric(
      metric(side([[1, 2]], 3), side([[1, 2]], 3), {
        statistic: { kind: "quantile", q: 0.99 },
        minUnits: 100,
      }),
    );
    expect(p99.note).toBe("too few values: 6 vs 6, need ≥ 100 per side");
  });

  it("names a subject found on one side only as new or vanished", () => {
    const empty = side([[]]);
    expect(compareMetric(metric(empty, side([[5]], 2))).status).toBe("new");
    expect(compareMetric(metric(side([[5]], 2), empty)).status).toBe("vanished");
  });
});

describe("judge", () => {
  const base = compareMetric(metric(side([[10], [11], [12], [13]]), side([[20], [21], [22], [23]])));
  it("calls a significant slower time a regression and a faster one an improvement", () => {
    expect(judge({ ...base, q: 0.01 }).direction).toBe("regression");
    expect(judge({ ...base, q: 0.01 }).significant).toBe(true);
    expect(judge({ ...base, q: 0.01, better: "higher" }).direction).toBe("improvement");
  });

  it("does not count a change below the minimum effect, however small its p", () => {
    expect(judge({ ...base, q: 1e-9, change: 1.05 }).significant).toBe(false);
    expect(judge({ ...base, q: 1e-9, change: 1.05 }, { minEffect: 0.04 }).significant).toBe(true);
    expect(judge({ ...base, q: 0.2 }).significant).toBe(false);
  });
});

describe("whatChanged", () => {
  it("adjusts over the whole list and ranks significant regressions first, causes before symptoms", () => {
    const slow = side([[20], [21], [22], [23]]);
    const fast = side([[10], [11], [12], [13]]);
    const rows = whatChanged([
      metric(fast, fast, { key: "same" }),
      metric(fast, slow, { key: "frames" }),
      metric(fast, slow, { key: "view", analysis: "draw", subject: "android.widget.GridView #grid" }),
      metric(slow, fast, { key: "better" }),
    ]);
    expect(rows.map((r) => r.key)).toEqual(["view", "frames", "better", "same"]);
    // three rows at p = 2/70 and one at 1: BH q = (2/70)·4/3
    expect(rows[0]!.q).toBeCloseTo(((2 / 70) * 4) / 3, 12);
    expect(rows[2]!.direction).toBe("improvement");
    expect(rows[3]!.significant).toBe(false);
  });

  it("puts rows without a test after those with one", () => {
    const rows = rankRows([
      { ...compareMetric(metric(side([[1]]), side([[1]]))), key: "untested" },
      {
        ...compareMetric(metric(side([[10], [11], [12], [13]]), side([[10], [11], [12], [13.5]]))),
        key: "tested",
        q: 0.9,
      },
    ]);
    expect(rows.map((r) => r.key)).toEqual(["tested", "untested"]);
  });
});

describe("compareRuns's hook for other analyses", () => {
  it("tests another analysis's measures with the same buckets and ranks them with the rest", async () => {
    const { compareRuns } = await import("../../../cells/compare/compare-runs");
    const { tableFromArrays } = await import("apache-arrow");
    const runs = ["a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2", "b3", "b4", "b5", "b6"];
    const frames = tableFromArrays({
      run_id: runs,
      intended_vsync: BigInt64Array.from(runs.map(() => 1_000_000_000n)),
      duration: BigInt64Array.from(runs.map(() => 8_000_000n)),
      deadline: BigInt64Array.from(runs.map(() => 16_000_000n)),
      jank: runs.map(() => false),
    });
    const c = compareRuns(
      { frames },
      { a: runs.slice(0, 6), b: runs.slice(6) },
      {
        extend: (builder) =>
          runs.forEach((run, i) =>
            builder.add(
              {
                ...metric(side([]), side([])),
                analysis: "profile",
                key: "profile:m",
                subject: "com.example.M.run",
              },
              run,
              1e9,
              i < 6 ? 10 + i : 30 + i,
            ),
          ),
      },
    );
    expect(c.rows[0]!.key).toBe("profile:m");
    expect(c.rows[0]!.significant).toBe(true);
    expect(c.rows[0]!.method).toBe("runs");
  });
});

describe("MetricBuilder.addInterval", () => {
  it("puts time spent over several buckets into each bucket it overlaps, by hand", () => {
    // one run, buckets [0, 10), [10, 30), [30, 40) ms
    const ms = 1e6;
    const side = (run: string): SideBlocks => ({
      runs: [run],
      blockRun: Int32Array.from([0, 0, 0]),
      start: Float64Array.from([0, 10 * ms, 30 * ms]),
      end: Float64Array.from([10 * ms, 30 * ms, 40 * ms]),
      key: ["before the first event", "click a", "click b"],
      offset: Int32Array.from([0]),
      windowed: [],
    });
    const builder = new MetricBuilder({ a: side("A"), b: side("B") });
    const spec = {
      analysis: "diagdroid",
      key: "busy",
      subject: "g",
      measure: "execution time per second",
      unit: "ms/s",
      statistic: { kind: "mean" as const },
      scale: "ratio" as const,
      better: "lower" as const,
    };
    // a task posted at 5 ms that ran from 8 to 35 ms: 2 ms in the first bucket, 20 in the second, 5 in the third
    builder.addInterval(spec, "A", 8 * ms, 35 * ms);
    // one that ran past the run's last bucket counts there (the run's data past its span)
    builder.addInterval(spec, "B", 36 * ms, 45 * ms);
    const [m] = builder.build();
    expect(Array.from(m!.a.value)).toEqual([2, 20, 5]);
    expect(Array.from(m!.b.value)).toEqual([0, 0, 9]);
    // per second of each bucket: the buckets' lengths are the weights
    expect(Array.from(m!.a.weight)).toEqual([0.01, 0.02, 0.01]);
  });
});

describe("MetricBuilder.addAmount over runs of several apps", () => {
  // two runs a side, one bucket each of 1 s: runs x1 and y1 on side A, x2 and y2 on side B
  const ns = 1e9;
  const side = (runs: string[]): SideBlocks => ({
    runs,
    blockRun: Int32Array.from([0, 1]),
    start: Float64Array.from([0, 0]),
    end: Float64Array.from([ns, ns]),
    key: ["before the first event", "before the first event"],
    offset: Int32Array.from([0, 1]),
    windowed: [],
  });
  const spec = {
    analysis: "draw",
    key: "cost",
    subject: "android.widget.ImageButton #submenu1_button1",
    measure: "rendering cost per second",
    unit: "ms/s",
    statistic: { kind: "mean" as const },
    scale: "ratio" as const,
    better: "lower" as const,
  };
  const blocks = { a: side(["x1", "y1"]), b: side(["x2", "y2"]) };

  it("compares a subject over the runs of the apps it occurs in, against zero there", () => {
    const builder = new MetricBuilder(
      blocks,
      new Map([
        ["x1", "com.x"],
        ["x2", "com.x"],
        ["y1", "com.y"],
        ["y2", "com.y"],
      ]),
    );
    // only app y draws the view, and only in B: A's y run is its zero, the x runs could not have had it
    builder.addAmount(spec, "y2", 0.5 * ns, 6);
    const [m] = builder.build();
    expect(Array.from(m!.a.value)).toEqual([0]);
    expect(Array.from(m!.a.block)).toEqual([1]);
    expect(Array.from(m!.b.value)).toEqual([6]);
    expect(Array.from(m!.b.block)).toEqual([1]);
    // Cliff's δ over those buckets alone: every B bucket above every A bucket
    expect(unitsDelta(m!.a, m!.b)).toBe(1);
  });

  it("keeps every run when the runs are of one app (or name none)", () => {
    const oneApp = new Map(["x1", "x2", "y1", "y2"].map((run) => [run, "com.x"]));
    for (const apps of [undefined, oneApp]) {
      const builder = new MetricBuilder(blocks, apps);
      builder.addAmount(spec, "y2", 0.5 * ns, 6);
      const [m] = builder.build();
      expect(Array.from(m!.a.value)).toEqual([0, 0]);
      expect(Array.from(m!.b.value)).toEqual([0, 6]);
      // the run without the view dilutes δ: one B bucket of two is above A's
      expect(unitsDelta(m!.a, m!.b)).toBe(0.5);
    }
  });
});

describe("whatChangedPlot", () => {
  it("draws each side's runs as dots when runs were compared, and buckets otherwise", async () => {
    const { whatChangedPlot } = await import("../../../cells/compare/what-changed");
    const m = metric(side([[10], [11], [12], [13]]), side([[20], [21], [22], [23]]));
    const spec = whatChangedPlot(m, compareMetric(m));
    expect(spec.origin).toBe("whatChangedPlot");
    expect(spec.data).toEqual([
      ...[10, 11, 12, 13].map((value, r) => ({ side: "A", value, unit: `run${r}` })),
      ...[20, 21, 22, 23].map((value, r) => ({ side: "B", value, unit: `run${r}` })),
    ]);
    const blocks = metric(side([[1, 3]], 2), side([[5, 7]], 2));
    expect(
      (whatChangedPlot(blocks, compareMetric(blocks)).data as { value: number }[]).map((d) => d.value),
    ).toEqual([2, 2, 6, 6]);
  });
});
