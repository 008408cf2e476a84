// <jb-timeline>'s drawing: the layout of tracks and rows, the time axis, the boxes of the last level of detail
// loaded (placed by the current window, so a pan or zoom is drawn at once with the boxes at hand, as Perfetto UI
// does while its next query runs), names where they fit, the selection; and the hit test of a click.
import type { TimelineBox, TimelineTrack } from "../../cells/common/timeline-lod";
import type { TimeWindow } from "../../cells/common/time-window";
import { TIMELINE_MARGIN } from "../notebook/timeline-view";
import { boxColor, fitName } from "../notebook/timeline-plot";
import { fillBuffer, paintRect, parseColor } from "./timeline-raster";

export const AXIS_PX = 22;
const TRACK_GAP = 6;

export interface TimelineLayout {
  width: number;
  height: number;
  rowPx: number;
  /** y of each track's first row, by name */
  top: Map<string, number>;
  rows: Map<string, number>;
}

/** Rows as tall as fit in about 420 px (16 px at most, 2 at least): a 40-deep call stack on 8 threads still shows. */
export function timelineLayout(tracks: readonly TimelineTrack[], width: number): TimelineLayout {
  const total = tracks.reduce((n, t) => n + t.rows, 0);
  const rowPx = Math.max(2, Math.min(16, Math.floor(420 / Math.max(1, total))));
  const top = new Map<string, number>();
  const rows = new Map<string, number>();
  let y = AXIS_PX + 4;
  for (const t of tracks) {
    top.set(t.name, y);
    rows.set(t.name, t.rows);
    y += t.rows * rowPx + TRACK_GAP;
  }
  return { width, height: Math.max(y, AXIS_PX + 30), rowPx, top, rows };
}

/** Ticks at 1, 2 or 5 x 10^k ms from `origin` (ns), about one per 90 px: ms from the origin. */
export function timeTicks(w: TimeWindow, plotPx: number, origin = 0): number[] {
  const spanMs = (w[1] - w[0]) / 1e6;
  const raw = spanMs / Math.max(1, Math.floor(plotPx / 90));
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  const [from, to] = [(w[0] - origin) / 1e6, (w[1] - origin) / 1e6];
  // counted in steps, not summed: a sum drifts (0.1 + 0.2) and the last tick can fall off
  for (let k = Math.ceil(from / step); k * step <= to; k++) out.push(k * step);
  return out;
}

/** The colours the canvas draws in: the page's (--jb-* in workspace/style.css), so it follows a dark scheme. */
export interface TimelinePalette {
  /** the plot area's background */
  background: string;
  /** a track's rows */
  track: string;
  grid: string;
  /** track names */
  text: string;
  /** the axis's numbers and unit */
  muted: string;
  /** the outline of the selected box */
  selection: string;
}

export const LIGHT_PALETTE: TimelinePalette = {
  background: "#ffffff",
  track: "#f6f7f9",
  grid: "#e3e6eb",
  text: "#333333",
  muted: "#555555",
  selection: "#111111",
};

export interface DrawState {
  window: TimeWindow;
  tracks: readonly TimelineTrack[];
  boxes: readonly TimelineBox[];
  colors: Readonly<Record<string, string>>;
  selected: TimelineBox | null;
  layout: TimelineLayout;
  /** the time the axis counts from, ns */
  origin: number;
  palette?: TimelinePalette;
}

/** Box opacity: a summary as opaque as the time its slices cover, a slice fully. */
export const boxAlpha = (b: TimelineBox) =>
  b.count > 1 && b.end > b.start ? 0.3 + 0.7 * Math.min(1, b.busy / (b.end - b.start)) : 1;

/** The plot area's pixels, reused from frame to frame while the size holds. */
let pixels: ImageData | null = null;

/**
 * Draws everything: text and lines through the context (scaled to CSS pixels), the plot area's backgrounds and
 * boxes as pixels (timeline-raster.ts), names and the selection on top.
 */
export function drawTimeline(ctx: CanvasRenderingContext2D, s: DrawState, dpr = 1): void {
  const { layout, window: w } = s;
  const p = s.palette ?? LIGHT_PALETTE;
  const left = TIMELINE_MARGIN.left;
  const plotPx = layout.width - left - TIMELINE_MARGIN.right;
  const span = Math.max(1e-9, w[1] - w[0]);
  const x = (t: number) => left + ((t - w[0]) / span) * plotPx;
  ctx.clearRect(0, 0, layout.width, layout.height);
  const pw = Math.round(plotPx * dpr);
  const ph = Math.round((layout.height - AXIS_PX) * dpr);
  if (!pixels || pixels.width !== pw || pixels.height !== ph) pixels = ctx.createImageData(pw, ph);
  const buf = pixels;
  fillBuffer(buf, parseColor(p.background));
  // device pixels of the plot area: x from `left`, y from the axis
  const dx = (t: number) => ((t - w[0]) / span) * plotPx * dpr;
  const dy = (y: number) => (y - AXIS_PX) * dpr;
  for (const t of s.tracks) {
    const y = layout.top.get(t.name)!;
    paintRect(buf, 0, pw, dy(y), dy(y + t.rows * layout.rowPx), parseColor(p.track));
  }
  const ticks = timeTicks(w, plotPx, s.origin);
  const at = (tick: number) => tick * 1e6 + s.origin;
  const grid = parseColor(p.grid);
  for (const t of ticks) paintRect(buf, dx(at(t)), dx(at(t)), 0, ph, grid);
  const h = Math.max(1, layout.rowPx - 1);
  const named = layout.rowPx >= 11;
  const labels: [string, number, number][] = [];
  for (const b of s.boxes) {
    const top = layout.top.get(b.track);
    if (top === undefined || b.end < w[0] || b.start > w[1]) continue;
    const y = top + b.depth * layout.rowPx;
    const x0 = dx(b.start);
    const x1 = dx(b.end);
    paintRect(buf, x0, x1, dy(y), dy(y + h), parseColor(boxColor(b, s.colors)), boxAlpha(b));
    const bw = (Math.min(x1, pw) - Math.max(x0, 0)) / dpr;
    if (named && b.count === 1 && bw > 24) {
      const label = fitName(b.name, bw);
      if (label) labels.push([label, left + Math.max(x0, 0) / dpr + 2, y + h / 2]);
    }
  }
  ctx.putImageData(buf, Math.round(left * dpr), Math.round(AXIS_PX * dpr));
  ctx.font = "11px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.fillStyle = p.muted;
  ctx.textAlign = "center";
  const digits = Math.max(0, -Math.floor(Math.log10(Math.max(1e-9, (ticks[1] ?? 1) - (ticks[0] ?? 0)))));
  for (const t of ticks) ctx.fillText(`${t.toFixed(Math.min(6, digits))}`, x(at(t)), AXIS_PX / 2 - 2);
  ctx.textAlign = "left";
  ctx.fillText(s.origin ? "ms from the start" : "ms", 4, AXIS_PX / 2 - 2);
  ctx.fillStyle = p.text;
  for (const t of s.tracks) {
    const y = layout.top.get(t.name)!;
    ctx.fillText(fitName(t.name, left - 8), 4, y + Math.min(8, (t.rows * layout.rowPx) / 2));
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, AXIS_PX, plotPx, layout.height - AXIS_PX);
  ctx.clip();
  ctx.fillStyle = "#fff";
  for (const [label, lx, ly] of labels) ctx.fillText(label, lx, ly);
  const sel = s.selected;
  const selTop = sel ? layout.top.get(sel.track) : undefined;
  if (sel && selTop !== undefined) {
    ctx.strokeStyle = p.selection;
    ctx.lineWidth = 2;
    const x0 = x(sel.start);
    ctx.strokeRect(x0, selTop + sel.depth * layout.rowPx, Math.max(2, x(sel.end) - x0), h);
  }
  ctx.restore();
}

/** The box under (px, py) in CSS pixels, the smallest when several overlap; null when none. */
export function hitBox(s: DrawState, px: number, py: number): TimelineBox | null {
  const { layout, window: w } = s;
  const left = TIMELINE_MARGIN.left;
  const plotPx = layout.width - left - TIMELINE_MARGIN.right;
  if (px < left || px > left + plotPx) return null;
  const t = w[0] + ((px - left) / plotPx) * (w[1] - w[0]);
  // a box drawn 1 px wide is hit within 2 px
  const slack = (2 * (w[1] - w[0])) / plotPx;
  let best: TimelineBox | null = null;
  for (const b of s.boxes) {
    const top = layout.top.get(b.track);
    if (top === undefined) continue;
    const y = top + b.depth * layout.rowPx;
    if (py < y || py >= y + layout.rowPx) continue;
    if (t < b.start - slack || t > b.end + slack) continue;
    if (!best || b.end - b.start < best.end - best.start) best = b;
  }
  return best;
}
