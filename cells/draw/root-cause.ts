// Rendering performance diagnosis (DRAW §V-B): correlation graph → significance (Algorithm 1) →
// contributions of views to features → root cause score RCS(v) = Σ_j sig(f_j, p) · con(v, f_j) (Eq. 3).
//
// Interactions without any frame are left out (nothing was rendered to diagnose). con(v, f) is computed
// per interaction and averaged over the diagnosed interactions (a view absent from one contributes 0).
// Contribution rules, per feature kind (each interaction's contributions to a feature sum to 1, or 0 when
// no view is responsible):
// - counts (view_count, invisible_view_count; binary off_ui_thread, invisible_draw, hw_accelerated):
//   equal share among the views counted (for hw_accelerated: the views with an op not hardware-accelerated);
// - max / min features: 1/m among the m views attaining it (overdraw_max, pixel_depth_max/min: the painters
//   covering a pixel at that depth in a frame attaining it; a min depth of 0 has no responsible view);
// - sums and averages (…_time_avg, …_count_avg, view_area_avg, view_tree_depth_avg, overdraw_avg,
//   pixel_depth_avg): proportional to the view's part of the sum (time, executions, area, depth, drawn
//   pixels); rendering_time_ratio: to its self time; effective_drawing_ratio_avg: to the pixels it drew
//   that were painted over (its waste lowers the ratio);
// - variances: proportional to the view's Σ (x − mean)² (pixel_depth_var: to its drawn pixels).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DRAW } from "./defaults";
import { correlationGraph, type CorrelationGraphOptions, type LearntGraph } from "./correlation-graph";
import type { RenderTrace } from "./render-trace";
import { significanceScores, type SignificanceScores } from "./significance";
import { FEATURE_NAMES, VIEW_STATS, type Interaction, type ViewStat } from "./interaction-features";

export type DiagnosisMetric = "rendering_time" | "frame_rate";

export interface RootCauseOptions extends CorrelationGraphOptions {
  /** p1 rendering time or p2 average frame rate (§V-A); default DRAW.metric (defaults.ts) */
  metric?: DiagnosisMetric;
}

export interface ViewRootCause {
  viewId: number;
  viewClass: string;
  xmlId: string | null;
  layoutFile: string | null;
  rcs: number;
  /** the features contributing most to this view's RCS, largest first */
  features: { feature: string; share: number }[];
}

export interface RootCauseResult {
  metric: DiagnosisMetric;
  interactions: number;
  correlations: Record<string, number>;
  graph: LearntGraph;
  scores: SignificanceScores;
  ranking: ViewRootCause[];
}

const NS = VIEW_STATS.length;
const SI = Object.fromEntries(VIEW_STATS.map((s, i) => [s, i])) as Record<ViewStat, number>;

// How each feature's contributions are computed, parsed once: [rule, stat column, aux] where aux is the
// feature index of the mean for deviations, the executions column for Positive (max/min of times).
const enum Rule {
  Flag,
  Share,
  Equal,
  Deviation,
  TimeDeviation,
  Positive,
}
// The features whose rule is not read off their name, and the stat column their contributions follow.
const NAMED_RULES: Partial<Record<string, [Rule, ViewStat]>> = {
  overdraw_max: [Rule.Flag, "covers_max"],
  pixel_depth_max: [Rule.Flag, "covers_max"],
  pixel_depth_min: [Rule.Flag, "covers_min"],
  overdraw_avg: [Rule.Share, "drawn_px"],
  pixel_depth_avg: [Rule.Share, "drawn_px"],
  pixel_depth_var: [Rule.Share, "drawn_px"],
  invisible_view_count: [Rule.Flag, "invisible"],
  effective_drawing_ratio_avg: [Rule.Share, "wasted_px"],
  view_count: [Rule.Flag, "drawn"],
  rendering_time_ratio: [Rule.Share, "self"],
  hw_accelerated: [Rule.Flag, "non_hw"],
  off_ui_thread: [Rule.Flag, "off_ui"],
  invisible_draw: [Rule.Flag, "invisible_draw"],
  view_tree_depth_max: [Rule.Equal, "depth"],
  view_tree_depth_avg: [Rule.Share, "depth"],
};
const RULES: [Rule, number, number][] = FEATURE_NAMES.map((feature) => {
  const f = (name: string) => FEATURE_NAMES.indexOf(name);
  const named = NAMED_RULES[feature];
  if (named) return [named[0], SI[named[1]], -1];
  const m = /^(measure|layout|draw|view)_(time|count|area)_(avg|max|min|var)$/.exec(feature);
  if (!m) throw new Error(`contributions: no rule for feature ${feature}`);
  const [, op, what, kind] = m as unknown as [string, "measure" | "layout" | "draw", string, string];
  const column = what === "area" ? SI.area : what === "count" ? SI[`${op}_n`] : SI[`${op}_sum`];
  if (kind === "avg") return [Rule.Share, column, -1];
  if (kind === "var")
    return what === "time"
      ? [Rule.TimeDeviation, SI[`${op}_sum`], f(`${op}_time_avg`)]
      : [Rule.Deviation, column, f(`${what === "area" ? "view_area" : `${op}_count`}_avg`)];
  if (what === "time") return [Rule.Positive, SI[`${op}_${kind as "max" | "min"}`], SI[`${op}_n`]];
  return [Rule.Equal, column, -1];
});

/** con(v, f_j) for every view of one interaction into out[0..views) (§V-B; rules in the header). */
function contributionsInto(inter: Interaction, j: number, out: Float64Array): void {
  const nv = inter.views.length;
  const st = inter.viewStats;
  const [rule, c, aux] = RULES[j]!;
  const value = inter.features[j]!;
  const mean = rule === Rule.Deviation || rule === Rule.TimeDeviation ? inter.features[aux]! : 0;
  let total = 0;
  for (let r = 0, base = 0; r < nv; r++, base += NS) {
    const x = st[base + c]!;
    let w: number;
    switch (rule) {
      case Rule.Flag:
        w = x ? 1 : 0;
        break;
      case Rule.Share:
        w = x > 0 ? x : 0;
        break;
      case Rule.Equal:
        w = x === value ? 1 : 0;
        break;
      case Rule.Deviation:
        w = (x - mean) * (x - mean);
        break;
      case Rule.Positive:
        w = st[base + aux]! > 0 && x === value ? 1 : 0;
        break;
      case Rule.TimeDeviation: {
        // Σ over the view's executions of (x − mean)², from its sum of squares, sum and count.
        const n = st[base + c + 2]!;
        w = Math.max(0, st[base + c + 1]! - 2 * mean * x + n * mean * mean);
        break;
      }
    }
    out[r] = w;
    total += w;
  }
  if (total > 0) for (let r = 0; r < nv; r++) out[r] = out[r]! / total;
  else out.fill(0, 0, nv);
}

/** con(v, f) for every view of one interaction (Float64Array over inter.views). */
export function contributions(inter: Interaction, feature: string): Float64Array {
  const j = FEATURE_NAMES.indexOf(feature);
  if (j < 0) throw new Error(`contributions: unknown feature ${feature}`);
  const out = new Float64Array(inter.views.length);
  contributionsInto(inter, j, out);
  return out;
}

/** Correlations, correlation graph, significance scores and the RCS ranking of views, worst first. */
export function rootCauses(
  t: RenderTrace,
  interactions: readonly Interaction[],
  options: RootCauseOptions = {},
): RootCauseResult {
  const metric = options.metric ?? DRAW.metric;
  const used = interactions.filter((i) => i.frames.length > 0);
  const features: Record<string, Float64Array> = {};
  FEATURE_NAMES.forEach((name, j) => (features[name] = Float64Array.from(used, (i) => i.features[j]!)));
  const p = Float64Array.from(used, (i) => (metric === "rendering_time" ? i.renderingTime : i.frameRate));
  const graph = correlationGraph(features, metric, p, options);
  const scores = significanceScores(graph);
  const correlations = Object.fromEntries(graph.nodes.map((nd) => [nd.id, nd.corr]));

  // Equation 3, with con averaged over the interactions: acc[v · F + j] = Σ_i sig_j · con_i(v, f_j) / I.
  const F = FEATURE_NAMES.length;
  const sig = Float64Array.from(FEATURE_NAMES, (name) => scores[name]!.sig);
  const acc = new Float64Array(t.views.length * F);
  const seen = new Uint8Array(t.views.length);
  let con = new Float64Array(64);
  for (const inter of used) {
    const nv = inter.views.length;
    if (con.length < nv) con = new Float64Array(nv * 2);
    for (let j = 0; j < F; j++) {
      if (sig[j] === 0) continue;
      contributionsInto(inter, j, con);
      const scale = sig[j]! / used.length;
      for (let r = 0; r < nv; r++)
        if (con[r] !== 0) {
          const v = inter.views[r]!;
          seen[v] = 1;
          acc[v * F + j] = acc[v * F + j]! + scale * con[r]!;
        }
    }
  }
  const perFeature: [number, Float64Array][] = [];
  for (let v = 0; v < t.views.length; v++)
    if (seen[v]) perFeature.push([v, acc.subarray(v * F, (v + 1) * F)]);
  const ranking = perFeature.map(([v, acc]) => {
    const rcs = acc.reduce((a, b) => a + b, 0);
    const top = [...acc]
      .map((x, j) => ({ feature: FEATURE_NAMES[j]!, share: rcs > 0 ? x / rcs : 0 }))
      .filter((x) => x.share > 0)
      .sort((a, b) => b.share - a.share)
      .slice(0, 3);
    return { ...t.views[v]!, rcs, features: top };
  });
  ranking.sort((a, b) => b.rcs - a.rcs || a.viewId - b.viewId);
  return { metric, interactions: used.length, correlations, graph, scores, ranking };
}

export interface RootCausePlotOptions {
  /** how many views to show; default DRAW.top (defaults.ts) */
  top?: number;
}

/** The RCS ranking: views with the largest root cause scores, labelled with the leading feature. */
export function rootCausePlot(result: RootCauseResult, options: RootCausePlotOptions = {}): ChartSpec {
  const rows = result.ranking.slice(0, options.top ?? DRAW.top).map((r) => ({
    ...r,
    label: `${r.viewClass.split(".").pop()}#${r.viewId} ${r.xmlId ?? ""} ${r.layoutFile ?? ""}`.trim(),
    lead: r.features[0]?.feature ?? "",
  }));
  return chartSpec("rootCausePlot", {
    mark: "barX",
    data: rows,
    x: "rcs",
    y: "label",
    fill: "lead",
    options: { tip: true },
    layout: {
      marginLeft: 260,
      x: { label: `RCS for ${result.metric} (Σ sig · contribution)`, grid: true },
      y: { domain: rows.map((r) => r.label), label: null },
      color: { legend: true, label: "leading feature" },
    },
    over: [{ mark: "ruleX", data: [0] }],
  });
}
