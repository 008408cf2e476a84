// Seeded randomness for the simulated phone: every run of a scenario with one seed is the same run.
export type Rand = () => number;

export function mulberry32(seed: number): Rand {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** uniform in [lo, hi) */
export const between = (r: Rand, lo: number, hi: number) => lo + (hi - lo) * r();
