// The block bootstrap's draws kept across measures (block-draws.ts) against drawing them afresh with seededRng for
// each measure, as the bootstrap did: the same blocks in the same order, whether the resamples are asked for at
// once or a few first and more later, by one run or several a side, with block numbers past 16 bits; none kept
// past the memory allowed; and a block bootstrap reading them gives the same answer as one drawing its own.
import { describe, expect, it } from "vitest";
import { blocksByRun, SharedDraws } from "../../../cells/compare/stats/block-draws";
import { bootstrapBlocks } from "../../../cells/compare/stats/bootstrap";
import { drawInto, rngState, seededRng } from "../../../cells/compare/stats/rng";

/** Each run draws as many of its blocks as it has, with seededRng, A's runs then B's, resample after resample. */
function byHand(blockRunA: Int32Array, blockRunB: Int32Array, resamples: number, seed: number) {
  const rng = seededRng(seed);
  const a: number[] = [];
  const b: number[] = [];
  const runs = (blockRun: Int32Array) => {
    const byRun = new Map<number, number[]>();
    blockRun.forEach((r, k) => {
      if (!byRun.has(r)) byRun.set(r, []);
      byRun.get(r)!.push(k);
    });
    return [...byRun.values()];
  };
  for (let r = 0; r < resamples; r++)
    for (const [out, blockRun] of [
      [a, blockRunA],
      [b, blockRunB],
    ] as const)
      for (const blocks of runs(blockRun))
        for (let i = 0; i < blocks.length; i++) out.push(blocks[Math.floor(rng() * blocks.length)]!);
  return { a, b };
}

describe("drawInto", () => {
  it("draws what seededRng draws, and goes on where it stopped", () => {
    const blocks = Int32Array.from({ length: 37 }, (_, i) => 3 * i + 1);
    const rng = seededRng(42);
    const want = Array.from({ length: 74 }, () => blocks[Math.floor(rng() * 37)]!);
    const state = rngState(42);
    const out = new Int32Array(74);
    drawInto(state, blocks, out, 0);
    drawInto(state, blocks, out, 37);
    expect(Array.from(out)).toEqual(want);
  });
});

describe("SharedDraws", () => {
  // runs interleaved in block order (run 1's blocks come first), one run of a single block
  const blockRunA = Int32Array.of(1, 1, 0, 0, 0, 1, 2);
  const blockRunB = Int32Array.of(0, 0, 0, 0, 0);

  it("gives seededRng's draws, asked for at once or a few first", () => {
    const want = byHand(blockRunA, blockRunB, 30, 9);
    const atOnce = new SharedDraws().draws(9, blockRunA, blockRunB, 30)!;
    expect([Array.from(atOnce.a), Array.from(atOnce.b)]).toEqual([want.a, want.b]);
    const shared = new SharedDraws(30);
    const few = shared.draws(9, blockRunA, blockRunB, 4)!;
    expect(Array.from(few.a.subarray(0, 4 * 7))).toEqual(want.a.slice(0, 4 * 7));
    const more = shared.draws(9, Int32Array.from(blockRunA), Int32Array.from(blockRunB), 30)!;
    expect(more.resamples).toBe(30);
    expect([Array.from(more.a), Array.from(more.b)]).toEqual([want.a, want.b]);
    // another seed or other blocks start afresh
    const other = shared.draws(10, blockRunA, blockRunB, 30)!;
    expect(Array.from(other.a)).toEqual(byHand(blockRunA, blockRunB, 30, 10).a);
  });

  it("numbers blocks past 16 bits", () => {
    const many = new Int32Array(70_000);
    const d = new SharedDraws().draws(3, many, blockRunB, 2)!;
    const want = byHand(many, blockRunB, 2, 3);
    expect(d.a).toBeInstanceOf(Int32Array);
    expect(Array.from(d.a)).toEqual(want.a);
    expect(Array.from(d.a).reduce((m, x) => Math.max(m, x), 0)).toBeGreaterThan(65_535);
  });

  it("lets a block bootstrap give the answer it gives drawing its own", () => {
    const side = (values: number[], blockRun: Int32Array) => ({
      value: Float64Array.from(values),
      weight: new Float64Array(values.length).fill(1),
      block: Int32Array.from(values, (_, i) => i % blockRun.length),
      blockRun,
    });
    const a = side([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7], blockRunA);
    const b = side([2, 7, 1, 8, 2, 8, 1, 8, 2, 8], blockRunB);
    const shared = new SharedDraws(200);
    // room for 200 resamples of 12 blocks is 4,800 bytes: with less, none are kept and the bootstrap draws its own
    const tooSmall = new SharedDraws(200, 4_799);
    expect(tooSmall.draws(1, blockRunA, blockRunB, 200)).toBeUndefined();
    expect(new SharedDraws(200, 4_800).draws(1, blockRunA, blockRunB, 200)).toBeDefined();
    for (const stat of [{ kind: "quantile", q: 0.9 } as const, { kind: "mean" } as const]) {
      const own = bootstrapBlocks(a, b, stat, "ratio", { resamples: 200, level: 0.95, rng: seededRng(1) });
      for (const draws of [shared, tooSmall]) {
        const kept = bootstrapBlocks(a, b, stat, "ratio", {
          resamples: 200,
          level: 0.95,
          rng: seededRng(1),
          shared: { draws, seed: 1 },
        });
        expect(kept).toEqual(own);
      }
      expect(own.se).toBeGreaterThan(0);
    }
  });

  it("groups blocks by run in the order the runs first come", () => {
    expect(blocksByRun(blockRunA).map((x) => Array.from(x))).toEqual([[0, 1, 5], [2, 3, 4], [6]]);
  });
});
