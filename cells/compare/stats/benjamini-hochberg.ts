// Benjamini & Hochberg (1995) step-up adjustment, as R's p.adjust(p, "BH"): q_(i) = min_{j ≥ i} p_(j)·m/j, capped
// at 1. NaN p-values (rows not tested) are left NaN and not counted in m.

export function benjaminiHochberg(p: readonly number[]): number[] {
  const idx = p.map((_, i) => i).filter((i) => !Number.isNaN(p[i]!));
  const m = idx.length;
  idx.sort((a, b) => p[b]! - p[a]!); // largest first
  const out = p.map(() => NaN);
  let running = 1;
  idx.forEach((i, k) => {
    const rank = m - k;
    running = Math.min(running, (p[i]! * m) / rank);
    out[i] = Math.min(1, running);
  });
  return out;
}
