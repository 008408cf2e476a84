// How a timeline's boxes look, for <jb-timeline>'s canvas and for the static SVG of published and headless
// reports (the same colours, the same names where they fit): the current window's boxes as Plot rectangles,
// one facet per track, a row per depth, on the x axis the linked charts under it share (TIMELINE_MARGIN).
import * as Plot from "@observablehq/plot";
import type { TimelineBox } from "../../cells/common/timeline-lod";
import { JANK_COLOR, ON_TIME_COLOR } from "../../charts/chart-theme";
import { TIMELINE_MARGIN, type TimelineView } from "./timeline-view";

/**
 * Jank and phase colours: the app's one jank palette (chart-theme.ts), red for a missed deadline whatever
 * Perfetto calls it, grey for on time.
 */
export const TIMELINE_PALETTE: Readonly<Record<string, string>> = {
  "on time": ON_TIME_COLOR,
  None: ON_TIME_COLOR,
  jank: JANK_COLOR,
  "too late": JANK_COLOR,
  queued: "#ff7f0e",
  running: "#1f77b4",
};

const CATEGORICAL = [
  "#4e79a7",
  "#f28e2c",
  "#59a14f",
  "#76b7b2",
  "#edc949",
  "#af7aa1",
  "#ff9da7",
  "#9c755f",
  "#e15759",
  "#bab0ab",
];

/** A box's colour: its color key through the palettes, else a stable colour per name (as Perfetto hashes names). */
export function boxColor(box: TimelineBox, colors: Readonly<Record<string, string>>): string {
  const key = box.color ?? box.name;
  const known = colors[key] ?? TIMELINE_PALETTE[key];
  if (known) return known;
  if (box.color?.toLowerCase().includes("jank") || box.color?.includes("Missed"))
    return TIMELINE_PALETTE.jank!;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return CATEGORICAL[h % CATEGORICAL.length]!;
}

/**
 * The name as it fits in px pixels of ~charPx-wide characters: whole, else without its package
 * (`android.os.MessageQueue.next` -> `MessageQueue.next`), else cut with an ellipsis; "" when under two letters fit.
 */
export function fitName(name: string, px: number, charPx = 6.5): string {
  const room = Math.floor((px - 4) / charPx);
  if (room >= name.length) return name;
  const dots = name.split(".");
  const short = dots.length > 2 ? dots.slice(-2).join(".") : name;
  if (room >= short.length) return short;
  if (room < 2) return "";
  return `${short.slice(0, room - 1)}…`;
}

/** ns as ms: to the µs, or to a tenth of a ms past a second unless `precise` (a slice's details). */
export const msLabel = (ns: number, precise = false) =>
  `${(ns / 1e6).toFixed(precise || Math.abs(ns) < 1e9 ? 3 : 1)} ms`;

/** A time as a reader wants it: from the axis's origin, and on the trace's own clock (since boot, for most). */
export const timeAtLabel = (ns: number, origin: number) =>
  origin
    ? `${msLabel(ns - origin, true)} from the start (${msLabel(ns, true)} on the trace's clock)`
    : msLabel(ns, true);

/** The current window's boxes as Plot options (a static SVG with the window in its title). */
export function timelinePlot(view: TimelineView): Plot.PlotOptions {
  const [t0, t1] = view.value;
  const origin = view.origin;
  // the browser loads boxes a span beyond each side of the window: a report draws those in it
  const boxes = (view.loaded?.boxes ?? []).filter((b) => b.start <= t1 && b.end >= t0);
  const toPx = (t: number) => ((t - t0) / Math.max(1, t1 - t0)) * view.plotWidth;
  const rows = boxes.map((b) => ({
    track: b.track,
    depth: b.depth,
    x1: (Math.max(b.start, t0) - origin) / 1e6,
    x2: (Math.min(b.end, t1) - origin) / 1e6,
    fill: boxColor(b, view.colors),
    opacity: b.count > 1 && b.end > b.start ? 0.3 + 0.7 * Math.min(1, b.busy / (b.end - b.start)) : 1,
    label: b.count > 1 ? "" : fitName(b.name, toPx(Math.min(b.end, t1)) - toPx(Math.max(b.start, t0))),
    title:
      b.count > 1
        ? `${b.count} slices, longest ${b.name}`
        : `${b.name}, ${msLabel(b.end - b.start)} at ${timeAtLabel(b.start, origin)}`,
  }));
  const tracks = view.tracks.map((t) => t.name);
  const deepest = Math.max(1, ...view.tracks.map((t) => t.rows));
  const rowPx = Math.max(4, Math.min(16, Math.floor(480 / Math.max(1, deepest * tracks.length))));
  return {
    title: `${view.title ?? "Timeline"} (${msLabel(t0 - origin)} – ${msLabel(t1 - origin)}${origin ? " from the start" : ""})`,
    width: view.width,
    height: 50 + tracks.length * (deepest * rowPx + 6),
    marginLeft: TIMELINE_MARGIN.left,
    marginRight: TIMELINE_MARGIN.right,
    x: {
      label: origin ? "time from the start (ms)" : "time (ms)",
      domain: [(t0 - origin) / 1e6, (t1 - origin) / 1e6],
      grid: true,
    },
    y: { axis: null, domain: [deepest, 0] },
    fy: {
      label: null,
      domain: tracks,
      axis: "left",
      tickSize: 0,
      tickFormat: (d: string) => fitName(d, TIMELINE_MARGIN.left - 10),
    },
    marks: [
      Plot.rect(rows, {
        x1: "x1",
        x2: "x2",
        y1: "depth",
        y2: (r: { depth: number }) => r.depth + 0.9,
        fy: "track",
        fill: "fill",
        fillOpacity: "opacity",
        title: "title",
        clip: true,
      }),
      Plot.text(
        rows.filter((r) => r.label),
        {
          x: (r: { x1: number; x2: number }) => (r.x1 + r.x2) / 2,
          y: (r: { depth: number }) => r.depth + 0.45,
          fy: "track",
          text: "label",
          fill: "white",
          fontSize: 10,
          clip: true,
        },
      ),
      Plot.frame({ stroke: "#ddd" }),
    ],
  };
}
