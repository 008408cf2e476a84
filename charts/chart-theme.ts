// The one chart theme: applied to Plot options wherever a chart is drawn (the
// workspace's outputs and overview, published and headless reports, the golden SVGs). Pure: it reads the options'
// marks (their channels and data) and returns new options, so the same chart looks the same in every host.
import * as Plot from "@observablehq/plot";
import { TIME_AXIS } from "../cells/common/time-window";
import {
  booleanWords,
  columnLabel,
  isKnownColumn,
  looksLikeNs,
  nsKind,
  nsLabel,
  nsTransform,
  textWidth,
  truncateMiddle,
} from "./chart-labels";

/** Jank across the app (overview, notebook charts, timelines): a late frame is this red... */
export const JANK_COLOR = "#e03131";
/** ...and a frame on time this neutral grey. */
export const ON_TIME_COLOR = "#868e96";
/** The words the notebooks and cells give late and on-time frames, [late, on time]. */
export const JANK_WORDS: readonly (readonly [string, string])[] = [
  ["too late", "on time"],
  ["janky", "smooth"],
];

export interface ChartThemeOptions {
  /** the container's width in px: the chart takes it (an explicit, smaller `width` is kept) */
  width?: number;
  /** continuous colour legends (Plot draws their ramp on a canvas, which headless DOMs lack) */
  rampLegends?: boolean;
  /** add `tip: true` to dots, bars, rects and cells that have no tooltip (off for brushable charts) */
  tips?: boolean;
}

type Channel = { value: unknown; scale?: string | null; label?: string };
type AnyMark = Plot.Mark & {
  data?: unknown;
  channels?: Record<string, Channel>;
  tip?: unknown;
  fontSize?: unknown;
  fy?: unknown;
};
type ScaleKey = "x" | "y" | "color";
interface Bound {
  /** the columns bound to the scale, in the order of the marks (the first mark's first) */
  fields: string[];
  values: unknown[];
}

const TICK = 9; // Plot's tick (6 px) plus its padding (3 px)
const AXIS_LABEL = 16; // a rotated ordinal axis label beside the ticks
const MIN_FONT = 10;
const ROTATE = 40; // degrees of rotated x tick labels

function isMark(m: unknown): m is AnyMark {
  return typeof m === "object" && m !== null && !Array.isArray(m) && "channels" in m;
}

function flatMarks(marks: readonly unknown[] | undefined): unknown[] {
  return (marks ?? []).flatMap((m) => (Array.isArray(m) ? flatMarks(m) : [m]));
}

function valuesOf(mark: AnyMark, value: unknown): unknown[] {
  try {
    const v = Plot.valueof(mark.data as Plot.Data, value as Plot.ChannelValue);
    return v ? Array.from(v as ArrayLike<unknown>) : [];
  } catch {
    return []; // a transform that needs the whole plot to run says nothing here
  }
}

function scaleOf(name: string, channel: Channel): ScaleKey | undefined {
  const s =
    channel.scale === "auto" ? (name === "fill" || name === "stroke" ? "color" : undefined) : channel.scale;
  return s === "x" || s === "y" || s === "color" ? s : undefined;
}

/** The column a channel reads: its value, or the label a transform (stack, group) keeps of it. */
function fieldOf(channel: Channel): string | undefined {
  if (typeof channel.value === "string") return channel.value;
  const label = (channel.value as { label?: unknown } | null)?.label ?? channel.label;
  return typeof label === "string" ? label : undefined;
}

/** Which fields and values each scale is bound to, over every mark of the chart. */
function bindings(marks: AnyMark[]): Record<ScaleKey, Bound> {
  const out: Record<ScaleKey, Bound> = {
    x: { fields: [], values: [] },
    y: { fields: [], values: [] },
    color: { fields: [], values: [] },
  };
  for (const m of marks)
    for (const [name, channel] of Object.entries(m.channels ?? {})) {
      const key = scaleOf(name, channel);
      if (!key) continue;
      const field = fieldOf(channel);
      if (field) out[key].fields.push(field);
      // A transformed channel has no values until the plot runs; its column's values stand in for them.
      let values = valuesOf(m, channel.value);
      if (!values.some((v) => v != null) && field) values = valuesOf(m, field);
      for (const v of summary(values)) out[key].values.push(v);
    }
  return out;
}

const SAMPLE = 1024;

/**
 * What the theme needs of a long channel: the distinct values of a categorical one (its labels), else its extremes and an
 * even sample (enough to tell numbers, integers and bigints apart), so a 40,000-dot chart is not scanned whole.
 */
function summary(values: unknown[]): unknown[] {
  if (values.length <= SAMPLE) return values;
  const first = values.find((v) => v != null);
  if (typeof first === "string" || typeof first === "boolean") return [...new Set(values)];
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values)
    if (typeof v === "number") {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  const step = values.length / SAMPLE;
  const out: unknown[] = lo <= hi ? [lo, hi] : [];
  for (let i = 0; i < SAMPLE; i++) out.push(values[Math.floor(i * step)]);
  return out;
}

const present = (values: unknown[]) => values.filter((v) => v != null);
const isOrdinalValues = (values: unknown[]) =>
  present(values).length > 0 && present(values).every((v) => typeof v === "string" || typeof v === "boolean");
const ORDINAL_TYPES = new Set(["band", "point", "ordinal", "categorical"]);

function isOrdinal(scale: Plot.ScaleOptions | undefined, bound: Bound): boolean {
  if (scale?.type) return ORDINAL_TYPES.has(String(scale.type));
  return isOrdinalValues(bound.values);
}

function tickText(scale: Plot.ScaleOptions | undefined): (v: unknown) => string {
  const f = scale?.tickFormat;
  return typeof f === "function" ? (v) => String((f as (v: unknown, i: number) => unknown)(v, 0)) : String;
}

function ordinalLabels(scale: Plot.ScaleOptions | undefined, bound: Bound): string[] {
  const domain = Array.isArray(scale?.domain)
    ? (scale.domain as unknown[])
    : [...new Set(present(bound.values))];
  return domain.map(tickText(scale));
}

const natural = new Intl.Collator("en", { numeric: true }).compare;

/**
 * Plot sorts an ordinal domain as text ("frame 10" before "frame 9"): the labels in numeric order where that differs,
 * unless the scale has a domain or a mark sorts it.
 */
function naturalOrder(
  key: "x" | "y",
  scale: Plot.ScaleOptions | undefined,
  bound: Bound,
  marks: AnyMark[],
): Plot.ScaleOptions | undefined {
  if (scale?.domain !== undefined || !isOrdinal(scale, bound)) return scale;
  if (marks.some((m) => (m as { sort?: Record<string, unknown> | null }).sort?.[key] !== undefined))
    return scale;
  const domain = naturalDomain(bound.values);
  return domain ? { ...scale, domain } : scale;
}

/** The distinct labels in numeric order, when that differs from text order; else undefined (Plot's order stands). */
function naturalDomain(values: unknown[]): string[] | undefined {
  const distinct = [...new Set(present(values))];
  if (!distinct.every((v) => typeof v === "string") || !distinct.some((v) => /\d/.test(v as string)))
    return undefined;
  const text = [...(distinct as string[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const numeric = [...text].sort(natural);
  return numeric.every((v, i) => v === text[i]) ? undefined : numeric;
}

/** The widest of a linear axis's tick labels, from the data's extent (Plot's ticks are round numbers within it). */
function numericLabelWidth(values: unknown[]): number {
  let max = 0;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v)) max = Math.max(max, Math.abs(v));
  const digits = max >= 1 ? Math.floor(Math.log10(max)) + 1 : 3;
  const text = `-${"0".repeat(digits)}${",".repeat(Math.floor((digits - 1) / 3))}${max < 10 ? ".0" : ""}`;
  return textWidth(text);
}

/** The column that names the scale: the first mark's (the chart's subject; later marks are rules, deadlines). */
function mainField(bound: Bound): string | undefined {
  return bound.fields[0];
}

/** An axis label and, for raw nanoseconds, the transform to s or ms (bundle times are int64 ns). */
function axisScale(scale: Plot.ScaleOptions | undefined, bound: Bound): Plot.ScaleOptions | undefined {
  const field = mainField(bound);
  if (!field) return scale;
  const out: Plot.ScaleOptions = { ...scale };
  const kind = nsKind(field);
  // A scale transform converts every channel on it: only when all of them are nanoseconds of one kind.
  const oneKind = bound.fields.every((f) => nsKind(f) === kind);
  if (kind && oneKind && out.transform === undefined && looksLikeNs(bound.values)) {
    out.transform = nsTransform(kind);
    if (out.label === undefined) out.label = nsLabel(field, kind);
  }
  if (out.label === undefined || (typeof out.label === "string" && isKnownColumn(out.label)))
    out.label = columnLabel(typeof out.label === "string" ? out.label : field) || null;
  return out;
}

/** Colour: the jank palette, words for booleans, ordinal for numeric strings (Plot's ⚠ warning), a legend. */
function colorScale(
  scale: Plot.ScaleOptions | undefined,
  bound: Bound,
  theme: ChartThemeOptions,
): Plot.ScaleOptions | undefined {
  const values = present(bound.values);
  if (!values.length && !scale) return scale;
  const field = mainField(bound);
  const out: Plot.ScaleOptions = { ...scale };
  const strings = new Set(values.filter((v): v is string => typeof v === "string"));
  const booleans = values.length > 0 && values.every((v) => typeof v === "boolean");
  const jank = JANK_WORDS.find(([late, onTime]) => [...strings].every((s) => s === late || s === onTime));
  if (strings.size > 0 && jank) {
    out.domain = [jank[1], jank[0]];
    out.range = [ON_TIME_COLOR, JANK_COLOR];
  } else if (booleans) {
    const [yes, no] = booleanWords(field);
    out.domain ??= [false, true];
    if (field === "jank") out.range = [ON_TIME_COLOR, JANK_COLOR];
    out.tickFormat ??= (v: unknown) => (v ? yes : no);
  } else if (
    out.type === undefined &&
    out.domain === undefined &&
    strings.size > 0 &&
    [...strings].every((s) => s.trim() !== "" && Number.isFinite(Number(s)))
  )
    out.type = "categorical";
  const continuous =
    !strings.size && !booleans && !ORDINAL_TYPES.has(String(out.type ?? "")) && !Array.isArray(out.range);
  if (out.legend === undefined && (!continuous || theme.rampLegends)) out.legend = true;
  if (out.label === undefined && field) out.label = columnLabel(field) || null;
  // A ramp's end tick labels are centred on its ends: room for them inside the legend.
  if (continuous && out.legend) Object.assign(out, { marginLeft: 16, marginRight: 16 });
  return out;
}

function clone<T extends object>(m: T, patch: Record<string, unknown>): T {
  return Object.assign(Object.create(Object.getPrototypeOf(m) as object) as T, m, patch);
}

/** Marks that read better with a tooltip when they carry none: the dense ones (dots, bars, rects, cells). */
function wantsTip(m: AnyMark): boolean {
  const dense =
    m instanceof Plot.Dot ||
    m instanceof Plot.BarX ||
    m instanceof Plot.BarY ||
    m instanceof Plot.Rect ||
    m instanceof Plot.Cell;
  const { tip, channels } = m as AnyMark;
  return dense && !tip && !channels?.title;
}

function themedMark(m: unknown, tipped: unknown): unknown {
  if (!isMark(m)) return m;
  const patch: Record<string, unknown> = {};
  // At most 10 px less is illegible (chart text was ~6 px at 900 px wide).
  const fontSize = (m as AnyMark).fontSize;
  if (m instanceof Plot.Text && typeof fontSize === "number" && fontSize < MIN_FONT)
    patch.fontSize = MIN_FONT;
  if (m === tipped) patch.tip = "xy";
  return Object.keys(patch).length ? clone(m, patch) : m;
}

/**
 * How far past the plot's right edge text that is not end-anchored (value labels after bars) reaches, on a linear x
 * from 0: the right margin that keeps it inside the SVG.
 */
function textOverhang(marks: AnyMark[], options: Plot.PlotOptions, width: number): number {
  if (options.x?.type !== undefined && options.x.type !== "linear") return 0;
  if (!marks.some((m) => m instanceof Plot.Text)) return 0;
  let max = 0;
  for (const m of marks)
    for (const [name, ch] of Object.entries(m.channels ?? {}))
      if (scaleOf(name, ch) === "x")
        for (const v of valuesOf(m, ch.value)) if (typeof v === "number") max = Math.max(max, v);
  if (!(max > 0)) return 0;
  const inner = width - (options.marginLeft ?? 40) - (options.marginRight ?? 20);
  let reach = 0;
  for (const m of marks) {
    const t = m as AnyMark & { textAnchor?: string; dx?: number };
    if (!(m instanceof Plot.Text) || t.textAnchor === "end" || !t.channels?.x || !t.channels.text) continue;
    const share = t.textAnchor === "start" ? 1 : 0.5; // Plot's default anchor is the middle
    const xs = valuesOf(m, t.channels.x.value);
    const texts = valuesOf(m, t.channels.text.value);
    xs.forEach((x, i) => {
      if (typeof x !== "number") return;
      const end = (x / max) * inner + (t.dx ?? 0) + share * textWidth(String(texts[i] ?? "")) - inner;
      reach = Math.max(reach, end + 6);
    });
  }
  return reach;
}

/** An explicit axis whose long tick labels are cut in the middle, the full text in a `title` tooltip. */
function fittedAxis(
  key: "x" | "y" | "fy",
  scale: Plot.ScaleOptions | undefined,
  maxPx: number,
  extra: Record<string, unknown> = {},
): Plot.Markish {
  const full = tickText(scale);
  const options = {
    label: scale?.label,
    tickFormat: (v: unknown) => truncateMiddle(full(v), maxPx),
    title: (v: unknown) => full(v),
    ...extra,
  };
  return key === "x" ? Plot.axisX(options) : key === "y" ? Plot.axisY(options) : Plot.axisFy(options);
}

/** Is this chart drawn on the timeline's time axis (its width and margins)? Such a chart lines up with the timeline. */
export function isOnTimeAxis(options: Plot.PlotOptions): boolean {
  return options.width === TIME_AXIS.width && options.marginLeft === TIME_AXIS.left;
}

/** The chart's options with the theme applied (see ChartThemeOptions); the input is not changed. */
export function themePlot(options: Plot.PlotOptions, theme: ChartThemeOptions = {}): Plot.PlotOptions {
  const out: Plot.PlotOptions = { ...options };
  // A chart on the timeline's shared time axis keeps its margins and takes the column's whole width, as the timeline
  // above it does (jb-timeline.ts): the same time at the same x.
  const onTimeAxis = isOnTimeAxis(options);
  if (theme.width && !onTimeAxis) out.width = Math.min(options.width ?? theme.width, theme.width);
  if (theme.width && onTimeAxis) out.width = theme.width;
  // ...and its size: Plot's own style would shrink it to a narrower column (text under 10 px); it scrolls instead.
  if (onTimeAxis)
    out.style = { ...(typeof options.style === "object" ? options.style : {}), maxWidth: "none" };
  const width = out.width ?? 640;
  const marks = flatMarks(options.marks as unknown[]).filter(isMark);
  const bound = bindings(marks);
  const added: Plot.Markish[] = [];
  out.x = axisScale(options.x, bound.x);
  out.y = axisScale(options.y, bound.y);
  out.x = naturalOrder("x", out.x, bound.x, marks);
  out.y = naturalOrder("y", out.y, bound.y, marks);
  if (bound.color.values.length || bound.color.fields.length)
    out.color = colorScale(options.color, bound.color, theme);

  const cap = Math.max(100, Math.round(width * 0.4));
  if (isOrdinal(out.y, bound.y) && out.y?.axis !== null) {
    const labels = ordinalLabels(out.y, bound.y);
    const labelRoom = out.y?.label == null ? 0 : AXIS_LABEL;
    const need = Math.ceil(Math.max(0, ...labels.map((l) => textWidth(l)))) + TICK + 4 + labelRoom;
    out.marginLeft = Math.min(need, cap);
    if (need > cap) added.push(fittedAxis("y", out.y, cap - TICK - 4 - labelRoom));
  } else if (bound.y.values.length && out.y?.axis !== null) {
    const need = Math.ceil(numericLabelWidth(bound.y.values)) + TICK + 4;
    if (need > (out.marginLeft ?? 40)) out.marginLeft = need;
  }

  if (isOrdinal(out.x, bound.x) && out.x?.axis !== null) {
    const labels = ordinalLabels(out.x, bound.x);
    const widest = Math.max(0, ...labels.map((l) => textWidth(l)));
    const step = (width - (out.marginLeft ?? 40) - (out.marginRight ?? 20)) / Math.max(1, labels.length);
    if (widest > step * 0.9 && out.x?.tickRotate === undefined) {
      // Rotated labels hang below and to the left of their tick: make room on both sides.
      const room = Math.min(widest, 160);
      const rad = (ROTATE * Math.PI) / 180;
      out.marginBottom = Math.ceil(room * Math.sin(rad) + 12 + TICK + (out.x?.label == null ? 0 : 18));
      out.marginLeft = Math.max(out.marginLeft ?? 40, Math.ceil(room * Math.cos(rad) - step / 2 + 4));
      if (widest > room) added.push(fittedAxis("x", out.x, room, { tickRotate: -ROTATE }));
      else out.x = { ...out.x, tickRotate: -ROTATE };
    }
  }

  // Without a y axis Plot leaves no top margin: text centred on the top row would stick out of the SVG.
  if (out.y?.axis === null && marks.some((m) => m instanceof Plot.Text && (m as AnyMark).channels?.y))
    out.marginTop = Math.max(out.marginTop ?? 0, 12);

  const overhang = textOverhang(marks, out, width);
  if (overhang > (out.marginRight ?? 20)) out.marginRight = Math.ceil(overhang);

  const fy = marks.map((m) => m.fy).find((f): f is string => typeof f === "string");
  if (fy && out.fy?.axis !== null) {
    const labels = [
      ...new Set(
        marks.filter((m) => m.fy === fy).flatMap((m) => present(summary(valuesOf(m, fy))).map(String)),
      ),
    ];
    const need = Math.ceil(Math.max(0, ...labels.map((l) => textWidth(l)))) + TICK + 4;
    const facetCap = Math.max(80, Math.round(width * 0.25));
    out.marginRight = Math.min(need, facetCap);
    if (out.fy?.label === undefined) out.fy = { ...out.fy, label: null };
    const sorted = marks.some((m) => (m as { sort?: Record<string, unknown> | null }).sort?.fy !== undefined);
    const raw = marks.filter((m) => m.fy === fy).flatMap((m) => summary(valuesOf(m, fy)));
    const facets = out.fy?.domain === undefined && !sorted ? naturalDomain(raw) : undefined;
    if (facets) out.fy = { ...out.fy, domain: facets };
    if (need > facetCap) added.push(fittedAxis("fy", out.fy, facetCap - TICK - 4, { anchor: "right" }));
  }

  // One pointer per chart: a second tip would fight the first (and a chart's own click handling) for the pointer.
  const tipped =
    theme.tips === false || marks.some((m) => m.tip) ? undefined : marks.find((m) => wantsTip(m));
  out.marks = [
    ...flatMarks(options.marks as unknown[]).map((m) => themedMark(m, tipped)),
    ...added,
  ] as Plot.Markish[];
  return out;
}

/** Chart titles and legends sized to charts (Plot's figure puts the title in an <h2>), shared by every host. */
export const CHART_CSS = `
figure { margin: 0 0 6px; max-width: 100%; }
figure > h2 { font-size: 14px; font-weight: 600; line-height: 1.3; margin: 0 0 2px; }
figure > h3 { font-size: 12px; font-weight: 400; line-height: 1.3; margin: 0 0 4px; opacity: 0.75; }
`;
