// The names of DRAW's interaction features (§IV Table I, §V-A Table II; see interaction-features.ts) and of the
// per-view statistics kept for the contributions of §V-B (root-cause.ts), with their column offsets.
export const STATS = ["avg", "max", "min", "var"] as const;
export const OPNAMES = ["measure", "layout", "draw"] as const;
export const FEATURE_NAMES: readonly string[] = [
  "overdraw_max",
  "overdraw_avg",
  "invisible_view_count",
  "effective_drawing_ratio_avg",
  ...OPNAMES.flatMap((op) => STATS.map((s) => `${op}_time_${s}`)),
  ...OPNAMES.flatMap((op) => STATS.map((s) => `${op}_count_${s}`)),
  "view_count",
  ...STATS.map((s) => `pixel_depth_${s}`),
  ...STATS.map((s) => `view_area_${s}`),
  "view_tree_depth_max",
  "view_tree_depth_avg",
  "rendering_time_ratio",
  "hw_accelerated",
  "off_ui_thread",
  "invisible_draw",
];

type OpStat = `${(typeof OPNAMES)[number]}_${"sum" | "sumsq" | "n" | "max" | "min"}`;
export type ViewStat =
  | OpStat
  | "area"
  | "depth"
  | "drawn_px"
  | "wasted_px"
  | "self"
  | "non_hw"
  | "off_ui"
  | "invisible_draw"
  | "invisible"
  | "drawn"
  | "covers_max"
  | "covers_min";
/** Per-view columns kept for each interaction, for contributions (root-cause.ts). */
export const VIEW_STATS: readonly ViewStat[] = [
  ...OPNAMES.flatMap((op) =>
    (["sum", "sumsq", "n", "max", "min"] as const).map((s): ViewStat => `${op}_${s}`),
  ),
  "area",
  "depth",
  "drawn_px",
  "wasted_px",
  "self",
  "non_hw",
  "off_ui",
  "invisible_draw",
  "invisible",
  "drawn",
  "covers_max",
  "covers_min",
];
export const S = Object.fromEntries(VIEW_STATS.map((s, i) => [s, i])) as Record<ViewStat, number>;
export const NS = VIEW_STATS.length;

// Column offsets, resolved once for the hot loops.
export const O_SUM = OPNAMES.map((op) => S[`${op}_sum`]);
export const O_MIN = OPNAMES.map((op) => S[`${op}_min`]);
export const O_N = OPNAMES.map((op) => S[`${op}_n`]);
