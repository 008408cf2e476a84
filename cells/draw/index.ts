// DRAW (fine-grained UI rendering analysis): every cell, as notebooks see them (`jb.draw`).
export {
  preprocessRenderOps,
  type FrameInfo,
  type OpName,
  type RenderTrace,
  type ViewInfo,
} from "./render-trace";
export {
  overdrawDepth,
  overdrawDepthPlot,
  overdrawRegions,
  type DepthRegion,
  type OverdrawDepthPlotOptions,
  type OverdrawDepthResult,
  type Rect,
  type Screen,
} from "./overdraw-depth";
export { frameCoverage, type FrameCoverage } from "./frame-coverage";
export {
  renderingEfficiency,
  renderingEfficiencyPlot,
  type RenderingEfficiencyOptions,
  type RenderingEfficiencyPlotOptions,
  type ViewEfficiency,
} from "./rendering-efficiency";
export {
  userInteractions,
  type UserInteractionsOptions,
  type UserInteractionsResult,
} from "./user-interactions";
export { FEATURE_NAMES, type Interaction } from "./interaction-features";
export { correlationGraphPlot, type CorrelationGraphOptions, type LearntGraph } from "./correlation-graph";
export {
  contributions,
  rootCausePlot,
  rootCauses,
  type DiagnosisMetric,
  type RootCauseOptions,
  type RootCausePlotOptions,
  type RootCauseResult,
  type ViewRootCause,
} from "./root-cause";
export { DRAW as defaults } from "./defaults";
