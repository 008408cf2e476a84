// simpleperf stat output: parse + hpc_samples throughput on a generated --interval series, the size an hour
// of `jankbook collect --counters` gives (36,000 reports of 8 counters at 100 ms, about 27 MB of text).
import { hpcSamples } from "../collectors/sources/simpleperf-samples";
import { parseSimpleperfStat } from "../collectors/sources/simpleperf-stat";
import { formatStatReport, type StatWriteRow } from "../collectors/sources/simpleperf-stat-writer";
import { DEFAULT_COUNTER_EVENTS } from "../collectors/adb/counters";
import { timeMs, type Benchmark } from "./harness";

// The events `jankbook collect --counters` asks for: the bench parses what the collector really reads.
const EVENTS = DEFAULT_COUNTER_EVENTS;

export function syntheticStat(reports: number, seed = 1): string {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const totals = EVENTS.map(() => 0n);
  const parts: string[] = [];
  for (let k = 1; k <= reports; k++) {
    const rows: StatWriteRow[] = EVENTS.map((counter, i) => {
      totals[i] = totals[i]! + BigInt(Math.floor(rand() * 2e8));
      return { counter, count: totals[i]!, runtimeNs: BigInt(k) * 50_000_000n };
    });
    parts.push(formatStatReport({ elapsedNs: BigInt(k) * 100_000_000n + 123_000n, rows }, "current"));
  }
  return parts.join("");
}

let text = "";
export const benchmarks: Benchmark[] = [
  {
    name: "simpleperf/parse+hpc_samples 1 h of --interval 100 (MB/s)",
    unit: "MB/s",
    higherIsBetter: true,
    setup() {
      text = syntheticStat(36_000);
    },
    async measure() {
      let rows = 0;
      const ms = await timeMs(
        () => (rows = hpcSamples(parseSimpleperfStat(text), { values: "cumulative" }).ts.length),
      );
      if (rows !== 36_000 * EVENTS.length)
        throw new Error(`expected ${36_000 * EVENTS.length} samples, got ${rows}`);
      return text.length / 1e6 / (ms / 1000);
    },
  },
];
