// AndroScope (method traces, TraceBridge): every cell, as notebooks see them (`jb.androscope`).
export {
  methodProfile,
  methodProfilePlot,
  type MethodProfileOptions,
  type ProfileMethod,
  type ProfileRow,
} from "./method-profile";
export {
  callTree,
  callTreePlot,
  type CallTree,
  type CallTreeNode,
  type CallTreeOptions,
  type CallTreePlotOptions,
} from "./call-tree";
export { attributeCounters, type AttributeCountersOptions, type CallCounters } from "./counter-attribution";
export { callSegments, callSegmentsPlot, type CallSegments, type CallSegmentsOptions } from "./segments";
export {
  callTimelineSummary,
  callTimelineSummaryQueries,
  type CallTimelineSummary,
  type CallTimelineSummaryOptions,
  type SummaryLane,
} from "./call-timeline-summary";
export {
  counterSeries,
  counterSeriesPlot,
  heapSeries,
  heapSeriesPlot,
  type CounterInterval,
  type CounterSeriesOptions,
  type HeapPoint,
  type SeriesOptions,
  type SeriesPlotOptions,
} from "./counter-series";
export { methodChoices, methodList, threadList } from "./trace-names";
export { callTimelineSource, type CallTimelineSourceOptions } from "./call-timeline-source";
