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
import * as Plot from "@observablehq/plot";
import { correlationGraph, type CorrelationGraphOptions, type LearntGraph } from "./correlation-graph";
import type { RenderTrace } from "./render-trace";
import { significanceScores, type SignificanceScores } from "./significance";
import { FEATURE_NAMES, VIEW_STATS, type Interaction, type ViewStat } from "./user-interactions";

export type DiagnosisMetric = "rendering_time" | "frame_rate";

export interface RootCauseOptions extends CorrelationGraphOptions {
  /** p1 rendering time (default) or p2 average frame rate (§V-A) */
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

/** con(v, f) for every view of one interaction (Float64Array over inter.views). */
export function contributions(inter: Interaction, feature: string): Float64Array {
  const nv = inter.views.length;
  const out = new Float64Array(nv);
  const stat = (r: number, s: ViewStat) => inter.viewStats[r * NS + SI[s]]!;
  const value = inter.features[FEATURE_NAMES.indexOf(feature)]!;
  const share = (w: (r: number) => number) => {
    let total = 0;
    for (let r = 0; r < nv; r++) total += (out[r] = Math.max(0, w(r)));
    if (total > 0) for (let r = 0; r < nv; r++) out[r] = out[r]! / total;
    else out.fill(0);
    return out;
  };
  const flag = (s: ViewStat) => share((r) => (stat(r, s) ? 1 : 0));
  const deviation = (x: (r: number) => number, mean: number) => share((r) => (x(r) - mean) ** 2);
  switch (feature) {
    case "overdraw_max": case "pixel_depth_max": return flag("covers_max");
    case "pixel_depth_min": return flag("covers_min");
    case "overdraw_avg": case "pixel_depth_avg": case "pixel_depth_var": return share((r) => stat(r, "drawn_px"));
    case "invisible_view_count": return flag("invisible");
    case "effective_drawing_ratio_avg": return share((r) => stat(r, "wasted_px"));
    case "view_count": return flag("drawn");
    case "rendering_time_ratio": return share((r) => stat(r, "self"));
    case "hw_accelerated": return flag("non_hw");
    case "off_ui_thread": return flag("off_ui");
    case "invisible_draw": return flag("invisible_draw");
    case "view_tree_depth_max": return share((r) => (stat(r, "depth") === value ? 1 : 0));
    case "view_tree_depth_avg": return share((r) => stat(r, "depth"));
  }
  const m = /^(measure|layout|draw|view)_(time|count|area)_(avg|max|min|var)$/.exec(feature);
  if (!m) throw new Error(`contributions: unknown feature ${feature}`);
  const [, op, what, kind] = m as unknown as [string, "measure" | "layout" | "draw", string, string];
  if (what === "area") {
    const a = (r: number) => stat(r, "area");
    if (kind === "avg") return share(a);
    if (kind === "var") return deviation(a, inter.features[FEATURE_NAMES.indexOf("view_area_avg")]!);
    return share((r) => (a(r) === value ? 1 : 0));
  }
  const n = (r: number) => stat(r, `${op}_n`);
  if (what === "count") {
    if (kind === "avg") return share(n);
    if (kind === "var") return deviation(n, inter.features[FEATURE_NAMES.indexOf(`${op}_count_avg`)]!);
    return share((r) => (n(r) === value ? 1 : 0));
  }
  if (kind === "avg") return share((r) => stat(r, `${op}_sum`));
  if (kind === "max") return share((r) => (n(r) > 0 && stat(r, `${op}_max`) === value ? 1 : 0));
  if (kind === "min") return share((r) => (n(r) > 0 && stat(r, `${op}_min`) === value ? 1 : 0));
  const mean = inter.features[FEATURE_NAMES.indexOf(`${op}_time_avg`)]!;
  // Σ over the view's executions of (x − mean)², from its sum and sum of squares.
  return share((r) => stat(r, `${op}_sumsq`) - 2 * mean * stat(r, `${op}_sum`) + n(r) * mean * mean);
}

/** Correlations, correlation graph, significance scores and the RCS ranking of views, worst first. */
export function rootCauses(t: RenderTrace, interactions: readonly Interaction[], options: RootCauseOptions = {}): RootCauseResult {
  const metric = options.metric ?? "rendering_time";
  const used = interactions.filter((i) => i.frames.length > 0);
  const features: Record<string, Float64Array> = {};
  FEATURE_NAMES.forEach((name, j) => (features[name] = Float64Array.from(used, (i) => i.features[j]!)));
  const p = Float64Array.from(used, (i) => (metric === "rendering_time" ? i.renderingTime : i.frameRate));
  const graph = correlationGraph(features, metric, p, options);
  const scores = significanceScores(graph);
  const correlations = Object.fromEntries(graph.nodes.map((nd) => [nd.id, nd.corr]));

  const perFeature = new Map<number, Float64Array>(); // view → Σ_i sig · con_i per feature
  for (const inter of used) {
    for (let j = 0; j < FEATURE_NAMES.length; j++) {
      const name = FEATURE_NAMES[j]!;
      const sig = scores[name]!.sig;
      if (sig === 0) continue;
      const con = contributions(inter, name);
      for (let r = 0; r < con.length; r++) {
        if (con[r] === 0) continue;
        const v = inter.views[r]!;
        let acc = perFeature.get(v);
        if (!acc) perFeature.set(v, (acc = new Float64Array(FEATURE_NAMES.length)));
        acc[j] = acc[j]! + (sig * con[r]!) / used.length; // Equation 3, averaged over interactions
      }
    }
  }
  const ranking = [...perFeature].map(([v, acc]) => {
    const rcs = acc.reduce((a, b) => a + b, 0);
    const top = [...acc].map((x, j) => ({ feature: FEATURE_NAMES[j]!, share: rcs > 0 ? x / rcs : 0 }))
      .filter((x) => x.share > 0).sort((a, b) => b.share - a.share).slice(0, 3);
    return { ...t.views[v]!, rcs, features: top };
  });
  ranking.sort((a, b) => b.rcs - a.rcs || a.viewId - b.viewId);
  return { metric, interactions: used.length, correlations, graph, scores, ranking };
}

export interface RootCausePlotOptions {
  /** how many views to show; default 15 */
  top?: number;
}

/** The RCS ranking: views with the largest root cause scores, labelled with the leading feature. */
export function rootCausePlot(result: RootCauseResult, options: RootCausePlotOptions = {}): Plot.PlotOptions {
  const rows = result.ranking.slice(0, options.top ?? 15).map((r) => ({
    ...r,
    label: `${r.viewClass.split(".").pop()}#${r.viewId} ${r.xmlId ?? ""} ${r.layoutFile ?? ""}`.trim(),
    lead: r.features[0]?.feature ?? "",
  }));
  return {
    marginLeft: 260,
    x: { label: `RCS for ${result.metric} (Σ sig · contribution)`, grid: true },
    y: { domain: rows.map((r) => r.label), label: null },
    color: { legend: true, label: "leading feature" },
    marks: [Plot.barX(rows, { x: "rcs", y: "label", fill: "lead", tip: true }), Plot.ruleX([0])],
  };
}
