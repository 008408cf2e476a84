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

/** Units numbered by group (group[i] in 0..groups − 1), and, once a quantile asks, each group's values in unit order. */
interface Grouping {
  group: Int32Array;
  groups: number;
  n: Int32Array;
  parts?: { start: Int32Array; values: Float64Array };
}

// A side's groupings by run and by block, kept per value array: the four quantiles of a million frames group the
// same units (the side's block and blockRun must be the ones the grouping was made from).
const groupings = new WeakMap<
  Float64Array,
  { block: Int32Array; blockRun: Int32Array; by: Map<"run" | "block", Grouping> }
>();

function groupingOf(side: MetricSide, by: "run" | "block", make: () => [Int32Array, number]): Grouping {
  let cached = groupings.get(side.value);
  if (!cached || cached.block !== side.block || cached.blockRun !== side.blockRun) {
    cached = { block: side.block, blockRun: side.blockRun, by: new Map() };
    groupings.set(side.value, cached);
  }
  let g = cached.by.get(by);
  if (!g) {
    const [group, groups] = make();
    const n = new Int32Array(groups);
    for (let i = 0; i < group.length; i++) n[group[i]!]!++;
    cached.by.set(by, (g = { group, groups, n }));
  }
  return g;
}

/** The statistic of each group of units (NaN where a group has none), units in order. */
function perGroup(side: MetricSide, stat: SideStatistic, g: Grouping): Float64Array {
  const { group, groups, n } = g;
  const out = new Float64Array(groups).fill(NaN);
  if (stat.kind === "mean") {
    const v = new Float64Array(groups);
    const w = new Float64Array(groups);
    for (let i = 0; i < group.length; i++) {
      v[group[i]!]! += side.value[i]!;
      w[group[i]!]! += side.weight[i]!;
    }
    for (let k = 0; k < groups; k++) if (n[k]! > 0) out[k] = w[k]! > 0 ? v[k]! / w[k]! : NaN;
    return out;
  }
  // each group's values, in unit order (still ascending when the side's are), sorted once for every quantile
  if (!g.parts) {
    const start = new Int32Array(groups + 1);
    for (let k = 0; k < groups; k++) start[k + 1] = start[k]! + n[k]!;
    const at = start.slice(0, groups);
    const values = new Float64Array(group.length);
    for (let i = 0; i < group.length; i++) values[at[group[i]!]!++] = side.value[i]!;
    if (!isAscending(side.value))
      for (let k = 0; k < groups; k++) values.subarray(start[k]!, start[k + 1]!).sort();
    g.parts = { start, values };
  }
  const { start, values } = g.parts;
  for (let k = 0; k < groups; k++)
    if (n[k]! > 0) out[k] = quantileSorted(values.subarray(start[k]!, start[k + 1]!), stat.q);
  return out;
}

/** Each run's statistic over its own units (NaN where a run has none). */
export function perRun(side: MetricSide, stat: SideStatistic): Float64Array {
  const g = groupingOf(side, "run", () => {
    const run = new Int32Array(side.block.length);
    for (let i = 0; i < run.length; i++) run[i] = side.blockRun[side.block[i]!]!;
    return [run, side.runs.length];
  });
  return perGroup(side, stat, g);
}

/** Units grouped by block, blocks numbered in the order their first unit comes. */
const byBlock = (side: MetricSide) =>
  groupingOf(side, "block", () => {
    const slot = new Int32Array(side.blockRun.length).fill(-1);
    let used = 0;
    const group = new Int32Array(side.block.length);
    for (let i = 0; i < side.block.length; i++) {
      const b = side.block[i]!;
      if (slot[b]! < 0) slot[b] = used++;
      group[i] = slot[b]!;
    }
    return [group, used];
  });

/** Each block's statistic over its own units, blocks in the order their first unit comes (none: left out). */
export function perBlock(side: MetricSide, stat: SideStatistic): Float64Array {
  return perGroup(side, stat, byBlock(side)).filter((x) => !Number.isNaN(x));
}

/** How many blocks hold a unit of the side. */
export function blocksWithUnits(side: MetricSide): number {
  return byBlock(side).groups;
}

// Cliff's δ of two sides' units, kept per pair of value arrays (the four quantiles of the frames compare the same)
const deltas = new WeakMap<Float64Array, WeakMap<Float64Array, number>>();

/** Cliff's δ of B against A over the units the sides stand for (their samples, where units were summed). */
export function unitsDelta(a: MetricSide, b: MetricSide): number {
  if (a.sample || b.sample)
    return cliffsDeltaSorted(
      a.sample ? a.sample.value : ascending(a.value),
      b.sample ? b.sample.value : ascending(b.value),
      a.sample?.count,
      b.sample?.count,
    );
  let byB = deltas.get(a.value);
  if (!byB) deltas.set(a.value, (byB = new WeakMap()));
  let d = byB.get(b.value);
  if (d === undefined) byB.set(b.value, (d = cliffsDeltaSorted(ascending(a.value), ascending(b.value))));
  return d;
}
