// DUNE (UI performance regressions across contexts): every cell, as notebooks see them (`jb.dune`).
export {
  frameMetrics,
  frameMetricsPlot,
  toRunMetrics,
  type BucketStats,
  type FrameMetricsOptions,
  type FrameStats,
  type JankRule,
  type RunFrameMetrics,
} from "./frame-metrics";
export {
  frameMetricsBySql,
  FRAME_METRICS_MAX_ROWS,
  type FrameMetricsBySqlOptions,
  type FrameMetricsSummary,
  type SqlTag,
} from "./frame-metrics-sql";
export { similarityWeights, similarityWeightsPlot, type SimilarityWeightsResult } from "./similarity";
export {
  iqrFlags,
  iqrFlagsPlot,
  type IqrFlagsOptions,
  type IqrFlagsResult,
  type QuartileMethod,
} from "./iqr";
export {
  deviationLabels,
  deviationLabelsPlot,
  regressedEvents,
  type DeviationLabelsOptions,
  type DeviationLabelsResult,
  type Label,
  type MetricDeviation,
  type MetricName,
  type MetricValues,
  type RunMetrics,
  type RunWithContext,
} from "./deviation-labels";
export { smallestFlaggingGroup } from "./smallest-group";
export {
  aprioriPlot,
  aprioriReport,
  formatRule,
  type AprioriOptions,
  type AprioriReport,
  type Rule,
} from "./context-rules";
export {
  eventPrecisionRecall,
  eventPrecisionRecallPlot,
  type EventPrecisionRecall,
} from "./event-precision-recall";
export { DUNE as defaults } from "./defaults";
