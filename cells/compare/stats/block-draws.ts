// The block bootstrap's draws, kept for the next measure over the same buckets. Every measure's bootstrap starts
// its generator from the same seed and, over the same buckets, draws the very same blocks (a million frames' p50,
// p90, p95, p99, jank rate and frames over two deadlines: 16,666 buckets a side, a thousand resamples); drawing
// them once and reading them back gives each measure exactly the resamples it drew before, at a fraction of the
// cost (docs/compare.md, "Speed").
import { seededRng, type Rng } from "./rng";

/** The drawn blocks of both sides: resample r of a side is draws[r·n .. (r + 1)·n), n its blocks. */
export interface Draws {
  a: Uint16Array | Int32Array;
  b: Uint16Array | Int32Array;
  /** resamples drawn so far */
  resamples: number;
}

/** Each run's blocks, runs in the order their first block comes. */
export function blocksByRun(blockRun: Int32Array): Int32Array[] {
  const byRun = new Map<number, number[]>();
  blockRun.forEach((r, k) => {
    const list = byRun.get(r);
    if (list) list.push(k);
    else byRun.set(r, [k]);
  });
  return [...byRun.values()].map((l) => Int32Array.from(l));
}

const sameBlocks = (x: Int32Array, y: Int32Array) => x.length === y.length && x.every((v, i) => v === y[i]);

/**
 * Draws of the last pair of block sets asked for, under one seed: a measure over other buckets starts afresh (the
 * measures of one set of buckets come one after another: the builder keeps them together).
 */
export class SharedDraws {
  private last?: {
    seed: number;
    blockRun: [Int32Array, Int32Array];
    runs: [Int32Array[], Int32Array[]];
    rng: Rng;
    draws: Draws;
  };

  /**
   * The first `resamples` resamples of sides over these blocks, from seededRng(seed): for each resample, every
   * run of A draws as many of its blocks as it has, with replacement, then every run of B does (the order the
   * bootstrap's own draws take).
   */
  draws(seed: number, blockRunA: Int32Array, blockRunB: Int32Array, resamples: number): Draws {
    let e = this.last;
    if (
      !e ||
      e.seed !== seed ||
      !sameBlocks(e.blockRun[0], blockRunA) ||
      !sameBlocks(e.blockRun[1], blockRunB)
    ) {
      e = this.last = {
        seed,
        blockRun: [blockRunA, blockRunB],
        runs: [blocksByRun(blockRunA), blocksByRun(blockRunB)],
        rng: seededRng(seed),
        draws: { a: new Uint16Array(0), b: new Uint16Array(0), resamples: 0 },
      };
    }
    if (e.draws.resamples < resamples)
      e.draws = more(e.draws, e.runs, blockRunA, blockRunB, resamples, e.rng);
    return e.draws;
  }
}

/** The draws of `resamples` resamples from `rng`, nothing kept. */
export const drawBlocks = (
  blockRunA: Int32Array,
  blockRunB: Int32Array,
  resamples: number,
  rng: Rng,
): Draws =>
  more(
    { a: new Uint16Array(0), b: new Uint16Array(0), resamples: 0 },
    [blocksByRun(blockRunA), blocksByRun(blockRunB)],
    blockRunA,
    blockRunB,
    resamples,
    rng,
  );

/** The draws extended to `resamples`, the generator going on where it stopped. */
function more(
  d: Draws,
  runs: [Int32Array[], Int32Array[]],
  blockRunA: Int32Array,
  blockRunB: Int32Array,
  resamples: number,
  rng: Rng,
): Draws {
  const na = blockRunA.length;
  const nb = blockRunB.length;
  const make = (n: number, size: number) => (n <= 65536 ? new Uint16Array(size) : new Int32Array(size));
  const a = make(na, resamples * na);
  const b = make(nb, resamples * nb);
  a.set(d.a);
  b.set(d.b);
  for (let r = d.resamples; r < resamples; r++) {
    let at = r * na;
    for (const blocks of runs[0])
      for (let i = 0; i < blocks.length; i++) a[at++] = blocks[Math.floor(rng() * blocks.length)]!;
    at = r * nb;
    for (const blocks of runs[1])
      for (let i = 0; i < blocks.length; i++) b[at++] = blocks[Math.floor(rng() * blocks.length)]!;
  }
  return { a, b, resamples };
}
