// A side's statistic over all its units, per run and per block, in typed arrays and linear passes (a side can
// hold a million frames), and Cliff's δ over the units a side stands for (docs/compare.md, "Speed").
import type { MetricSide } from "./compare-metric";
import type { SideStatistic } from "./stats/bootstrap";
import { quantileSorted } from "./stats/quantile";
import { ascending, cliffsDeltaSorted, isAscending } from "./stats/sorted-units";

/** The side's statistic over all its units: Σ value / Σ weight, or the type-7 quantile of the values. */
export function sideStatistic(side: MetricSide, stat: SideStatistic): number {
  if (stat.kind === "quantile") return quantileSorted(ascending(side.value), stat.q);
  let v = 0;
  let w = 0;
  for (let i = 0; i < side.value.length; i++) {
    v += side.value[i]!;
    w += side.weight[i]!;
  }
  return w > 0 ? v / w : NaN;
}

/** The statistic of each group of units (group[i] in 0..groups − 1; NaN where a group has none), units in order. */
function perGroup(side: MetricSide, stat: SideStatistic, group: Int32Array, groups: number): Float64Array {
  const out = new Float64Array(groups).fill(NaN);
  const n = new Int32Array(groups);
  for (let i = 0; i < group.length; i++) n[group[i]!]!++;
  if (stat.kind === "mean") {
    const v = new Float64Array(groups);
    const w = new Float64Array(groups);
    for (let i = 0; i < group.length; i++) {
      v[group[i]!]! += side.value[i]!;
      w[group[i]!]! += side.weight[i]!;
    }
    for (let g = 0; g < groups; g++) if (n[g]! > 0) out[g] = w[g]! > 0 ? v[g]! / w[g]! : NaN;
    return out;
  }
  // each group's values, in unit order: still ascending when the side's are
  const start = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) start[g + 1] = start[g]! + n[g]!;
  const at = start.slice(0, groups);
  const values = new Float64Array(group.length);
  for (let i = 0; i < group.length; i++) values[at[group[i]!]!++] = side.value[i]!;
  const sorted = isAscending(side.value);
  for (let g = 0; g < groups; g++) {
    if (n[g] === 0) continue;
    const part = values.subarray(start[g]!, start[g + 1]!);
    out[g] = quantileSorted(sorted ? part : part.sort(), stat.q);
  }
  return out;
}

/** Each run's statistic over its own units (NaN where a run has none). */
export function perRun(side: MetricSide, stat: SideStatistic): Float64Array {
  const run = new Int32Array(side.block.length);
  for (let i = 0; i < run.length; i++) run[i] = side.blockRun[side.block[i]!]!;
  return perGroup(side, stat, run, side.runs.length);
}

/** Each block's statistic over its own units, blocks in the order their first unit comes (none: left out). */
export function perBlock(side: MetricSide, stat: SideStatistic): Float64Array {
  const slot = new Int32Array(side.blockRun.length).fill(-1);
  let used = 0;
  const group = new Int32Array(side.block.length);
  for (let i = 0; i < side.block.length; i++) {
    const b = side.block[i]!;
    if (slot[b]! < 0) slot[b] = used++;
    group[i] = slot[b]!;
  }
  return perGroup(side, stat, group, used).filter((x) => !Number.isNaN(x));
}

/** How many blocks hold a unit of the side. */
export function blocksWithUnits(side: MetricSide): number {
  const seen = new Uint8Array(side.blockRun.length);
  let n = 0;
  for (let i = 0; i < side.block.length; i++)
    if (!seen[side.block[i]!]) {
      seen[side.block[i]!] = 1;
      n++;
    }
  return n;
}

/** Cliff's δ of B against A over the units the sides stand for (their samples, where units were summed). */
export function unitsDelta(a: MetricSide, b: MetricSide): number {
  return cliffsDeltaSorted(
    a.sample ? a.sample.value : ascending(a.value),
    b.sample ? b.sample.value : ascending(b.value),
    a.sample?.count,
    b.sample?.count,
  );
}
