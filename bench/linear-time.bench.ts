// How parse time grows with the length of one long line, for every hostile shape of test/support/long-lines.ts:
// t(4n) / t(n) at n = 250,000 characters (linear gives ~4, quadratic ~16). The test suite only checks that a
// 2,000,000-character line is read at all (no clock in tests, docs/testing.md); the growth is measured here.
import { longLineCases } from "../test/support/long-lines";
import { timeMs, type Benchmark } from "./harness";

const N = 250_000;

/** The fastest of 3 runs: noise on a shared machine only ever adds time. */
async function best(run: () => unknown): Promise<number> {
  let ms = Infinity;
  for (let k = 0; k < 3; k++) ms = Math.min(ms, await timeMs(run));
  return Math.max(ms, 0.05);
}

export const benchmarks: Benchmark[] = [
  {
    name: "linear-time/worst t(4n)/t(n) over every long-line shape, n = 250,000 (ratio)",
    unit: "ratio",
    budget: 10,
    runs: 1,
    async measure() {
      let worst = 0;
      for (const c of longLineCases()) {
        c.run(N / 10); // warm up the JIT
        const ratio = (await best(() => c.run(4 * N))) / (await best(() => c.run(N)));
        process.stderr.write(`  ${ratio.toFixed(2)}  ${c.name}\n`);
        worst = Math.max(worst, ratio);
      }
      return worst;
    },
  },
];
