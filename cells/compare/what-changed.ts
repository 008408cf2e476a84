// "What changed most": every compared measure in one list, Benjamini–Hochberg adjusted over the whole list (all
// analyses together, so the false discovery rate holds for the list a reader sees), judged against the minimum
// effect, and ranked: significant changes first (regressions, then improvements), by effect size (|Cliff's δ|,
// causes before symptoms, then the size of the change); the rest by adjusted p. Rows from other analyses (e.g. a differential profile) join through `extra`.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import {
  COMPARE_DEFAULTS,
  compareMetric,
  judge,
  perRun,
  type CompareOptions,
  type CompareRow,
  type Metric,
} from "./compare-metric";
import { benjaminiHochberg } from "./stats/benjamini-hochberg";
import { SharedDraws } from "./stats/block-draws";

/**
 * How large a change is, for rows of equal |δ| and tier: the absolute difference for times (ms, ms/s), times 100 for rates (a
 * point of jank weighs about a millisecond), |ln ratio| for other units (pixels, counts per second).
 */
const size = (r: CompareRow) =>
  r.unit === "ms" || r.unit === "ms/s"
    ? Math.abs(r.b - r.a)
    : r.unit === "share"
      ? 100 * Math.abs(r.b - r.a)
      : Math.abs(Math.log(r.b / r.a));

const orNaN = (x: number, fallback: number) => (Number.isNaN(x) ? fallback : x);
const absDelta = (r: CompareRow) => Math.round(orNaN(Math.abs(r.delta), 0) * 100);

/**
 * Causes first (a task group, a view, a method), then symptoms of one interaction or layer (the frames after a
 * UI event, a FrameTimeline layer), then all frames together.
 */
const tier = (r: CompareRow) =>
  r.analysis !== "frames" && r.analysis !== "frame-timeline" ? 0 : r.subject.startsWith("all frames") ? 2 : 1;
const direction = (r: CompareRow) => (r.direction === "regression" ? 0 : 1);

/**
 * Significant rows first, regressions before improvements (what a reviewer acts on), each by |Cliff's δ|, then
 * causes before symptoms (a slower view explains slower frames), then the size of the change, then |Cohen's d|
 * (how many run-to-run or bucket-to-bucket deviations apart); the rest by adjusted p, then |δ|.
 */
export function rankRows(rows: CompareRow[]): CompareRow[] {
  return rows.sort(
    (x, y) =>
      Number(y.significant) - Number(x.significant) ||
      (x.significant
        ? direction(x) - direction(y) ||
          absDelta(y) - absDelta(x) ||
          tier(x) - tier(y) ||
          orNaN(size(y), 0) - orNaN(size(x), 0) ||
          orNaN(Math.abs(y.d), 0) - orNaN(Math.abs(x.d), 0)
        : orNaN(x.q, 2) - orNaN(y.q, 2) || absDelta(y) - absDelta(x)) ||
      x.key.localeCompare(y.key),
  );
}

/**
 * Compares every metric, adjusts the p-values over the whole list (the extra rows' too), judges each row and
 * ranks them. Extra rows bring their own p; their q, direction and significance are set here.
 */
export function whatChanged(
  metrics: readonly Metric[],
  options: CompareOptions = {},
  extra: readonly CompareRow[] = [],
): CompareRow[] {
  // one store of block draws for the list: measures over the same buckets draw the same blocks
  const draws = new SharedDraws(options.resamples ?? COMPARE_DEFAULTS.resamples);
  const rows = [...metrics.map((m) => compareMetric(m, options, draws)), ...extra.map((r) => ({ ...r }))];
  const q = benjaminiHochberg(rows.map((r) => r.p));
  rows.forEach((r, i) => {
    r.q = q[i]!;
    judge(r, options);
  });
  return rankRows(rows);
}

/** The rows a gate fails on: significant regressions. */
export const regressions = (rows: readonly CompareRow[]) =>
  rows.filter((r) => r.significant && r.direction === "regression");

/** The chart of one row: each side's values per run (several runs) or per UI-event bucket (one run), as dots. */
export function whatChangedPlot(metric: Metric, row?: CompareRow): ChartSpec {
  const data: { side: string; value: number; unit: string }[] = [];
  for (const [name, side] of [
    ["A", metric.a],
    ["B", metric.b],
  ] as const) {
    if (row?.method === "runs")
      perRun(side, metric.statistic).forEach(
        (v, r) => Number.isFinite(v) && data.push({ side: name, value: v, unit: side.runs[r]! }),
      );
    else {
      // per block: the block's own statistic (mean) or, for quantiles, every unit
      const sums = new Map<number, [number, number]>();
      for (let i = 0; i < side.value.length; i++) {
        if (metric.statistic.kind === "quantile")
          data.push({ side: name, value: side.value[i]!, unit: `block ${side.block[i]}` });
        else {
          const s = sums.get(side.block[i]!) ?? [0, 0];
          s[0] += side.value[i]!;
          s[1] += side.weight[i]!;
          sums.set(side.block[i]!, s);
        }
      }
      for (const [b, [v, w]] of sums) if (w > 0) data.push({ side: name, value: v / w, unit: `block ${b}` });
    }
  }
  return chartSpec("whatChangedPlot", {
    mark: "dot",
    data,
    x: "value",
    y: "side",
    fill: "side",
    title: `${metric.subject}: ${metric.measure} (${metric.unit})`,
    options: { title: "unit" },
    // the axis names the measure and its unit, not the column ("value")
    layout: { x: { label: `${metric.measure} (${metric.unit})` } },
  });
}

/** The list as a bar chart of the top rows' changes (log ratio or difference), coloured by direction. */
export function whatChangedListPlot(rows: readonly CompareRow[], options: { top?: number } = {}): ChartSpec {
  const data = rows.slice(0, options.top ?? 20).map((r, i) => ({
    rank: i + 1,
    label: `${i + 1}. ${r.subject}: ${r.measure}`,
    change: r.scale === "ratio" ? Math.log2(Number.isFinite(r.change) ? r.change : 1024) : r.change,
    direction: r.significant ? r.direction : "not significant",
    key: r.key,
  }));
  return chartSpec("whatChangedListPlot", {
    mark: "barX",
    data,
    x: "change",
    y: "label",
    fill: "direction",
    select: "key",
    title: "what changed most (log2 ratio, or difference of a rate)",
    layout: { marginLeft: 320, y: { domain: data.map((d) => d.label) } },
  });
}

export { COMPARE_DEFAULTS };
