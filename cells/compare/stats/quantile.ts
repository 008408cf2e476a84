// Quantiles of samples: type 7 (R's and NumPy's default, linear between order statistics) for plain values,
// and its weighted form for bootstrap resamples, where a value's weight is how often its block was drawn.

/** Type-7 quantile of sorted values. */
export function quantileSorted(s: ArrayLike<number>, q: number): number {
  const n = s.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

export const quantile = (values: ArrayLike<number>, q: number) =>
  quantileSorted(Float64Array.from(values).sort(), q);

export const median = (values: ArrayLike<number>) => quantile(values, 0.5);

/**
 * Type-7 quantile of sorted values where value i occurs count[group[i]] times (integer counts): the same answer
 * as repeating each value and calling quantileSorted, without building the repeated array.
 */
export function weightedQuantileSorted(
  s: ArrayLike<number>,
  group: ArrayLike<number>,
  count: ArrayLike<number>,
  q: number,
): number {
  let total = 0;
  for (let i = 0; i < s.length; i++) total += count[group[i]!]!;
  if (total === 0) return NaN;
  const h = (total - 1) * q;
  const lo = Math.floor(h);
  const frac = h - lo;
  // the values at repeated positions lo and lo + 1
  let seen = 0;
  let vLo = NaN;
  for (let i = 0; i < s.length; i++) {
    const c = count[group[i]!]!;
    if (c === 0) continue;
    if (Number.isNaN(vLo) && seen + c > lo) {
      vLo = s[i]!;
      if (frac === 0 || seen + c > lo + 1) return vLo;
    } else if (!Number.isNaN(vLo)) return vLo + frac * (s[i]! - vLo);
    seen += c;
  }
  return vLo;
}
