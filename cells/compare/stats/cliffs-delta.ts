// Cliff's delta (Cliff 1993): δ = P(B > A) − P(B < A) over all pairs, in [−1, 1]; for 0/1 outcomes it is the
// difference of the two rates. O((n + m) log(n + m)) by sorting, not over every pair.

export function cliffsDelta(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return NaN;
  const sa = Float64Array.from(a).sort();
  let greater = 0;
  let less = 0;
  for (let j = 0; j < m; j++) {
    const y = b[j]!;
    const lo = lowerBound(sa, y);
    const hi = upperBound(sa, y);
    less += n - hi; // a values above y: b < a
    greater += lo; // a values below y: b > a
  }
  return (greater - less) / (n * m);
}

/** first index with s[i] ≥ x */
export function lowerBound(s: Float64Array, x: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** first index with s[i] > x */
export function upperBound(s: Float64Array, x: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Romano et al. (2006)'s thresholds for |δ|: negligible < 0.147 ≤ small < 0.33 ≤ medium < 0.474 ≤ large. */
export function cliffsMagnitude(d: number): "negligible" | "small" | "medium" | "large" {
  const x = Math.abs(d);
  return x < 0.147 ? "negligible" : x < 0.33 ? "small" : x < 0.474 ? "medium" : "large";
}
