// Edit distance between execution contexts (DiagDroid §4.2): each stack frame is one symbol, insertions,
// deletions and substitutions cost 1 (Levenshtein over frames, not characters).

/** Levenshtein distance between two call stacks, frames compared as whole strings. */
export function editDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  const m = b.length;
  if (m === 0) return a.length;
  // One row of the DP table over the shorter stack.
  const row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const up = row[j]!;
      const sub = diag + (ai === b[j - 1] ? 0 : 1);
      const del = up + 1;
      const ins = row[j - 1]! + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      diag = up;
    }
  }
  return row[m]!;
}

/** Reusable scratch rows for {@link boundedEditDistance}; grows as needed. */
export interface EditScratch {
  prev: Int32Array;
  cur: Int32Array;
}

export function editScratch(size = 64): EditScratch {
  return { prev: new Int32Array(size + 1), cur: new Int32Array(size + 1) };
}

/**
 * Edit distance between interned stacks a[aFrom..aTo) and b[bFrom..bTo) if it is ≤ k, else k + 1.
 * Exact within the bound: strips the common prefix and suffix (they never change Levenshtein distance),
 * rejects by length difference, then fills only the diagonal band |i − j| ≤ k and stops as soon as a whole
 * band row exceeds k (every later cell is at least that row's minimum).
 */
export function boundedEditDistance(
  a: Int32Array,
  aFrom: number,
  aTo: number,
  b: Int32Array,
  bFrom: number,
  bTo: number,
  k: number,
  scratch: EditScratch = editScratch(),
): number {
  while (aFrom < aTo && bFrom < bTo && a[aFrom] === b[bFrom]) (aFrom++, bFrom++);
  while (aFrom < aTo && bFrom < bTo && a[aTo - 1] === b[bTo - 1]) (aTo--, bTo--);
  let n = aTo - aFrom;
  let m = bTo - bFrom;
  if (n < m) {
    [a, b] = [b, a];
    [aFrom, bFrom] = [bFrom, aFrom];
    [n, m] = [m, n];
  }
  if (n - m > k) return k + 1;
  if (m === 0) return n;
  if (scratch.prev.length < m + 1) {
    scratch.prev = new Int32Array(2 * (m + 1));
    scratch.cur = new Int32Array(2 * (m + 1));
  }
  const over = k + 1;
  let prev = scratch.prev;
  let cur = scratch.cur;
  for (let j = 0; j <= m; j++) prev[j] = j <= k ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = i - k > 1 ? i - k : 1;
    const hi = i + k < m ? i + k : m;
    // Cells just outside the band count as "over the bound".
    cur[lo - 1] = lo === 1 ? (i <= k ? i : over) : over;
    let rowMin = cur[lo - 1]!;
    const ai = a[aFrom + i - 1];
    for (let j = lo; j <= hi; j++) {
      let v = prev[j - 1]! + (ai === b[bFrom + j - 1] ? 0 : 1);
      const del = prev[j]! + 1;
      if (del < v) v = del;
      const ins = cur[j - 1]! + 1;
      if (ins < v) v = ins;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = over;
    if (rowMin > k) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  const d = prev[m]!;
  return d > k ? over : d;
}
