// Bootstrap confidence intervals and p-values for the change between two sides (Efron & Tibshirani 1993):
// over runs, when each side has runs enough to stand for its population; over blocks (UI-event buckets) within
// runs otherwise. Each resample draws, per side, as many items as it has, with replacement (within each run for
// blocks, so no run's share changes). The interval is the percentile interval; the p-value is the Wald test of
// the observed change against the resamples' standard error (on the log scale for ratios), referred to Student's t
// with the Welch–Satterthwaite degrees of freedom of the two sides' variances (each resting on its blocks or runs), so it is not floored
// at 1/(resamples + 1) and Benjamini–Hochberg can still separate rows.
import { studentTwoSidedP } from "./student-t";
import { quantileSorted, weightedQuantileSorted } from "./quantile";
import { anchoredQuantile, isAscending } from "./sorted-units";
import type { Rng } from "./rng";
import { blocksByRun, type SharedDraws } from "./block-draws";

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
  /** the observed change over its standard error (log scale for a ratio) and the degrees of freedom it is read with */
  z: number;
  df: number;
  /** resamples whose change was undefined (a side left with no values) and were dropped */
  dropped: number;
}

export interface BootstrapOptions {
  resamples: number;
  /** two-sided confidence level of the interval */
  level: number;
  rng: Rng;
  /** the block bootstrap's draws kept across measures, when rng is a fresh seededRng(seed) (block-draws.ts) */
  shared?: { draws: SharedDraws; seed: number };
}

const variance = (x: readonly number[]) => {
  const m = x.reduce((s, v) => s + v, 0) / x.length;
  return x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - 1);
};

/**
 * Degrees of freedom of a change whose variance is the sum of the sides' (Welch 1947, Satterthwaite 1946): each
 * side's variance rests on its units (blocks or runs) less one, so the sum has between the fewer side's and both
 * sides' together; a side that does not vary adds none.
 */
export function welchDf(va: number, vb: number, [ka, kb]: [number, number]): number {
  const part = (v: number, k: number) => (v > 0 ? (v * v) / Math.max(1, k - 1) : 0);
  const den = part(va, ka) + part(vb, kb);
  return den > 0 ? (va + vb) ** 2 / den : Math.max(1, Math.min(ka, kb) - 1);
}

/** The change and its test from the observed value and the resampled ones. */
function summarise(
  observedA: number,
  observedB: number,
  resampled: { a: Float64Array; b: Float64Array },
  scale: EffectScale,
  level: number,
  units: [number, number],
): Change {
  // A ratio with a zero side has no log: it is tested on the difference scale instead.
  const useRatio = scale === "ratio" && observedA > 0 && observedB > 0;
  const diffs: number[] = [];
  const changes: number[] = [];
  // each side's resampled statistic on the test's scale, for its share of the variance (Welch–Satterthwaite)
  const sides: [number[], number[]] = [[], []];
  let dropped = 0;
  for (let i = 0; i < resampled.a.length; i++) {
    const a = resampled.a[i]!;
    const b = resampled.b[i]!;
    if (!Number.isFinite(a) || !Number.isFinite(b) || (useRatio && (a <= 0 || b <= 0))) {
      dropped++;
      continue;
    }
    diffs.push(useRatio ? Math.log(b / a) : b - a);
    sides[0].push(useRatio ? Math.log(a) : a);
    sides[1].push(useRatio ? Math.log(b) : b);
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
  if (diffs.length < 2) return { estimate, ci: [NaN, NaN], p: NaN, se: NaN, z: NaN, df: NaN, dropped };
  const se = Math.sqrt(variance(diffs));
  const df = welchDf(variance(sides[0]), variance(sides[1]), units);
  // resamples that do not vary cannot judge the change: the caller falls back to a rank test (NaN here)
  const p = se > 0 ? studentTwoSidedP(observed / se, df) : observed === 0 ? 1 : NaN;
  const sorted = Float64Array.from(changes).sort();
  const tail = (1 - level) / 2;
  const z = se > 0 ? observed / se : observed === 0 ? 0 : NaN;
  return {
    estimate,
    ci: [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)],
    p,
    se,
    z,
    df,
    dropped,
  };
}

/**
 * Medians of resamples of `values` (with replacement), each in O(n): the values sorted once, a resample is how
 * often each was drawn, and the median is read off those counts (no sort per resample: 5,000 runs a side).
 */
function resampledMedians(values: Float64Array, resamples: number, rng: Rng): Float64Array {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const self = Int32Array.from(sorted.keys());
  const count = new Float64Array(n);
  const out = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[Math.floor(rng() * n)]!++;
    out[r] = weightedQuantileSorted(sorted, self, count, 0.5);
  }
  return out;
}

/** Bootstrap over runs: each side is its runs' values, summarised by their median. */
export function bootstrapRuns(
  a: Float64Array,
  b: Float64Array,
  scale: EffectScale,
  options: BootstrapOptions,
): Change {
  const med = (x: Float64Array) => quantileSorted(Float64Array.from(x).sort(), 0.5);
  const ra = resampledMedians(a, options.resamples, options.rng);
  const rb = resampledMedians(b, options.resamples, options.rng);
  return summarise(med(a), med(b), { a: ra, b: rb }, scale, options.level, [a.length, b.length]);
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
  // units the engine sent in ascending order are not sorted again (a million frames a run)
  if (isAscending(side.value)) return anchoredQuantile(side.value, side.block, side.blockRun.length, stat.q);
  const order = Uint32Array.from(side.value.keys()).sort((x, y) => side.value[x]! - side.value[y]!);
  const sorted = Float64Array.from(order, (i) => side.value[i]!);
  const group = Int32Array.from(order, (i) => side.block[i]!);
  return anchoredQuantile(sorted, group, side.blockRun.length, stat.q);
}

/**
 * A resample of a mean: each drawn block's sums added as it is drawn rather than counted first and summed over
 * every block (a million frames' 16,666 buckets a resample; the sums' order differs, so a non-integer mean can
 * differ in its last bit from a sum over counts). A block's two sums lie side by side, so a draw reads one cache
 * line, not two (the same sums in the same order).
 */
function meanOfDraws(side: BlockedSide): (draws: ArrayLike<number>, from: number) => number {
  const nb = side.blockRun.length;
  const sums = new Float64Array(2 * nb);
  for (let i = 0; i < side.value.length; i++) {
    sums[2 * side.block[i]!]! += side.value[i]!;
    sums[2 * side.block[i]! + 1]! += side.weight[i]!;
  }
  return (draws, from) => {
    let v = 0;
    let w = 0;
    const end = from + nb;
    for (let i = from; i < end; i++) {
      const k = 2 * draws[i]!;
      v += sums[k]!;
      w += sums[k + 1]!;
    }
    return w > 0 ? v / w : NaN;
  };
}

/** A side's statistic of one resample given its drawn blocks (draws[from .. from + blocks)). */
function ofDraws(
  side: BlockedSide,
  stat: SideStatistic,
  f: (count: Float64Array) => number,
): (draws: ArrayLike<number>, from: number) => number {
  if (stat.kind === "mean") return meanOfDraws(side);
  const nb = side.blockRun.length;
  const count = new Float64Array(nb);
  return (draws, from) => {
    count.fill(0);
    for (let i = from; i < from + nb; i++) count[draws[i]!]!++;
    return f(count);
  };
}

/**
 * The side with only the blocks that hold its units, renumbered: a subject seen in a few of a long run's buckets
 * costs its own buckets per resample, not the run's (each run then draws as many of its holding buckets as it has,
 * the bootstrap of a subgroup's ratio estimator given how many buckets hold it).
 */
function compact(side: BlockedSide): BlockedSide {
  const known = compacted.get(side.block);
  if (known?.blockRun === side.blockRun) return { ...side, block: known.block, blockRun: known.compact };
  const c = compactBlocks(side);
  compacted.set(side.block, { blockRun: side.blockRun, block: c.block, compact: c.blockRun });
  return c;
}

// A side's blocks compacted, kept per block array (the quantiles of one side's frames share it)
const compacted = new WeakMap<Int32Array, { blockRun: Int32Array; block: Int32Array; compact: Int32Array }>();

function compactBlocks(side: BlockedSide): BlockedSide {
  // each block's new number, in block order (-1: holds no unit)
  const index = new Int32Array(side.blockRun.length).fill(-1);
  for (let i = 0; i < side.block.length; i++) index[side.block[i]!] = 0;
  let used = 0;
  for (let k = 0; k < index.length; k++) if (index[k] === 0) index[k] = used++;
  if (used === side.blockRun.length) return side;
  const blockRun = new Int32Array(used);
  for (let k = 0; k < index.length; k++) if (index[k]! >= 0) blockRun[index[k]!] = side.blockRun[k]!;
  return {
    value: side.value,
    weight: side.weight,
    block: side.block.map((b) => index[b]!),
    blockRun,
  };
}

/** Bootstrap over blocks within runs (a block bootstrap: units in one block stay together). */
export function bootstrapBlocks(
  sideA: BlockedSide,
  sideB: BlockedSide,
  stat: SideStatistic,
  scale: EffectScale,
  options: BootstrapOptions,
): Change {
  const a = compact(sideA);
  const b = compact(sideB);
  const fa = makeStatistic(a, stat);
  const fb = makeStatistic(b, stat);
  const all = (s: BlockedSide) => new Float64Array(s.blockRun.length).fill(1);
  const ga = ofDraws(a, stat, fa);
  const gb = ofDraws(b, stat, fb);
  const ra = new Float64Array(options.resamples);
  const rb = new Float64Array(options.resamples);
  // the blocks drawn, from the generator's seed: kept from the measures before over the same blocks, or drawn here
  const kept = options.shared?.draws.draws(options.shared.seed, a.blockRun, b.blockRun, options.resamples);
  if (kept)
    for (let i = 0; i < options.resamples; i++) {
      ra[i] = ga(kept.a, i * a.blockRun.length);
      rb[i] = gb(kept.b, i * b.blockRun.length);
    }
  else {
    const runs = [blocksByRun(a.blockRun), blocksByRun(b.blockRun)];
    const drawn = [new Int32Array(a.blockRun.length), new Int32Array(b.blockRun.length)];
    for (let i = 0; i < options.resamples; i++)
      for (const s of [0, 1]) {
        let at = 0;
        for (const blocks of runs[s]!)
          for (let j = 0; j < blocks.length; j++)
            drawn[s]![at++] = blocks[Math.floor(options.rng() * blocks.length)]!;
        (s === 0 ? ra : rb)[i] = (s === 0 ? ga : gb)(drawn[s]!, 0);
      }
  }
  // the standard error rests on the blocks holding data: Student's t with their Welch–Satterthwaite degrees of freedom
  const units: [number, number] = [a.blockRun.length, b.blockRun.length];
  return summarise(fa(all(a)), fb(all(b)), { a: ra, b: rb }, scale, options.level, units);
}
