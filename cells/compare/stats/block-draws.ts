// The block bootstrap's draws, kept for the next measure over the same buckets. Every measure's bootstrap starts
// its generator from the same seed and, over the same buckets, draws the very same blocks (a million frames' p50,
// p90, p95, p99, jank rate and frames over two deadlines: 16,666 buckets a side, a thousand resamples); drawing
// them once and reading them back gives each measure exactly the resamples it drew before, at a fraction of the
// cost (docs/compare.md, "Speed").
import { drawInto, rngState, type RngState } from "./rng";

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

/** Bytes of draws kept at most (two 1M-frame runs' 16,666 buckets a side, 1,000 resamples: 67 MB). */
export const KEEP_BYTES = 128 * 2 ** 20;

const bytesPerDraw = (blocks: number) => (blocks <= 65536 ? 2 : 4);

/**
 * Draws of the last pair of block sets asked for, under one seed: a measure over other buckets starts afresh (the
 * measures of one set of buckets come one after another: the builder keeps them together). Past `keepBytes` none
 * are kept, and the bootstrap draws as it goes.
 */
export class SharedDraws {
  private last?: {
    seed: number;
    blockRun: [Int32Array, Int32Array];
    runs: [Int32Array[], Int32Array[]];
    state: RngState;
    draws: Draws;
  };

  /** `capacity`: the most resamples a measure will ask for, room made for them at once */
  constructor(
    private readonly capacity = 0,
    private readonly keepBytes = KEEP_BYTES,
  ) {}

  /**
   * The first `resamples` resamples of sides over these blocks, from seededRng(seed): for each resample, every
   * run of A draws as many of its blocks as it has, with replacement, then every run of B does (the order the
   * bootstrap's own draws take).
   */
  draws(seed: number, blockRunA: Int32Array, blockRunB: Int32Array, resamples: number): Draws | undefined {
    const room = Math.max(resamples, this.capacity);
    const bytes = (n: number) => room * n * bytesPerDraw(n);
    if (bytes(blockRunA.length) + bytes(blockRunB.length) > this.keepBytes) return undefined;
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
        state: rngState(seed),
        draws: { a: new Uint16Array(0), b: new Uint16Array(0), resamples: 0 },
      };
    }
    const d = e.draws;
    if (d.resamples >= resamples) return d;
    if (d.a.length < resamples * blockRunA.length) {
      d.a = grown(d.a, blockRunA.length, room);
      d.b = grown(d.b, blockRunB.length, room);
    }
    for (; d.resamples < resamples; d.resamples++)
      for (const [s, out] of [d.a, d.b].entries()) {
        let at = d.resamples * (s === 0 ? blockRunA : blockRunB).length;
        for (const blocks of e.runs[s]!) {
          drawInto(e.state, blocks, out, at);
          at += blocks.length;
        }
      }
    return d;
  }
}

/** Room for `resamples` resamples of n blocks, what was drawn kept (block numbers below 2^16 in 16 bits). */
function grown(old: Uint16Array | Int32Array, n: number, resamples: number): Uint16Array | Int32Array {
  const out = n <= 65536 ? new Uint16Array(resamples * n) : new Int32Array(resamples * n);
  out.set(old);
  return out;
}
