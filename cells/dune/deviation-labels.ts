// Performance-deviation labels (DUNE §5.3): rank the history by context similarity, take the most similar
// cluster, and IQR-flag each metric of the new run against that cluster's values (the new run included,
// as in the §5.3.3 worked example). Labels follow each metric's direction: fewer frames, a lower smooth
// ratio or a longer frame time is a regression (Outlier−), the opposite an optimization (Outlier+).
// Coarse-grained: one label per run. Fine-grained (§5.2.2): the same per UI-event bucket, labelled E<k>:
// bucket 0 is before the first event ("E0"), bucket k the frames after event k (1-based) until the next.
// A run is Outlier− when any metric regressed, else Outlier+ when any improved, else N.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DUNE } from "./defaults";
import { iqrFlags, type QuartileMethod } from "./iqr";
import { smallestFlaggingGroup } from "./smallest-group";
import { clusterMembers, similarityWeights, type SimilarityWeightsResult } from "./similarity";

export type MetricName = "frames" | "smoothRatio" | "meanFrameMs" | "p90FrameMs" | "p99FrameMs";
export type MetricValues = Partial<Record<MetricName, number>>;
/** A run's coarse metrics plus, for the fine-grained mode, one set per UI-event bucket. */
export type RunMetrics = MetricValues & { events?: MetricValues[] };
export type Label = "Outlier-" | "Outlier+" | "N";

/** −1: lower is worse (a regression is a low outlier); +1: higher is worse. */
export const METRIC_DIRECTION: Record<MetricName, -1 | 1> = {
  frames: -1,
  smoothRatio: -1,
  meanFrameMs: 1,
  p90FrameMs: 1,
  p99FrameMs: 1,
};

export interface DeviationLabelsOptions {
  /** Context attributes compared for similarity (§5.3.1), e.g. ["app_version", "sdk_release", "device_model"]. */
  dimensions: string[];
  /** Metrics compared; default the paper's three: frames, smooth ratio, mean frame time (§5.2.1). */
  metrics?: MetricName[];
  /** IQR outlier factor OF; default DUNE.outlierFactor (defaults.ts, §5.3.3). */
  outlierFactor?: number;
  /** Quartile method; default DUNE.quartileMethod (reproduces the paper's example). */
  method?: QuartileMethod;
  /** Which similarity cluster to compare against; default DUNE.cluster, the most similar (§5.3.2). */
  cluster?: number;
}

export interface MetricDeviation {
  metric: MetricName;
  /** The cluster's values followed by the new run's (last). */
  values: Float64Array;
  newValue: number;
  q1: number;
  q3: number;
  lowerFence: number;
  upperFence: number;
  /** −1 below, +1 above the fences, 0 inside or when the new value is missing (NaN). */
  flag: number;
  label: Label;
}

export interface DeviationLabelsResult {
  /** the parameters that made the labels */
  outlierFactor: number;
  method: QuartileMethod;
  cluster: number;
  similarity: SimilarityWeightsResult;
  /** Indices (into history) of the runs compared against. */
  members: number[];
  /**
   * The fewest history runs that can flag anything at this OF and quartile method (smallest-group.ts); when
   * `members` has fewer, every label is N whatever the values, and the report and chart say so.
   */
  smallestGroup: number;
  /** members.length < smallestGroup: the labels cannot be anything but N */
  tooSmall: boolean;
  coarse: { label: Label; metrics: MetricDeviation[] };
  events: { bucket: number; label: Label; metrics: MetricDeviation[] }[];
  /** Class labels for context mining (§5.4): the run's label and E<k><label> per deviating bucket. */
  labels: string[];
}

export interface RunWithContext {
  context: Record<string, string>;
  metrics: RunMetrics;
}

const GET: Record<MetricName, (v: MetricValues) => number | undefined> = {
  frames: (v) => v.frames,
  smoothRatio: (v) => v.smoothRatio,
  meanFrameMs: (v) => v.meanFrameMs,
  p90FrameMs: (v) => v.p90FrameMs,
  p99FrameMs: (v) => v.p99FrameMs,
};

const DEFAULT_METRICS: MetricName[] = ["frames", "smoothRatio", "meanFrameMs"];

function combine(labels: Label[]): Label {
  if (labels.includes("Outlier-")) return "Outlier-";
  return labels.includes("Outlier+") ? "Outlier+" : "N";
}

function deviation(
  metric: MetricName,
  values: Float64Array,
  of: number,
  method: QuartileMethod,
): MetricDeviation {
  const r = iqrFlags(values, { outlierFactor: of, method });
  const flag = r.flags[values.length - 1]!;
  const label: Label = flag === 0 ? "N" : flag === METRIC_DIRECTION[metric] ? "Outlier-" : "Outlier+";
  return {
    metric,
    values,
    newValue: values[values.length - 1]!,
    q1: r.q1,
    q3: r.q3,
    lowerFence: r.lowerFence,
    upperFence: r.upperFence,
    flag,
    label,
  };
}

export function deviationLabels(
  target: RunWithContext,
  history: RunWithContext[],
  options: DeviationLabelsOptions,
): DeviationLabelsResult {
  const metrics = options.metrics ?? DEFAULT_METRICS;
  for (const m of metrics)
    if (!(m in METRIC_DIRECTION))
      throw new Error(`unknown metric: ${m} (expected ${Object.keys(METRIC_DIRECTION).join(", ")})`);
  const of = options.outlierFactor ?? DUNE.outlierFactor;
  const method = options.method ?? DUNE.quartileMethod;
  const cluster = options.cluster ?? DUNE.cluster;
  const similarity = similarityWeights(
    target.context,
    history.map((h) => h.context),
    options.dimensions,
  );
  const members = clusterMembers(similarity, cluster);
  const k = members.length;
  // Columns are filled one run at a time, all metrics together: with 100,000 runs x buckets the cost is
  // one cache miss per metrics object, so each object is visited once.
  const getters = metrics.map((m) => GET[m]);
  const gather = (sets: (MetricValues | undefined)[], target: MetricValues | undefined) => {
    const cols = metrics.map(() => new Float64Array(k + 1));
    for (let i = 0; i <= k; i++) {
      const set = i < k ? sets[i] : target;
      for (let j = 0; j < getters.length; j++)
        cols[j]![i] = set === undefined ? NaN : (getters[j]!(set) ?? NaN);
    }
    return metrics.map((m, j) => deviation(m, cols[j]!, of, method));
  };
  const runs = members.map((i) => history[i]!.metrics);
  const coarseMetrics = gather(runs, target.metrics);
  const coarse = { label: combine(coarseMetrics.map((d) => d.label)), metrics: coarseMetrics };
  const targetEvents = target.metrics.events ?? [];
  const bucketSets = targetEvents.map(() => new Array<MetricValues | undefined>(k));
  for (let i = 0; i < k; i++) {
    const evs = runs[i]!.events;
    for (let b = 0; b < bucketSets.length; b++) bucketSets[b]![i] = evs?.[b];
  }
  const events = targetEvents.map((bucket, b) => {
    const ms = gather(bucketSets[b]!, bucket);
    return { bucket: b, label: combine(ms.map((d) => d.label)), metrics: ms };
  });
  const labels: string[] = [coarse.label];
  for (const e of events) if (e.label !== "N") labels.push(`E${e.bucket}${e.label}`);
  const smallestGroup = smallestFlaggingGroup({ outlierFactor: of, method });
  return {
    outlierFactor: of,
    method,
    cluster,
    similarity,
    members,
    smallestGroup,
    tooSmall: members.length < smallestGroup,
    coarse,
    events,
    labels,
  };
}

/** Bucket numbers whose label is a regression (for precision/recall against known janky events, §8.4). */
export function regressedEvents(result: DeviationLabelsResult): number[] {
  return result.events.filter((e) => e.label === "Outlier-").map((e) => e.bucket);
}

/** Figure 8: one metric's distribution in the cluster, the new run marked, the fences drawn. */
export function deviationLabelsPlot(
  result: DeviationLabelsResult,
  options: { metric?: MetricName; bucket?: number } = {},
): ChartSpec {
  const set =
    options.bucket === undefined ? result.coarse.metrics : (result.events[options.bucket]?.metrics ?? []);
  const d = set.find((m) => m.metric === (options.metric ?? set[0]?.metric));
  if (!d) throw new Error(`no metric ${options.metric ?? "(any)"} for bucket ${options.bucket ?? "run"}`);
  const n = d.values.length - 1;
  const history = Array.from(d.values.subarray(0, n)).filter((v) => !Number.isNaN(v));
  // Our quartiles and fences, drawn as rules (Plot's boxX would compute its own, different quartiles).
  const fences = [
    { x: d.lowerFence, what: "Q1 − OF·IQR" },
    { x: d.upperFence, what: "Q3 + OF·IQR" },
  ].filter((f) => Number.isFinite(f.x));
  const quartiles = [d.q1, d.q3].filter(Number.isFinite);
  const small = result.tooSmall
    ? ` (compared with ${result.members.length} runs: fewer than ${result.smallestGroup} can flag nothing)`
    : "";
  const title = `${options.bucket === undefined ? "run" : `E${options.bucket}`}: ${d.metric} — new run ${d.label}${small}`;
  const newColour = d.label === "Outlier-" ? "#d62728" : d.label === "Outlier+" ? "#2ca02c" : "#1f77b4";
  return chartSpec("deviationLabelsPlot", {
    mark: "dot",
    data: history.map((value) => ({ value })),
    x: "value",
    dodgeY: true,
    options: { fill: "#888", r: 2.5 },
    title,
    // room for the fence labels above the plot and at its ends
    layout: { marginTop: 28, marginLeft: 40, marginRight: 40, x: { label: d.metric }, y: { axis: null } },
    under: [
      { mark: "ruleX", data: quartiles, options: { stroke: "#bbb", strokeWidth: 6, strokeOpacity: 0.5 } },
    ],
    over: [
      { mark: "ruleX", data: fences, options: { x: "x", stroke: "#444", strokeDasharray: "4,3" } },
      { mark: "text", data: fences, options: { x: "x", text: "what", frameAnchor: "top", dy: -4 } },
      ...(Number.isNaN(d.newValue)
        ? []
        : [{ mark: "ruleX" as const, data: [d.newValue], options: { stroke: newColour, strokeWidth: 2 } }]),
    ],
  });
}
