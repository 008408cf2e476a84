// One measure of one subject (a task group's queue time, the frames' p90 after a click, a view's draw cost)
// compared between side A (baseline) and side B (candidate). Runs are the independent units when both sides have
// runs enough for a rank test over them to reach α (Mann–Whitney over the runs' values, bootstrap over runs for
// the interval); otherwise the units within runs are resampled in blocks, the UI-event buckets (docs/compare.md,
// "Statistics"), and the row says that run-to-run variation is not measured. Too little data is a status with
// its reason, never a silent "no change".
import { betweenRunsP, runToRunVariance, widenInterval } from "./stats/between-runs";
import { bootstrapBlocks, bootstrapRuns, type EffectScale, type SideStatistic } from "./stats/bootstrap";
import { cliffsDelta } from "./stats/cliffs-delta";
import { mannWhitney, smallestRankP } from "./stats/mann-whitney";
import { blocksWithUnits, perBlock, perRun, sideStatistic, unitsDelta } from "./side-statistics";
import { seededRng } from "./stats/rng";
import { SharedDraws } from "./stats/block-draws";

export { perBlock, perRun } from "./side-statistics";

/** One side's data for a measure: units (frames, tasks, draws, blocks) within blocks within runs. */
export interface MetricSide {
  /** the side's runs, all of them */
  runs: readonly string[];
  /** run index (into runs) of every block; blocks are the side's UI-event buckets */
  blockRun: Int32Array;
  value: Float64Array;
  /** per unit; 1 for a mean or a rate, the block's seconds for an amount per second */
  weight: Float64Array;
  block: Int32Array;
  /**
   * Where a unit holds a block's sum over many (a block's frames for a rate or a mean): the values of those
   * units, ascending, and how many have each, for Cliff's δ, which compares the units themselves
   */
  sample?: { value: Float64Array; count?: Float64Array };
}

export interface Metric {
  /** frames, frame-timeline, diagdroid, draw, slices, methods, thread-states, or another analysis's name */
  analysis: string;
  /** unique over a comparison: the chart key too */
  key: string;
  /** what changed: a task group, a view, a UI event, a slice name */
  subject: string;
  /** which measure of it: "queue time (mean)", "frame duration p90", "jank rate" */
  measure: string;
  unit: string;
  statistic: SideStatistic;
  /** ratio for times and amounts, difference for rates (0..1) */
  scale: EffectScale;
  better: "lower" | "higher";
  /** fewest units a side needs (e.g. 100 frames for a p99) */
  minUnits?: number;
  a: MetricSide;
  b: MetricSide;
}

export type RowStatus = "ok" | "too-few" | "new" | "vanished";

export interface CompareRow {
  analysis: string;
  key: string;
  subject: string;
  measure: string;
  unit: string;
  scale: EffectScale;
  better: "lower" | "higher";
  /** the statistic on each side (all units pooled) */
  a: number;
  b: number;
  /** B over A (ratio) or B minus A (difference), with its interval */
  change: number;
  ci: [number, number];
  /** Cliff's δ of B against A over the units compared (runs or the units within them) */
  delta: number;
  /** the difference of the sides' means over their pooled standard deviation (Cohen's d), over runs or buckets */
  d: number;
  p: number;
  /** the block bootstrap's change over its standard error, and its degrees of freedom (one run a side) */
  z?: number;
  df?: number;
  /** Benjamini–Hochberg adjusted p over the whole list (set by whatChanged) */
  q: number;
  method: "runs" | "blocks" | "none";
  status: RowStatus;
  /** what the row rests on and its limits, in words */
  note: string;
  direction: "regression" | "improvement" | "none";
  significant: boolean;
  /** units of each side that went in: runs or blocks */
  n: [number, number];
}

export interface CompareOptions {
  /** significance level after Benjamini–Hochberg; default 0.05 */
  alpha?: number;
  /** smallest relative change of a time or amount that counts (0.1 = 10 %) */
  minEffect?: number;
  /** smallest change of a rate that counts, in points of 1 (0.02 = 2 points) */
  minRateChange?: number;
  /** bootstrap resamples; default 1000 */
  resamples?: number;
  /** confidence level of the intervals; default 0.95 */
  level?: number;
  seed?: number;
  /** fewest blocks holding data a side needs for the block bootstrap; default 2 */
  minBlocks?: number;
  /**
   * Without runs enough for a test over runs: the coefficient of variation a time or amount is assumed to have
   * from one run of a build to the next (log-scale SD per run; default 0.4), added to the within-run variance
   */
  runCv?: number;
  /** likewise for a rate, in points of 1 (SD of one run's rate around its build's; default 0.2) */
  runRateSd?: number;
}

/** Units × resamples a quantile's bootstrap may walk (a tenth of a second or so), and the fewest resamples it keeps. */
export const QUANTILE_WORK = 2e7;
export const MIN_RESAMPLES = 50;

export const COMPARE_DEFAULTS = {
  alpha: 0.05,
  minEffect: 0.1,
  minRateChange: 0.02,
  resamples: 1000,
  level: 0.95,
  seed: 1,
  minBlocks: 2,
  runCv: 0.4,
  runRateSd: 0.2,
} as const;

/** Cohen's d of b against a: Infinity (signed) when neither side varies but they differ. */
export function cohensD(a: Float64Array, b: Float64Array): number {
  const mean = (x: Float64Array) => x.reduce((s, v) => s + v, 0) / x.length;
  const ma = mean(a);
  const mb = mean(b);
  const ss = (x: Float64Array, m: number) => x.reduce((s, v) => s + (v - m) ** 2, 0);
  const df = a.length + b.length - 2;
  const sd = df > 0 ? Math.sqrt((ss(a, ma) + ss(b, mb)) / df) : NaN;
  if (sd === 0) return mb === ma ? 0 : Math.sign(mb - ma) * Infinity;
  return (mb - ma) / sd;
}

/**
 * One measure compared. `draws` keeps the block bootstrap's draws for the next measure over the same buckets
 * (whatChanged passes one for the whole list; the resamples are the same either way).
 */
export function compareMetric(
  m: Metric,
  options: CompareOptions = {},
  draws: SharedDraws = new SharedDraws(),
): CompareRow {
  const o = { ...COMPARE_DEFAULTS, ...options };
  const a = sideStatistic(m.a, m.statistic);
  const b = sideStatistic(m.b, m.statistic);
  const row: CompareRow = {
    analysis: m.analysis,
    key: m.key,
    subject: m.subject,
    measure: m.measure,
    unit: m.unit,
    scale: m.scale,
    better: m.better,
    a,
    b,
    change: m.scale === "ratio" ? (a > 0 ? b / a : b > 0 ? Infinity : NaN) : b - a,
    ci: [NaN, NaN],
    delta: NaN,
    d: NaN,
    p: NaN,
    q: NaN,
    method: "none",
    status: "ok",
    note: "",
    direction: "none",
    significant: false,
    n: [0, 0],
  };
  const na = m.a.value.length;
  const nb = m.b.value.length;
  if (na === 0 || nb === 0) {
    row.status = na === 0 && nb === 0 ? "too-few" : na === 0 ? "new" : "vanished";
    row.note =
      na === 0 && nb === 0 ? "no data on either side" : na === 0 ? "only in B (new)" : "only in A (vanished)";
    return row;
  }
  const minUnits = m.minUnits ?? 1;
  if (na < minUnits || nb < minUnits) {
    row.status = "too-few";
    row.note = `too few values: ${na} vs ${nb}, need ≥ ${minUnits} per side`;
    return row;
  }
  const ra = perRun(m.a, m.statistic).filter((x) => !Number.isNaN(x));
  const rb = perRun(m.b, m.statistic).filter((x) => !Number.isNaN(x));
  const rng = seededRng(o.seed);
  const boot = { resamples: o.resamples, level: o.level, rng };
  if (ra.length >= 2 && rb.length >= 2 && smallestRankP(ra.length, rb.length) <= o.alpha) {
    const test = mannWhitney(rb, ra);
    const change = bootstrapRuns(ra, rb, m.scale, boot);
    Object.assign(row, {
      method: "runs",
      p: test.p,
      ci: change.ci,
      change: change.estimate,
      delta: cliffsDelta(ra, rb),
      d: cohensD(ra, rb),
      n: [ra.length, rb.length],
      note: `runs ${ra.length} vs ${rb.length}: Mann–Whitney (${test.method}), median of run values`,
    });
  } else {
    const ka = blocksWithUnits(m.a);
    const kb = blocksWithUnits(m.b);
    const runsNote = `too few runs for a rank test over runs: ${ra.length} vs ${rb.length}`;
    if (ka < o.minBlocks || kb < o.minBlocks) {
      row.status = "too-few";
      row.note = `${runsNote}, and too few UI-event buckets with data: ${ka} vs ${kb}, need ≥ ${o.minBlocks} per side`;
      return row;
    }
    // a quantile's resample walks every unit: past QUANTILE_WORK unit-resamples, fewer resamples (said in the note)
    const units = m.a.value.length + m.b.value.length;
    const resamples =
      m.statistic.kind === "quantile"
        ? Math.max(MIN_RESAMPLES, Math.min(o.resamples, Math.floor(QUANTILE_WORK / units)))
        : o.resamples;
    const change = bootstrapBlocks(m.a, m.b, m.statistic, m.scale, {
      ...boot,
      resamples,
      shared: { draws, seed: o.seed },
    });
    // the run-to-run variation the buckets cannot show, assumed (none for a ratio with a zero side: no run-to-run
    // scaling turns nothing into something, so a subject absent from one side is judged on its buckets alone)
    const logScale = m.scale === "ratio" && a > 0 && b > 0;
    const assumed =
      logScale || m.scale === "difference"
        ? runToRunVariance(m.scale, [ra.length, rb.length], o.runCv, o.runRateSd)
        : 0;
    const observed = logScale ? Math.log(b / a) : b - a;
    const flat = !(change.se > 0);
    const withRuns = betweenRunsP(observed, flat ? 0 : change.se, change.df, assumed);
    // every resample the same (each bucket alike) and nothing assumed: a rank test over the buckets' values judges
    const p =
      assumed > 0
        ? withRuns.p
        : Number.isNaN(change.p)
          ? mannWhitney(perBlock(m.b, m.statistic), perBlock(m.a, m.statistic)).p
          : change.p;
    const rankTest = !(assumed > 0) && Number.isNaN(change.p);
    const fewer = resamples < o.resamples ? ` (${resamples} resamples)` : "";
    const rank = rankTest ? " (no variation between resamples: Mann–Whitney over the buckets' values)" : "";
    const perRun =
      m.scale === "ratio"
        ? `${Math.round(o.runCv * 100)} % a run`
        : `${Math.round(o.runRateSd * 100)} points a run`;
    const runs =
      assumed > 0
        ? ` but assumed (${perRun})`
        : ", and a subject missing from one side is judged on its buckets alone";
    Object.assign(row, {
      method: "blocks",
      p,
      z: assumed > 0 ? observed / withRuns.sd : change.z,
      df: assumed > 0 ? withRuns.df : change.df,
      // the interval widened by the same assumed variance as the p (none assumed: the bootstrap's own)
      ci: widenInterval(observed, change.ci, logScale ? "ratio" : "difference", assumed, o.level),
      change: change.estimate,
      delta: unitsDelta(m.a, m.b),
      d: cohensD(perBlock(m.a, m.statistic), perBlock(m.b, m.statistic)),
      n: [ka, kb],
      note:
        `${runsNote}; block bootstrap over ${ka} vs ${kb} UI-event buckets${fewer}${rank}: ` +
        `variation between runs is not measured${runs}, so this is evidence about these runs more than about the build`,
    });
  }
  return row;
}

/** The direction of a change given which way is better, and whether it is large enough to count. */
export function judge(row: CompareRow, options: CompareOptions = {}): CompareRow {
  const better = row.better;
  const o = { ...COMPARE_DEFAULTS, ...options };
  const c = row.change;
  const up = row.scale === "ratio" ? c > 1 : c > 0;
  const down = row.scale === "ratio" ? c < 1 : c < 0;
  const large =
    row.scale === "ratio"
      ? Math.abs(Math.log(c)) >= Math.log1p(o.minEffect) || (row.a === 0) !== (row.b === 0)
      : Math.abs(c) >= o.minRateChange;
  row.direction = !up && !down ? "none" : up === (better === "lower") ? "regression" : "improvement";
  row.significant = row.status === "ok" && row.q <= o.alpha && large && row.direction !== "none";
  return row;
}
