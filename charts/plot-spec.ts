// The editable plot: a small declarative spec that the workspace's form edits and writes back into the
// cell's code as `plot({...})`, and that becomes Observable Plot options in the browser and headless.
import * as Plot from "@observablehq/plot";
import {
  CHANNELS,
  FILTER_OPS,
  MARKS,
  type FilterOp,
  type LayerSpec,
  type PlotSpec,
} from "../cells/common/chart-spec";
import { sameValue } from "./same-value";

export {
  CHANNELS,
  FILTER_OPS,
  MARKS,
  type Channel,
  type FilterOp,
  type MarkName,
  type PlotSpec,
} from "../cells/common/chart-spec";

export function isPlotSpec(value: unknown): value is PlotSpec & { __plotSpec: true } {
  return (
    typeof value === "object" && value !== null && (value as { __plotSpec?: boolean }).__plotSpec === true
  );
}

/** The `plot` builtin: tags the spec so displays know to render it and the form knows it can edit it. */
export function plot(spec: PlotSpec): PlotSpec & { __plotSpec: true; __plotCall: true } {
  if (!MARKS.includes(spec.mark))
    throw new Error(`plot: invalid mark: ${String(spec.mark)} (one of ${MARKS.join(", ")})`);
  if (spec.filter && !FILTER_OPS.includes(spec.filter[1]))
    throw new Error(`plot: invalid filter operator: ${String(spec.filter[1])}`);
  checkColumns(spec);
  // __plotCall: this display comes from a plot({...}) literal of the cell (plot-edit.ts edits that literal).
  const tagged = { ...spec, __plotSpec: true as const, __plotCall: true as const };
  // A selectable plot is an input (an EventTarget with a value), so view() can wrap it in both hosts.
  return spec.select ? Object.assign(new EventTarget(), tagged, { value: null as unknown }) : tagged;
}

/**
 * Fails on a channel, filter or select naming a column the data lacks: Plot would read it as undefined on every row
 * and draw an empty chart without a word. A fill or stroke Plot reads as a constant colour ("red") is no column.
 */
function checkColumns(spec: PlotSpec): void {
  const named: [what: string, column: unknown][] = CHANNELS.filter((c) => !spec.binX?.[c]).map((c) => [
    c,
    spec[c],
  ]);
  if (spec.filter) named.push(["filter", spec.filter[0]]);
  if (spec.select) named.push(["select", spec.select]);
  let columns = columnsOf(spec.data, 1);
  for (const [what, column] of named) {
    if (!columns) return; // no rows and no schema: nothing says which columns exist
    if (typeof column !== "string" || columns.has(column)) continue;
    if ((what === "fill" || what === "stroke") && isConstantColour(what, column)) continue;
    columns = columnsOf(spec.data, Infinity); // rows may differ in their keys: look at every one before failing
    if (!columns || columns.has(column)) continue;
    const list = [...columns].join(", ") || "none";
    throw new Error(`plot: ${what} names a column the data lacks: "${column}" (its columns: ${list})`);
  }
}

/** Does Plot read this fill or stroke as a constant colour rather than a column (its own test, options.js isColor)? */
function isConstantColour(channel: "fill" | "stroke", value: string): boolean {
  const mark = Plot.dot([], { [channel]: value }) as unknown as { channels: Record<string, unknown> };
  return mark.channels[channel] === undefined;
}

/** The data's column names (an Arrow table's schema, else the keys of its first `rows` rows); undefined when unknown. */
function columnsOf(data: unknown, rows: number): Set<string> | undefined {
  const fields = (data as { schema?: { fields?: { name: string }[] } } | null)?.schema?.fields;
  if (Array.isArray(fields)) return new Set(fields.map((f) => f.name));
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const keys = new Set<string>();
  for (const row of data.slice(0, rows)) {
    if (typeof row !== "object" || row === null) return undefined; // rows Plot reads without names (numbers, tuples)
    const plain = typeof row.toJSON === "function" ? (row as { toJSON(): object }).toJSON() : (row as object);
    for (const k of Object.keys(plain)) keys.add(k);
  }
  return keys;
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

/** The rows a spec draws: bigint values as numbers (so scales work), its filter applied. A click selects among these. */
export function plotRows(spec: PlotSpec): Record<string, unknown>[] {
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
  return rows;
}

/** Does a selectable plot draw a mark whose `select` column is `value`? (what a re-made plot may keep selected) */
export function plotOffers(spec: PlotSpec, value: unknown): boolean {
  return !!spec.select && plotRows(spec).some((r) => sameValue(r[spec.select!], value));
}

type MarkFn = (data: unknown, options?: object) => Plot.Markish;
const markFn = (name: string) => (Plot as unknown as Record<string, MarkFn>)[name]!;
const layer = (l: LayerSpec) =>
  l.data === undefined ? markFn(l.mark)(l.options) : markFn(l.mark)(l.data, l.options);

/**
 * Plot options for a spec: its fixed layers under, the editable mark, its layers over. A plain plot({...}) gets a
 * grid, tips and a colour legend; a paper chart's layout says its own. A selectable plot with a value outlines its
 * chosen marks (class `jb-selected`).
 */
export function plotSpecToOptions(spec: PlotSpec): Plot.PlotOptions {
  const rows = plotRows(spec);
  const channels: Record<string, string> = {};
  for (const c of CHANNELS) if (spec[c]) channels[c] = spec[c]!;
  const mark = markFn(spec.mark);
  const plain = spec.layout === undefined;
  const own = { ...(plain ? { tip: true } : {}), ...spec.options, ...channels };
  const marks: Plot.Markish[] = [
    ...(spec.under ?? []).map(layer),
    mark(
      rows,
      spec.binX ? Plot.binX(spec.binX as Plot.BinOutputs, own) : spec.dodgeY ? Plot.dodgeY(own) : own,
    ),
    ...(spec.over ?? []).map(layer),
    ...((spec.extra ?? []) as Plot.Markish[]),
  ];
  const chosen = spec.select ? (spec as { value?: unknown }).value : undefined;
  if (chosen != null) {
    const picked = (i: number) => sameValue(rows[i]?.[spec.select!], chosen);
    // The same mark over all rows (so stacked bars keep their place), drawn only for the chosen ones, click-through.
    const outline = {
      ...spec.options,
      ...channels,
      fill: "none",
      stroke: "currentColor",
      strokeWidth: 2.5,
      className: "jb-selected",
      pointerEvents: "none",
    };
    const render = (
      index: number[],
      scales: object,
      values: object,
      dimensions: object,
      context: object,
      next: (...a: unknown[]) => unknown,
    ) => next(index.filter(picked), scales, values, dimensions, context);
    marks.push(mark(rows, { ...outline, render }));
  }
  return {
    ...(plain
      ? { grid: true, color: spec.fill || spec.stroke ? { legend: true } : undefined }
      : ownColours(spec, rows)),
    title: spec.title,
    width: spec.width,
    height: spec.height,
    marks,
  };
}

/**
 * A paper chart's layout, less its fixed colour domain when the colour channel was edited to a column none of
 * whose values it lists: Plot drops a mark whose colour is outside an explicit domain, so the edit would draw
 * nothing.
 */
function ownColours(spec: PlotSpec, rows: readonly Record<string, unknown>[]): PlotSpec["layout"] {
  const layout = spec.layout;
  const domain = (layout?.color as { domain?: unknown[] } | undefined)?.domain;
  const column = spec.fill ?? spec.stroke;
  if (!layout || !domain || !column) return layout;
  const listed = new Set(domain.map(String));
  if (rows.some((r) => listed.has(String(r[column])))) return layout;
  const { domain: _domain, range: _range, ...color } = layout.color as Record<string, unknown>;
  return { ...layout, color };
}

/**
 * A chart whose x interval is chosen by dragging across it (a brush), as `plot.brushX(options)` in notebooks.
 * It is still Plot options (every display renders it as a chart); wrapped in view() it is an input whose value
 * is the dragged interval [x1, x2] in x's units (ordered, within the domain), null until something is dragged
 * (and headless, unless `initial` is given). A click without a drag clears it. When its cell re-runs, the new chart
 * keeps a dragged window clipped to its x extent while they overlap (brushWindowOn; input-carry.ts).
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
  if (typeof scale.invert !== "function")
    throw new Error("plot.brushX: the x scale cannot be inverted (use a linear or time x)");
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

/**
 * The x extent a brush chart draws: its explicit x.domain, else the extent of its marks' x-scale values (Plot's
 * own channels, so stacks and x1/x2 count); null when neither says (no x values).
 */
export function brushDomain(options: Plot.PlotOptions): [number, number] | null {
  const num = (v: unknown) =>
    v instanceof Date ? v.getTime() : typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : NaN;
  let lo = Infinity;
  let hi = -Infinity;
  const see = (v: unknown) => {
    const n = num(v);
    if (Number.isFinite(n)) [lo, hi] = [Math.min(lo, n), Math.max(hi, n)];
  };
  const explicit = (options.x as { domain?: Iterable<unknown> } | undefined)?.domain;
  if (explicit) for (const v of explicit) see(v);
  else {
    type Initializable = {
      initialize(): { channels: Record<string, { scale?: string; value: ArrayLike<unknown> }> };
    };
    const visit = (m: unknown): void => {
      if (Array.isArray(m)) return m.forEach(visit);
      if (typeof (m as Initializable | null)?.initialize !== "function") return;
      let channels: ReturnType<Initializable["initialize"]>["channels"];
      try {
        channels = (m as Initializable).initialize().channels;
      } catch {
        return; // a mark that needs the whole plot to initialize says nothing here; the others still do
      }
      for (const channel of Object.values(channels))
        if (channel.scale === "x") for (let i = 0; i < channel.value.length; i++) see(channel.value[i]);
    };
    visit(options.marks);
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * A window kept on a re-made brush chart: clipped to the new x extent, null when it lies outside it (touching is not
 * overlapping); kept as is when the extent is unknown.
 */
export function brushWindowOn(
  window: readonly [number, number],
  domain: readonly [number, number] | null,
): [number, number] | null {
  const [a, b] = ordered(Number(window[0]), Number(window[1]));
  if (!domain) return [a, b];
  const [lo, hi] = ordered(domain[0], domain[1]);
  const [a2, b2] = [Math.max(a, lo), Math.min(b, hi)];
  return a2 < b2 || (a === b && a2 === b2) ? [a2, b2] : null;
}

function ordered(a: number, b: number): [number, number] {
  return a <= b ? [a, b] : [b, a];
}
