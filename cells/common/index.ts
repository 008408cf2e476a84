// Notebooks' shared readers and values (`jb.common`): the typed column reader for their own queries' tables, the
// plausible-frames filter, and the time axis that charts linked under `jb.timeline` share.
export {
  bigint64,
  bool,
  checkColumns,
  float64,
  int32,
  int32AsFloat,
  int64,
  optional,
  readColumns,
  stringCodes,
  utf8,
  utf8List,
  type ColumnDecl,
} from "../../bundle/read-columns";
export { PLAUSIBLE_FRAMES_SQL } from "./suspect-rows";
export { TIME_AXIS, type TimeWindow } from "./time-window";
