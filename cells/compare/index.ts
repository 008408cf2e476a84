// Comparing two runs or run sets (`jb.compare`): the ranked list of what changed, its charts, the sides and the
// statistics under them (docs/compare.md).
export {
  compareRuns,
  measureRuns,
  judgeRuns,
  COMPARE_ANALYSES,
  type Measured,
  type CompareTables,
  type Comparison,
  type CompareRunsOptions,
  type CompareAnalysis,
} from "./compare-runs";
export {
  compareMetric,
  COMPARE_DEFAULTS,
  type CompareRow,
  type Metric,
  type MetricSide,
  type CompareOptions,
} from "./compare-metric";
export { whatChanged, whatChangedPlot, whatChangedListPlot, regressions, rankRows } from "./what-changed";
export type { MetricBuilder, MetricSpec } from "./metric-builder";
export { parseRunFilter, matchesFilter, checkSides, type Sides, type FilterTerm } from "./sides";
export { mannWhitney } from "./stats/mann-whitney";
export { cliffsDelta } from "./stats/cliffs-delta";
export { benjaminiHochberg } from "./stats/benjamini-hochberg";
export { bootstrapRuns, bootstrapBlocks } from "./stats/bootstrap";
// The differential method profile and its flame graph:
export {
  differentialProfile,
  type DifferentialNode,
  type DifferentialProfile,
  type DifferentialProfileOptions,
  type DifferentialRow,
  type ProfileSide,
  type ProfileUnit,
  type SideTimes,
} from "./differential-profile";
export {
  differentialFlamePlot,
  differentialFlameRows,
  type DifferentialFlamePlotOptions,
  type FlameRow,
} from "./differential-flame-plot";
