// Seeded randomness for the bootstraps: one seed, one answer, so a report and its test agree.
export type Rng = () => number;

/** mulberry32: a small 32-bit generator, uniform in [0, 1). */
export function seededRng(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
