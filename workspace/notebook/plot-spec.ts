// The editable plot: a small declarative spec that the workspace's form edits and writes back into the
// cell's code as `plot({...})`, and that becomes Observable Plot options in the browser and headless.
import * as Plot from "@observablehq/plot";

export const MARKS = ["dot", "line", "lineY", "barY", "barX", "rectY", "areaY", "tickX", "ruleX", "cell", "text"] as const;
export type MarkName = (typeof MARKS)[number];
export const FILTER_OPS = ["=", "!=", "<", "<=", ">", ">="] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** The channels the form offers; every one is a column name of the data (or absent). */
export const CHANNELS = ["x", "y", "fill", "stroke", "fx", "fy"] as const;
export type Channel = (typeof CHANNELS)[number];

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
   * clicked row's value of this column (null until something is clicked, and headless).
   */
  select?: string;
}

export function isPlotSpec(value: unknown): value is PlotSpec & { __plotSpec: true } {
  return typeof value === "object" && value !== null && (value as { __plotSpec?: boolean }).__plotSpec === true;
}

/** The `plot` builtin: tags the spec so displays know to render it and the form knows it can edit it. */
export function plot(spec: PlotSpec): PlotSpec & { __plotSpec: true } {
  if (!MARKS.includes(spec.mark)) throw new Error(`plot: invalid mark: ${String(spec.mark)} (one of ${MARKS.join(", ")})`);
  if (spec.filter && !FILTER_OPS.includes(spec.filter[1]))
    throw new Error(`plot: invalid filter operator: ${String(spec.filter[1])}`);
  const tagged = { ...spec, __plotSpec: true as const };
  // A selectable plot is an input (an EventTarget with a value), so view() can wrap it in both hosts.
  return spec.select ? Object.assign(new EventTarget(), tagged, { value: null as unknown }) : tagged;
}

function compare(op: FilterOp, a: unknown, b: unknown): boolean {
  const x = typeof a === "bigint" ? Number(a) : a;
  const y = typeof b === "string" && typeof x === "number" && b.trim() !== "" ? Number(b) : b;
  switch (op) {
    case "=":
      return x == y;
    case "!=":
      return x != y;
    case "<":
      return (x as number) < (y as number);
    case "<=":
      return (x as number) <= (y as number);
    case ">":
      return (x as number) > (y as number);
    case ">=":
      return (x as number) >= (y as number);
  }
}

function rowsOf(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  const table = data as { toArray?: () => unknown[] } | null;
  if (table && typeof table.toArray === "function") return table.toArray() as Record<string, unknown>[];
  throw new Error("plot: data must be an Arrow table or an array of rows");
}

/** Plot options for a spec. bigint values become numbers so scales work. */
export function plotSpecToOptions(spec: PlotSpec): Plot.PlotOptions {
  let rows = rowsOf(spec.data).map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.toJSON ? (r as { toJSON(): object }).toJSON() : r))
      out[k] = typeof v === "bigint" ? Number(v) : v;
    return out;
  });
  if (spec.filter) {
    const [column, op, value] = spec.filter;
    rows = rows.filter((r) => compare(op, r[column], value));
  }
  const channels: Record<string, string> = {};
  for (const c of CHANNELS) if (spec[c]) channels[c] = spec[c]!;
  const markFn = (Plot as unknown as Record<MarkName, (data: unknown, options: object) => Plot.Markish>)[spec.mark];
  const marks: Plot.Markish[] = [markFn(rows, { ...channels, tip: true }), ...((spec.extra ?? []) as Plot.Markish[])];
  return {
    title: spec.title,
    width: spec.width,
    height: spec.height,
    grid: true,
    color: spec.fill || spec.stroke ? { legend: true } : undefined,
    marks,
  };
}

/**
 * A chart whose x interval is chosen by dragging across it (a brush), as `plot.brushX(options)` in notebooks.
 * It is still Plot options (every display renders it as a chart); wrapped in view() it is an input whose value
 * is the dragged interval [x1, x2] in x's units (ordered, within the domain), null until something is dragged
 * (and headless, unless `initial` is given). A click without a drag clears it.
 */
export type BrushX = Plot.PlotOptions & EventTarget & { __brushX: true; value: [number, number] | null };

export function brushX(options: Plot.PlotOptions, initial: readonly [number, number] | null = null): BrushX {
  if (typeof options !== "object" || options === null || !Array.isArray(options.marks))
    throw new Error("plot.brushX: expected Plot options with a marks array");
  const value = initial ? ordered(Number(initial[0]), Number(initial[1])) : null;
  return Object.assign(new EventTarget(), options, { __brushX: true as const, value });
}
plot.brushX = brushX;

export function isBrushX(value: unknown): value is BrushX {
  return typeof value === "object" && value !== null && (value as { __brushX?: boolean }).__brushX === true;
}

/** The x interval between two pixel positions of a drag, in data units, inside the scale's domain; null below minPx (a click). */
export function brushInterval(
  scale: { invert?: (px: number) => unknown; domain?: Iterable<unknown> },
  px0: number,
  px1: number,
  minPx = 3,
): [number, number] | null {
  if (Math.abs(px1 - px0) < minPx) return null;
  if (typeof scale.invert !== "function") throw new Error("plot.brushX: the x scale cannot be inverted (use a linear or time x)");
  const num = (v: unknown) => (v instanceof Date ? v.getTime() : Number(v));
  let [a, b] = ordered(num(scale.invert(px0)), num(scale.invert(px1)));
  const d = [...(scale.domain ?? [])].map(num);
  if (d.length >= 2) {
    const [lo, hi] = ordered(Math.min(...d), Math.max(...d));
    a = Math.min(Math.max(a, lo), hi);
    b = Math.min(Math.max(b, lo), hi);
  }
  return [a, b];
}

function ordered(a: number, b: number): [number, number] {
  return a <= b ? [a, b] : [b, a];
}
