// A chart as plain data: one editable mark (its type, its rows, its channels by column name) drawn between fixed
// layers, under fixed layout options. The workspace's plot form edits the mark, channels, facets and filter of
// such a spec like any `plot({...})` cell; charts/plot-spec.ts turns it into Observable Plot options.
// No functions inside: a spec survives structured cloning (the cell worker) and its fields can be written as code.

export const MARKS = [
  "dot",
  "line",
  "lineY",
  "barY",
  "barX",
  "rect",
  "rectY",
  "areaY",
  "tickX",
  "ruleX",
  "ruleY",
  "cell",
  "text",
] as const;
export type MarkName = (typeof MARKS)[number];
export const FILTER_OPS = ["=", "!=", "<", "<=", ">", ">="] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** The channels the form offers; every one is a column name of the data (or absent). */
export const CHANNELS = ["x", "y", "fill", "stroke", "fx", "fy"] as const;
export type Channel = (typeof CHANNELS)[number];

/** A fixed mark drawn with the editable one (a τ rule, fence labels, a frame): Plot mark name, rows, options. */
export interface LayerSpec {
  mark: MarkName | "frame" | "arrow";
  data?: unknown;
  options?: Record<string, unknown>;
}

export interface PlotSpec extends Partial<Record<Channel, string>> {
  mark: MarkName;
  /** rows: an Arrow table, an array of objects, or anything Plot accepts */
  data: unknown;
  filter?: [column: string, op: FilterOp, value: string | number | boolean];
  title?: string;
  /** extra marks drawn on top (e.g. rules for UI events), as Plot marks */
  extra?: unknown[];
  width?: number;
  height?: number;
  /**
   * A column whose value a click on a mark selects. Wrapped in view(), the plot is an input: its value is the
   * clicked row's value of this column (null until something is clicked, and headless). When its cell re-runs, the
   * new plot keeps the choice while some mark still has that value (see input-carry.ts); the chosen mark is outlined.
   */
  select?: string;
  /** the chart function that made the spec (e.g. "anomalousGroupsPlot"): the form's first edit wraps that call */
  origin?: string;
  /** the editable mark's other options (x1, x2, title, r, insets, constant colours): column names or constants */
  options?: Record<string, unknown>;
  /** a binX transform of the editable mark, its outputs by reducer (e.g. {y: "count"}) */
  binX?: Record<string, string>;
  /** the editable mark's dots piled up by a dodgeY transform (a beeswarm) */
  dodgeY?: boolean;
  /** top-level Plot options (margins, scales); when present, no grid, tip or legend is added by default */
  layout?: Record<string, unknown>;
  /** fixed layers drawn before (under) and after (over) the editable mark */
  under?: LayerSpec[];
  over?: LayerSpec[];
}

export type ChartSpec = PlotSpec & { __plotSpec: true; origin: string; layout: Record<string, unknown> };

/** A paper chart's spec, tagged so every display renders it as an editable plot. */
export function chartSpec(
  origin: string,
  spec: Omit<PlotSpec, "origin" | "layout"> & { layout?: Record<string, unknown> },
): ChartSpec {
  return { ...spec, layout: spec.layout ?? {}, origin, __plotSpec: true };
}
