// One run a side cannot measure how much a measure moves between runs of one build, so its test adds an assumed
// run-to-run variance to the within-run one, as edgeR's users do without replicates (Chen, McCarthy, Robinson &
// Smyth, edgeR User's Guide §2.12: "pick a reasonable dispersion", a biological coefficient of variation of 0.4
// for unrelated samples). The assumed part is known, not estimated, so it adds no uncertainty of its own:
// Satterthwaite's degrees of freedom grow with its share of the total variance (docs/compare.md, "Statistics").
import { twoSidedP } from "./normal";
import { studentTwoSidedP } from "./student-t";

/** Degrees of freedom past which Student's t is read as the normal. */
const NORMAL_DF = 1e6;

/**
 * The two-sided p of an observed change (log ratio or difference) whose within-run standard error `se` has `df`
 * degrees of freedom, once `allowance` (a variance on the same scale, assumed known) is added to se².
 */
export function betweenRunsP(
  observed: number,
  se: number,
  df: number,
  allowance: number,
): { p: number; df: number; sd: number } {
  const total = se * se + allowance;
  const sd = Math.sqrt(total);
  if (!(total > 0)) return { p: observed === 0 ? 1 : NaN, df, sd };
  // Satterthwaite: only the estimated part (se², on df degrees of freedom) is uncertain
  const dfTotal = se > 0 && df > 0 ? (total * total) / ((se * se * se * se) / df) : Infinity;
  const t = observed / sd;
  const p = dfTotal > NORMAL_DF ? twoSidedP(t) : studentTwoSidedP(t, dfTotal);
  return { p, df: dfTotal, sd };
}

/**
 * The run-to-run variance a side's statistic is assumed to carry, on the test's scale: `cv`² per run on the log
 * scale for times and amounts (a ratio), `rateSd`² per run for rates (a difference), divided by the side's runs.
 */
export function runToRunVariance(
  scale: "ratio" | "difference",
  runs: [number, number],
  cv: number,
  rateSd: number,
): number {
  const perRun = scale === "ratio" ? Math.log1p(cv * cv) : rateSd * rateSd;
  return perRun * (1 / runs[0] + 1 / runs[1]);
}

/** The standard normal quantile z with P(|Z| ≤ z) = level, by bisection on the tail (enough for an interval). */
function twoSidedZ(level: number): number {
  let lo = 0;
  let hi = 40;
  for (let k = 0; k < 100; k++) {
    const mid = (lo + hi) / 2;
    if (twoSidedP(mid) > 1 - level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The bootstrap interval of a change widened by the assumed run-to-run variance, so the interval says what the p
 * says: on the test's scale (log for a ratio) each half-width h becomes √(h² + z²·allowance), z the normal quantile
 * of the level (the allowance is known, not estimated). A bound that is not finite on that scale is kept as it is.
 */
export function widenInterval(
  observed: number,
  ci: [number, number],
  scale: "ratio" | "difference",
  allowance: number,
  level: number,
): [number, number] {
  if (!(allowance > 0) || !Number.isFinite(observed)) return ci;
  const extra = twoSidedZ(level) ** 2 * allowance;
  const to = scale === "ratio" ? Math.log : (x: number) => x;
  const from = scale === "ratio" ? Math.exp : (x: number) => x;
  const widen = (bound: number, sign: -1 | 1) => {
    const h = sign * (to(bound) - observed);
    return Number.isFinite(h) ? from(observed + sign * Math.sqrt(Math.max(0, h) ** 2 + extra)) : bound;
  };
  return [widen(ci[0], -1), widen(ci[1], 1)];
}
