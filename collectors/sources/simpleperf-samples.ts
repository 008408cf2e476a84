// simpleperf stat reports -> hpc_samples rows: one row per report, counter and core, holding the count of
// that interval. simpleperf's --interval prints running totals unless --interval-only-values was given
// (cmd_stat.cpp AdjustToIntervalOnlyValues), and the output does not say which; see `values`.
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../bundle/table-builder";
import type { SimpleperfStat } from "./simpleperf-stat";

export interface HpcSampleOptions {
  /** "cumulative": running totals (simpleperf's default); "interval": --interval-only-values; "auto" (default):
   * cumulative when every series never decreases over two or more reports, else interval */
  values?: "auto" | "cumulative" | "interval";
  /** added to every report's elapsed time: the device CLOCK_MONOTONIC at which counting began (default 0) */
  originNs?: bigint;
}

export interface HpcSamples {
  ts: bigint[];
  cpu: (number | null)[];
  counter: string[];
  value: number[];
  /** how the values were read */
  values: "cumulative" | "interval";
  warnings: string[];
}

/** Rows in report order. Not-counted rows give no sample; "(generated)" :u+:k sums are left out (they
 * are the sum of two rows kept); --per-thread counts are summed per counter and core (no thread column). */
export function hpcSamples(stat: SimpleperfStat, o: HpcSampleOptions = {}): HpcSamples {
  const origin = o.originNs ?? 0n;
  const warnings: string[] = [];
  const key = (r: { counter: string; cpu: number | null; thread: { tid: number } | null }) =>
    `${r.counter}\u0000${r.cpu ?? ""}\u0000${r.thread?.tid ?? ""}`;
  const values = o.values === "cumulative" || o.values === "interval" ? o.values : guessValues(stat, key);
  if (o.values !== values && stat.reports.length > 1)
    warnings.push(
      values === "cumulative"
        ? `${stat.reports.length} reports read as running totals (simpleperf stat --interval prints those unless --interval-only-values); each sample is the difference from the report before`
        : `${stat.reports.length} reports read as per-interval counts (--interval-only-values): some counts go down from one report to the next`,
    );

  const out: HpcSamples = { ts: [], cpu: [], counter: [], value: [], values, warnings };
  const last = new Map<string, bigint>();
  const notCounted = new Map<string, number>();
  const minPct = new Map<string, number>();
  let prevElapsed = -1n;
  for (const report of stat.reports) {
    if (report.elapsedNs <= prevElapsed) {
      warnings.push(
        `report at line ${report.line}: its time (${fmtSec(report.elapsedNs)} s) is not after the one before (${fmtSec(prevElapsed)} s): a new simpleperf run; running totals start again`,
      );
      last.clear();
    }
    prevElapsed = report.elapsedNs;
    // (counter, cpu) -> summed value of this report, in first-seen order
    const sums = new Map<string, { counter: string; cpu: number | null; value: bigint }>();
    for (const row of report.rows) {
      if (row.generated) continue;
      if (!row.counted || row.count === null) {
        notCounted.set(row.counter, (notCounted.get(row.counter) ?? 0) + 1);
        continue;
      }
      if (row.runtimePct !== null && row.cpu === null && row.runtimePct < 100)
        minPct.set(row.counter, Math.min(minPct.get(row.counter) ?? 100, row.runtimePct));
      let v = row.count;
      if (values === "cumulative") {
        const k = key(row);
        const before = last.get(k) ?? 0n;
        last.set(k, row.count);
        if (row.count < before)
          warnings.push(
            `line ${row.line}: ${row.counter} went down from ${before} to ${row.count}; not a running total, kept as is`,
          );
        else v = row.count - before;
      }
      const sk = `${row.counter}\u0000${row.cpu ?? ""}`;
      const s = sums.get(sk);
      if (s) s.value += v;
      else sums.set(sk, { counter: row.counter, cpu: row.cpu, value: v });
    }
    for (const s of sums.values()) {
      out.ts.push(origin + report.elapsedNs);
      out.cpu.push(s.cpu);
      out.counter.push(s.counter);
      out.value.push(Number(s.value));
    }
  }
  if (stat.perThread)
    warnings.push(
      "--per-thread output: counts summed over threads per counter and core (hpc_samples has no thread column)",
    );
  for (const [c, n] of notCounted)
    warnings.push(
      `${c}: not counted in ${n} of ${stat.reports.length} reports (no time on a hardware counter: multiplexed out, or not supported by this PMU); no sample for those`,
    );
  for (const [c, p] of minPct)
    warnings.push(
      `${c}: counted only ${p}% of the time in some reports (hardware counter multiplexing); values are the raw counts as printed, not scaled up`,
    );
  for (const e of stat.unsupported)
    warnings.push(`simpleperf refused event ${e}: not supported on this device`);
  return out;
}

function guessValues(
  stat: SimpleperfStat,
  key: (r: SimpleperfStat["reports"][number]["rows"][number]) => string,
): "cumulative" | "interval" {
  if (stat.reports.length < 2) return "cumulative"; // one report: the total is the only interval
  const last = new Map<string, bigint>();
  let prevElapsed = -1n;
  for (const report of stat.reports) {
    if (report.elapsedNs <= prevElapsed) last.clear();
    prevElapsed = report.elapsedNs;
    for (const row of report.rows) {
      if (!row.counted || row.count === null || row.generated) continue;
      const k = key(row);
      const before = last.get(k);
      if (before !== undefined && row.count < before) return "interval";
      last.set(k, row.count);
    }
  }
  return "cumulative";
}

function fmtSec(ns: bigint): string {
  return (Number(ns) / 1e9).toFixed(6);
}

/** The hpc_samples bundle table. */
export function hpcSamplesTable(runId: string, s: HpcSamples): Table {
  return makeBundleTable(
    "hpc_samples",
    runId,
    { ts: s.ts, cpu: s.cpu, counter: s.counter, value: s.value },
    s.ts.length,
  );
}
