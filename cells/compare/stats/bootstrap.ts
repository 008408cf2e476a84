// Bootstrap confidence intervals and p-values for the change between two sides (Efron & Tibshirani 1993):
// over runs, when each side has runs enough to stand for its population; over blocks (UI-event buckets) within
// runs otherwise. Each resample draws, per side, as many items as it has, with replacement (within each run for
// blocks, so no run's share changes). The interval is the percentile interval; the p-value is the Wald test of
// the observed change against the resamples' standard error (on the log scale for ratios), referred to Student's t
// with one degree of freedom fewer than the fewest blocks (or runs) a side has, so it is not floored
// at 1/(resamples + 1) and Benjamini–Hochberg can still separate rows.
import { studentTwoSidedP } from "./student-t";
import { quantileSorted, weightedQuantileSorted } from "./quantile";
import type { Rng } from "./rng";

export type EffectScale = "ratio" | "difference";
/** What a side is summarised by: Σ value / Σ weight (a mean, a rate, an amount per second), or a quantile. */
export type SideStatistic = { kind: "mean" } | { kind: "quantile"; q: number };

export interface Change {
  /** B's statistic over A's (ratio) or B's minus A's (difference) */
  estimate: number;
  ci: [number, number];
  p: number;
  /** standard error of the change (log scale for a ratio) over the resamples */
  se: number;
  /** resamples whose change was undefined (a side left with no values) and were dropped */
  dropped: number;
}

export interface BootstrapOptions {
  resamples: number;
  /** two-sided confidence level of the interval */
  level: number;
  rng: Rng;
}

/** The change and its test from the observed value and the resampled ones. */
function summarise(
  observedA: number,
  observedB: number,
  resampled: { a: Float64Array; b: Float64Array },
  scale: EffectScale,
  level: number,
  df: number,
): Change {
  // A ratio with a zero side has no log: it is tested on the difference scale instead.
  const useRatio = scale === "ratio" && observedA > 0 && observedB > 0;
  const diffs: number[] = [];
  const changes: number[] = [];
  let dropped = 0;
  for (let i = 0; i < resampled.a.length; i++) {
    const a = resampled.a[i]!;
    const b = resampled.b[i]!;
    if (!Number.isFinite(a) || !Number.isFinite(b) || (useRatio && (a <= 0 || b <= 0))) {
      dropped++;
      continue;
    }
    diffs.push(useRatio ? Math.log(b / a) : b - a);
    changes.push(scale === "ratio" ? (a > 0 ? b / a : b > 0 ? Infinity : 1) : b - a);
  }
  const observed = useRatio ? Math.log(observedB / observedA) : observedB - observedA;
  const estimate =
    scale === "ratio"
      ? observedA > 0
        ? observedB / observedA
        : observedB > 0
          ? Infinity
          : 1
      : observedB - observedA;
  if (diffs.length < 2) return { estimate, ci: [NaN, NaN], p: NaN, se: NaN, dropped };
  const mean = diffs.reduce((s, x) => s + x, 0) / diffs.length;
  const se = Math.sqrt(diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (diffs.length - 1));
  // resamples that do not vary cannot judge the change: the caller falls back to a rank test (NaN here)
  const p = se > 0 ? studentTwoSidedP(observed / se, df) : observed === 0 ? 1 : NaN;
  const sorted = Float64Array.from(changes).sort();
  const tail = (1 - level) / 2;
  return { estimate, ci: [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)], p, se, dropped };
}

/** The median of a resample of `values` (with replacement). */
function resampledMedian(values: Float64Array, rng: Rng, scratch: Float64Array): number {
  for (let i = 0; i < values.length; i++) scratch[i] = values[Math.floor(rng() * values.length)]!;
  scratch.sort();
  return quantileSorted(scratch, 0.5);
}

/** Bootstrap over runs: each side is its runs' values, summarised by their median. */
export function bootstrapRuns(
  a: Float64Array,
  b: Float64Array,
  scale: EffectScale,
  options: BootstrapOptions,
): Change {
  const med = (x: Float64Array) => quantileSorted(Float64Array.from(x).sort(), 0.5);
  const ra = new Float64Array(options.resamples);
  const rb = new Float64Array(options.resamples);
  const sa = new Float64Array(a.length);
  const sb = new Float64Array(b.length);
  for (let i = 0; i < options.resamples; i++) {
    ra[i] = resampledMedian(a, options.rng, sa);
    rb[i] = resampledMedian(b, options.rng, sb);
  }
  return summarise(med(a), med(b), { a: ra, b: rb }, scale, options.level, Math.min(a.length, b.length) - 1);
}

/** One side's units for the block bootstrap: each unit's value, weight and block; each block's run. */
export interface BlockedSide {
  value: Float64Array;
  /** 1 for a plain mean; seconds for an amount per second */
  weight: Float64Array;
  /** block index of each unit, 0..blockRun.length − 1 */
  block: Int32Array;
  /** run index of each block (blocks are resampled within their run) */
  blockRun: Int32Array;
}

/** A side's statistic with each block counted count[block] times. */
function makeStatistic(side: BlockedSide, stat: SideStatistic): (count: Float64Array) => number {
  const nb = side.blockRun.length;
  if (stat.kind === "mean") {
    const sv = new Float64Array(nb);
    const sw = new Float64Array(nb);
    for (let i = 0; i < side.value.length; i++) {
      sv[side.block[i]!]! += side.value[i]!;
      sw[side.block[i]!]! += side.weight[i]!;
    }
    return (count) => {
      let v = 0;
      let w = 0;
      for (let k = 0; k < nb; k++) {
        v += count[k]! * sv[k]!;
        w += count[k]! * sw[k]!;
      }
      return w > 0 ? v / w : NaN;
    };
  }
  const order = Array.from(side.value.keys()).sort((x, y) => side.value[x]! - side.value[y]!);
  const sorted = Float64Array.from(order, (i) => side.value[i]!);
  const group = Int32Array.from(order, (i) => side.block[i]!);
  return (count) => weightedQuantileSorted(sorted, group, count, stat.q);
}

/** Draws, for every run, as many of its blocks as it has, with replacement; counts per block. */
function blockDrawer(blockRun: Int32Array, rng: Rng): () => Float64Array {
  const byRun = new Map<number, number[]>();
  blockRun.forEach((r, k) => {
    const list = byRun.get(r);
    if (list) list.push(k);
    else byRun.set(r, [k]);
  });
  const runs = [...byRun.values()];
  const count = new Float64Array(blockRun.length);
  return () => {
    count.fill(0);
    for (const blocks of runs)
      for (let i = 0; i < blocks.length; i++) count[blocks[Math.floor(rng() * blocks.length)]!]!++;
    return count;
  };
}

/** Bootstrap over blocks within runs (a block bootstrap: units in one block stay together). */
export function bootstrapBlocks(
  a: BlockedSide,
  b: BlockedSide,
  stat: SideStatistic,
  scale: EffectScale,
  options: BootstrapOptions,
): Change {
  const fa = makeStatistic(a, stat);
  const fb = makeStatistic(b, stat);
  const all = (s: BlockedSide) => new Float64Array(s.blockRun.length).fill(1);
  const drawA = blockDrawer(a.blockRun, options.rng);
  const drawB = blockDrawer(b.blockRun, options.rng);
  const ra = new Float64Array(options.resamples);
  const rb = new Float64Array(options.resamples);
  for (let i = 0; i < options.resamples; i++) {
    ra[i] = fa(drawA());
    rb[i] = fb(drawB());
  }
  // the standard error rests on the blocks holding data: t with (fewest such blocks − 1) degrees of freedom
  const df = Math.min(new Set(a.block).size, new Set(b.block).size) - 1;
  return summarise(fa(all(a)), fb(all(b)), { a: ra, b: rb }, scale, options.level, df);
}
