// The block bootstrap's work over big sides (a million frames a run) kept linear: units already in ascending
// order (the native engine sorts them) are not sorted again, Cliff's δ is one merge of two sorted samples, and a
// resample's weighted quantile is found by walking from where the sample's own quantile lies instead of from
// the first unit. Each gives exactly the answer of the plain computation (docs/compare.md, "Speed").

const sortedCache = new WeakMap<ArrayLike<number>, boolean>();

/** Whether values are in ascending order (remembered per array: the sides do not change once built). */
export function isAscending(values: Float64Array): boolean {
  const known = sortedCache.get(values);
  if (known !== undefined) return known;
  let ok = true;
  for (let i = 1; i < values.length; i++)
    if (!(values[i]! >= values[i - 1]!)) {
      ok = false;
      break;
    }
  sortedCache.set(values, ok);
  return ok;
}

/** values ascending: itself when already so, else a sorted copy. */
export const ascending = (values: Float64Array) =>
  isAscending(values) ? values : Float64Array.from(values).sort();

/**
 * Cliff's δ of b against a (P(B > A) − P(B < A) over all pairs) from ascending samples where value i occurs
 * count[i] times (count omitted: once): one merge, O(n + m).
 */
export function cliffsDeltaSorted(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  countA?: ArrayLike<number>,
  countB?: ArrayLike<number>,
): number {
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) na += countA ? countA[i]! : 1;
  for (let j = 0; j < b.length; j++) nb += countB ? countB[j]! : 1;
  if (na === 0 || nb === 0) return NaN;
  // lo: first a ≥ y, hi: first a > y, with how many a-units lie before each
  let lo = 0;
  let hi = 0;
  let belowLo = 0;
  let belowHi = 0;
  let greater = 0;
  let less = 0;
  for (let j = 0; j < b.length; j++) {
    const y = b[j]!;
    const w = countB ? countB[j]! : 1;
    while (lo < a.length && a[lo]! < y) belowLo += countA ? countA[lo++]! : (lo++, 1);
    if (hi < lo) {
      hi = lo;
      belowHi = belowLo;
    }
    while (hi < a.length && a[hi]! <= y) belowHi += countA ? countA[hi++]! : (hi++, 1);
    greater += w * belowLo;
    less += w * (na - belowHi);
  }
  return (greater - less) / (na * nb);
}

/**
 * A side's type-7 quantile under block counts (value i occurring count[group[i]] times), for ascending values:
 * the answer of weightedQuantileSorted, reached by walking from the position of the unweighted quantile, where a
 * resample's quantile lies close by, instead of from the first value. Costs one pass over the groups and a short
 * walk per call, not a pass over every unit.
 */
export function anchoredQuantile(
  sorted: Float64Array,
  group: Int32Array,
  groups: number,
  q: number,
): (count: ArrayLike<number>) => number {
  const n = sorted.length;
  const anchor = Math.max(0, Math.min(n, Math.floor((n - 1) * q)));
  const size = new Float64Array(groups);
  const before = new Float64Array(groups);
  for (let i = 0; i < n; i++) {
    size[group[i]!]!++;
    if (i < anchor) before[group[i]!]!++;
  }
  return (count) => {
    // repeated positions in all, and before the anchor (integers: exact in float64)
    let total = 0;
    let seen = 0;
    for (let k = 0; k < groups; k++) {
      const c = count[k]!;
      if (c !== 0) {
        total += c * size[k]!;
        seen += c * before[k]!;
      }
    }
    if (total === 0) return NaN;
    const h = (total - 1) * q;
    const lo = Math.floor(h);
    const frac = h - lo;
    let i = anchor;
    // back until the positions before i are at most lo
    while (i > 0 && seen > lo) seen -= count[group[--i]!]!;
    for (; i < n; i++) {
      const c = count[group[i]!]!;
      if (c === 0 || seen + c <= lo) {
        seen += c;
        continue;
      }
      const vLo = sorted[i]!;
      if (frac === 0 || seen + c > lo + 1) return vLo;
      for (let j = i + 1; j < n; j++) if (count[group[j]!]! > 0) return vLo + frac * (sorted[j]! - vLo);
      return vLo;
    }
    return NaN;
  };
}
