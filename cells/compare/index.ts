// Comparisons of two sides (a baseline and a candidate, each one run or several), as notebooks see them (`jb.compare`).
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
