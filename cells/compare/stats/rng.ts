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

/** seededRng's state, to go on drawing where a loop of drawInto stopped. */
export interface RngState {
  s: number;
}

export const rngState = (seed: number): RngState => ({ s: seed >>> 0 });

/**
 * out[at + i] = blocks[⌊u · blocks.length⌋] for blocks.length draws u of seededRng: the same values in the same
 * order, the generator written out in the loop (a closure call per draw cost a third more: 33M draws a measure).
 */
export function drawInto(
  state: RngState,
  blocks: Int32Array,
  out: Uint16Array | Int32Array,
  at: number,
): void {
  let s = state.s;
  const n = blocks.length;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[at + i] = blocks[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)]!;
  }
  state.s = s;
}
