// Benchmarks: each bench/*.bench.ts exports `benchmarks`; bench/run.ts times them and writes JSON.
export interface Benchmark {
  /** e.g. "diagdroid/queue-metrics 1M tasks" */
  name: string;
  /** what measure() returns: "ms" (lower is better), "MB/s" (higher is better), "bytes", ... */
  unit: string;
  /** budget in `unit` from docs/budgets.md; lower-is-better unless higherIsBetter */
  budget?: number;
  higherIsBetter?: boolean;
  runs?: number;
  setup?(): Promise<void> | void;
  /** One measurement. Time only the work, not the setup. */
  measure(): Promise<number> | number;
  /** A named peer measured the same way; the result carries ours / peer's median. */
  peer?: { name: string; measure(): Promise<number> | number; runs?: number };
  teardown?(): Promise<void> | void;
}

export interface BenchResult {
  name: string;
  unit: string;
  median: number;
  p95: number;
  min: number;
  max: number;
  runs: number;
  budget?: number;
  withinBudget?: boolean;
  peer?: { name: string; median: number; ratio: number };
}

export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

export function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}

/** Milliseconds taken by fn. */
export async function timeMs(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
