// Importer for androidx.benchmark `*-benchmarkData.json`: one run per benchmark iteration (a device lab's
// history, DUNE §III), each with the device from the `context` block, `frames` from the per-frame
// sampledMetrics and every metric value in `benchmark_metrics`. Mapping: docs/macrobenchmark.md.
import type { Table } from "apache-arrow";
import type { RunContext } from "../../bundle/manifest";
import type { TableName } from "../../bundle/schema";
import { makeBundleTable } from "../../bundle/table-builder";
import { parseBenchmarkData, type BenchmarkData, type BenchmarkEntry } from "../sources/macrobenchmark";
import type { TextImport } from "./framestats";

const DEFAULT_PERIOD_NS = 16_666_667n;
const msToNs = (ms: number) => BigInt(Math.round(ms * 1e6));

export interface BenchmarkRun {
  runId: string;
  imported: TextImport & { started_at: string | null };
}

/** `brand/product/device:release/id/incremental:type/tags` (android.os.Build.FINGERPRINT) -> release. */
export function releaseFromFingerprint(fp: string | null): string | null {
  return fp ? (/^[^/:]+\/[^/:]+\/[^/:]+:([^/]+)\//.exec(fp)?.[1] ?? null) : null;
}

function benchmarkContext(d: BenchmarkData): Omit<RunContext, "app"> {
  return {
    device_model: d.build.model,
    // The context block has Build.BRAND, not Build.MANUFACTURER; they agree on most phones (google, samsung).
    manufacturer: d.build.brand,
    api_level: d.build.sdk,
    sdk_release: releaseFromFingerprint(d.build.fingerprint),
  };
}

/**
 * Frames of one iteration. The JSON has no timestamps: frame k gets intended_vsync = k x period (synthetic,
 * see the manifest clock note). With frameOverrunMs, duration = period + overrun and deadline = period, so
 * duration - deadline is exactly Macrobenchmark's overrun and jank = overrun > 0; without it (API < 31)
 * duration is frameDurationCpuMs against one period.
 */
export function benchmarkFrames(
  runId: string,
  cpuMs: readonly number[] | null,
  overrunMs: readonly number[] | null,
  periodNs: bigint,
): { table: Table | null; left: number } {
  const n = Math.max(cpuMs?.length ?? 0, overrunMs?.length ?? 0);
  if (!n) return { table: null, left: 0 };
  const duration: bigint[] = [];
  const suspect: (string | null)[] = [];
  let left = 0;
  for (let k = 0; k < n; k++) {
    const o = overrunMs?.[k];
    const ms = o !== undefined ? o : cpuMs![k]!;
    // Beyond int64 ns there is nothing to store; a frame of over a minute is impossible but kept, flagged.
    if (Math.abs(ms) > 9e12) {
      left++;
      continue;
    }
    const d = o !== undefined ? periodNs + msToNs(o) : msToNs(ms);
    duration.push(d);
    suspect.push(d < 0n ? "negative duration" : Math.abs(ms) > 60_000 ? "frame of over a minute" : null);
  }
  if (!duration.length) return { table: null, left };
  const table = makeBundleTable(
    "frames",
    runId,
    {
      intended_vsync: duration.map((_, k) => BigInt(k) * periodNs),
      duration,
      deadline: duration.map(() => periodNs),
      jank: duration.map((d) => d > periodNs),
      suspect,
      source: duration.map(() => "macrobenchmark"),
    },
    duration.length,
  );
  return { table, left };
}

function metricsTable(b: BenchmarkEntry, runId: string, iteration: number): Table | null {
  const benchmark = `${b.className}#${b.name}`;
  const rows: { metric: string; iteration: number | null; stat: string | null; value: number }[] = [];
  for (const m of b.metrics) {
    const run = m.runs[iteration];
    if (typeof run === "number") rows.push({ metric: m.name, iteration, stat: null, value: run });
    else if (Array.isArray(run))
      for (const v of run) rows.push({ metric: m.name, iteration, stat: null, value: v });
    // The summaries cover all iterations: kept once, in iteration 0's run.
    if (iteration === 0)
      for (const [stat, value] of Object.entries(m.summary))
        rows.push({
          metric: m.name,
          iteration: null,
          stat: stat.replace(/^minimum$/, "min").replace(/^maximum$/, "max"),
          value,
        });
  }
  if (!rows.length) return null;
  return makeBundleTable(
    "benchmark_metrics",
    runId,
    {
      benchmark: rows.map(() => benchmark),
      metric: rows.map((r) => r.metric),
      iteration: rows.map((r) => r.iteration),
      stat: rows.map((r) => r.stat),
      value: Float64Array.from(rows, (r) => r.value),
    },
    rows.length,
  );
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");

/** One run per benchmark and iteration, ids `<base>-<benchmark>-i<NNN>`. */
export function importMacrobenchmark(
  text: string,
  file: string,
  baseRunId: string,
  refreshHz: number | null = null,
): BenchmarkRun[] {
  const d = parseBenchmarkData(text, file);
  const period = refreshHz && refreshHz > 0 ? BigInt(Math.round(1e9 / refreshHz)) : DEFAULT_PERIOD_NS;
  const runs: BenchmarkRun[] = [];
  const names = new Set<string>();
  for (const b of d.benchmarks) {
    let name = safe(b.name) || "benchmark";
    while (names.has(name)) name += "_";
    names.add(name);
    const cpu = b.metrics.find((m) => m.sampled && m.name === "frameDurationCpuMs");
    const over = b.metrics.find((m) => m.sampled && m.name === "frameOverrunMs");
    for (let i = 0; i < b.iterations; i++) {
      const runId = `${baseRunId}-${name}-i${String(i).padStart(3, "0")}`;
      const tables: Partial<Record<TableName, Table>> = {};
      const cpuRun = (cpu?.runs[i] as number[] | undefined) ?? null;
      const overRun = (over?.runs[i] as number[] | undefined) ?? null;
      const frames = benchmarkFrames(runId, cpuRun, overRun, period);
      if (frames.table) tables.frames = frames.table;
      const metrics = metricsTable(b, runId, i);
      if (metrics) tables.benchmark_metrics = metrics;
      const warnings = [...d.warnings];
      if (frames.left)
        warnings.push(
          `${file}: ${b.name} iteration ${i}: ${frames.left} frame values beyond what a duration can hold (|ms| > 9e12) left out`,
        );
      if (cpuRun && overRun && cpuRun.length !== overRun.length)
        warnings.push(
          `${file}: ${b.name} iteration ${i}: ${cpuRun.length} frameDurationCpuMs values but ${overRun.length} frameOverrunMs values`,
        );
      const params = Object.entries(b.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(",");
      runs.push({
        runId,
        imported: {
          context: {
            app: "unknown",
            scenario: `${b.className}#${b.name}${params ? `[${params}]` : ""} iteration ${i}`,
            ...benchmarkContext(d),
            refresh_hz: refreshHz,
          },
          tables,
          warnings,
          complete: d.warnings.length === 0 && frames.left === 0,
          source: { kind: "macrobenchmark", origin: file },
          started_at: b.iterationTimes[i] ?? null,
        },
      });
    }
  }
  if (!runs.length && !d.benchmarks.length)
    throw new Error(`${file}: an androidx.benchmark file with no benchmarks`);
  return runs;
}
