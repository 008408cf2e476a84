// DiagDroid (asynchronous-task queuing, context groups, dependency-aware report): every cell, as notebooks see
// them (`jb.diagdroid`).
export { queueMetrics, type QueueData, type QueueMetricsOptions } from "./queue-metrics";
export { waitedBehind, type WaitedBehind } from "./waited-behind";
export {
  anomalousGroups,
  anomalousGroupsPlot,
  type AnomalousGroupsOptions,
  type ContextDependency,
  type GroupDependency,
  type GroupReport,
} from "./anomalous-groups";
export { anomalyIssues, issueOf, type AnomalyIssue } from "./anomaly-issues";
export { anomalyReport, type AnomalyReportOptions } from "./anomaly-report";
export {
  queueTimeline,
  queueTimelinePlot,
  type QueueTimelineOptions,
  type TimelineSpan,
} from "./queue-timeline";
export {
  delayDistribution,
  delayDistributionPlot,
  type DelayDistributionOptions,
  type DelayRow,
} from "./delay-distribution";
export { DIAGDROID as defaults } from "./defaults";
