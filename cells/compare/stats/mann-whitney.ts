// The Wilcoxon–Mann–Whitney rank-sum test, as R's wilcox.test(a, b) computes it: W = #{(i, j): a_i > b_j}
// + ½ #{a_i = b_j}; exact null distribution when both samples have fewer than 50 values and no ties, else the
// normal approximation with the tie correction of the variance and a continuity correction of ½.
import { twoSidedP } from "./normal";

export interface RankTest {
  /** W for the first sample (R's STATISTIC) */
  w: number;
  /** two-sided p-value */
  p: number;
  method: "exact" | "normal";
}

/** Mid-ranks (1-based) of the pooled samples and the tie term Σ(t³ − t) over groups of equal values. */
function ranks(a: ArrayLike<number>, b: ArrayLike<number>) {
  const n = a.length;
  const all = Array.from({ length: n + b.length }, (_, i) => (i < n ? a[i]! : b[i - n]!));
  const order = all.map((_, i) => i).sort((x, y) => all[x]! - all[y]!);
  const rank = new Float64Array(all.length);
  let ties = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && all[order[j + 1]!] === all[order[i]!]) j++;
    const t = j - i + 1;
    for (let k = i; k <= j; k++) rank[order[k]!] = (i + j) / 2 + 1;
    ties += t * t * t - t;
    i = j + 1;
  }
  return { rank, ties };
}

/** Frequencies of W = 0..n·m under the null: the coefficients of the Gaussian binomial [n+m choose n]_q. */
export function exactWCounts(n: number, m: number): Float64Array {
  const f = new Float64Array(n * m + 1);
  f[0] = 1;
  let deg = 0;
  for (let i = 1; i <= n; i++) {
    // × (1 − q^(m+i))
    for (let k = deg; k >= 0; k--) if (k + m + i <= n * m) f[k + m + i]! -= f[k]!;
    deg += m;
    // ÷ (1 − q^i): an exact division, a running sum with stride i
    for (let k = i; k <= deg; k++) f[k]! += f[k - i]!;
    // the quotient has degree deg: what the product left above it is the division's remainder, zero
    f.fill(0, deg + 1);
  }
  return f;
}

/** P(W ≤ w) under the exact null distribution. */
function exactCdf(counts: Float64Array, w: number): number {
  let total = 0;
  let below = 0;
  for (let k = 0; k < counts.length; k++) {
    total += counts[k]!;
    if (k <= w) below += counts[k]!;
  }
  return below / total;
}

export function mannWhitney(a: ArrayLike<number>, b: ArrayLike<number>): RankTest {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return { w: NaN, p: NaN, method: "normal" };
  const { rank, ties } = ranks(a, b);
  let sumA = 0;
  for (let i = 0; i < n; i++) sumA += rank[i]!;
  const w = sumA - (n * (n + 1)) / 2;
  if (n < 50 && m < 50 && ties === 0) {
    const counts = exactWCounts(n, m);
    // R: the tail on W's side of the mean, doubled
    const p = w > (n * m) / 2 ? 1 - exactCdf(counts, w - 1) : exactCdf(counts, w);
    return { w, p: Math.min(1, 2 * p), method: "exact" };
  }
  const z = w - (n * m) / 2;
  const sigma = Math.sqrt(((n * m) / 12) * (n + m + 1 - ties / ((n + m) * (n + m - 1))));
  if (sigma === 0) return { w, p: 1, method: "normal" };
  const corrected = (z - Math.sign(z) * 0.5) / sigma;
  return { w, p: twoSidedP(corrected), method: "normal" };
}

/** The smallest two-sided p an exact test of n against m values can give: every A above every B, or below. */
export const smallestRankP = (n: number, m: number) => {
  let c = 1; // C(n+m, n)
  for (let i = 1; i <= n; i++) c = (c * (m + i)) / i;
  return Math.min(1, 2 / c);
};
