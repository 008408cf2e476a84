// Level of detail for a timeline's slices held in memory (frames, tasks, a trace's slices): per track and depth,
// a slice at least a pixel wide is drawn as itself, and runs of narrower ones whose pixels touch are merged into
// one summary box (Perfetto UI draws sub-pixel slices the same way: one box per pixel run, not one per slice).
// The boxes cover exactly the pixels the slices cover; at most about one summary box per pixel per lane.
// Calls at a million rows take the SQL route instead (cells/androscope/call-timeline.ts, same box shape).
import { timeWindow, type TimeWindow } from "./time-window";

/** One slice on a timeline: ns on the run's clock. */
export interface TimelineSlice {
  /** the track (thread, frame lane, task queue) it is drawn on */
  track: string;
  /** row within the track (call or slice depth); default 0 */
  depth?: number;
  start: number;
  /** >= start; a zero-length slice is an instant */
  end: number;
  name: string;
  /** a palette key (e.g. a jank type or a phase); the timeline colours by it, else by name */
  color?: string;
  /** shown in the details panel */
  args?: Readonly<Record<string, unknown>>;
}

/** What a timeline draws: a slice as itself (count 1) or a summary of count slices narrower than a pixel. */
export interface TimelineBox {
  track: string;
  depth: number;
  start: number;
  end: number;
  /** the slice's name; a summary's longest slice's name */
  name: string;
  count: number;
  /** ns the box's slices cover inside it (a summary is drawn as opaque as busy / (end - start)) */
  busy: number;
  color?: string;
  args?: Readonly<Record<string, unknown>>;
}

/** A pixel column of x in a window drawn widthPx wide (x = 0 at t0). */
export const pixelOf = (t: number, w: TimeWindow, widthPx: number) => ((t - w[0]) / (w[1] - w[0])) * widthPx;

/** Is the slice in view: overlapping [t0, t1), or an instant inside it. */
export const inWindow = (start: number, end: number, w: TimeWindow) =>
  start < w[1] && (end > w[0] || (end === start && start >= w[0]));

interface Open {
  box: TimelineBox;
  /** the last pixel the box reaches (exclusive) */
  lastPx: number;
  longest: number;
  first: TimelineSlice;
}

/** The boxes to draw for a window drawn widthPx wide, in (track, depth, start) order of first appearance. */
export function timelineLod(
  slices: readonly TimelineSlice[],
  window: readonly [number, number],
  widthPx: number,
): TimelineBox[] {
  const w = timeWindow(window)!;
  if (!(Number.isFinite(widthPx) && widthPx >= 1))
    throw new Error(`invalid widthPx: ${String(widthPx)} (expected a width in pixels >= 1)`);
  if (!(w[1] > w[0])) return [];
  const lanes = new Map<string, TimelineSlice[]>();
  for (const s of slices) {
    if (!(s.end >= s.start))
      throw new Error(`slice ${s.name} on ${s.track}: end ${s.end} before start ${s.start}`);
    if (!inWindow(s.start, s.end, w)) continue;
    const key = `${s.track}\u0000${s.depth ?? 0}`;
    const lane = lanes.get(key);
    if (lane) lane.push(s);
    else lanes.set(key, [s]);
  }
  const out: TimelineBox[] = [];
  for (const lane of lanes.values()) {
    lane.sort((a, b) => a.start - b.start || a.end - b.end);
    let open: Open | null = null;
    const close = () => {
      if (!open) return;
      // A run of one narrow slice is that slice, drawn a pixel wide.
      out.push(open.box.count === 1 ? asBox(open.first) : open.box);
      open = null;
    };
    for (const s of lane) {
      const cs = Math.max(s.start, w[0]);
      const ce = Math.min(s.end, w[1]);
      const x0 = pixelOf(cs, w, widthPx);
      const x1 = pixelOf(ce, w, widthPx);
      if (x1 - x0 >= 1) {
        out.push(asBox(s));
        continue;
      }
      const first = Math.floor(x0);
      const last = Math.max(first + 1, Math.ceil(x1));
      if (open && first <= (open as Open).lastPx) {
        const o: Open = open;
        o.box.count++;
        o.box.busy += ce - cs;
        o.box.end = Math.max(o.box.end, ce);
        o.lastPx = Math.max(o.lastPx, last);
        if (ce - cs > o.longest) ((o.longest = ce - cs), (o.box.name = s.name), (o.box.color = s.color));
        continue;
      }
      close();
      open = {
        box: {
          track: s.track,
          depth: s.depth ?? 0,
          start: cs,
          end: ce,
          name: s.name,
          count: 1,
          busy: ce - cs,
          color: s.color,
        },
        lastPx: last,
        longest: ce - cs,
        first: s,
      };
    }
    close();
  }
  return out;
}

/** A slice as a box, whole (its start and duration are the details panel's; drawing clips it). */
function asBox(s: TimelineSlice): TimelineBox {
  const box: TimelineBox = {
    track: s.track,
    depth: s.depth ?? 0,
    start: s.start,
    end: s.end,
    name: s.name,
    count: 1,
    busy: s.end - s.start,
  };
  if (s.color !== undefined) box.color = s.color;
  if (s.args !== undefined) box.args = s.args;
  return box;
}

/** SQL with `?` placeholders and the values bound to them, in order. */
export interface BoundSql {
  sql: string;
  params: unknown[];
}

/** One track of a timeline and how many rows (depths) it has: the layout stays put while zooming. */
export interface TimelineTrack {
  name: string;
  rows: number;
}

/**
 * A timeline whose boxes come from SQL at each zoom level (cells build the SQL, the notebook's timeline runs it):
 * the boxes for a window drawn widthPx wide, and a box's details.
 */
export interface TimelineQuerySource {
  extent: TimeWindow;
  tracks: TimelineTrack[];
  query(window: TimeWindow, widthPx: number): BoundSql;
  /** the query's rows (an Arrow table) as boxes */
  boxes(rows: unknown): TimelineBox[];
  /** a query whose first row adds to a box's details, or null */
  details?(box: TimelineBox): BoundSql | null;
}

/** Tracks in order of first appearance, each as deep as its deepest slice. */
export function timelineTracks(slices: readonly { track: string; depth?: number }[]): TimelineTrack[] {
  const rows = new Map<string, number>();
  for (const s of slices) rows.set(s.track, Math.max(rows.get(s.track) ?? 0, (s.depth ?? 0) + 1));
  return [...rows].map(([name, n]) => ({ name, rows: n }));
}

/** [first start, last end] of the slices, or null when there are none. */
export function timelineExtent(slices: readonly { start: number; end: number }[]): TimeWindow | null {
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const s of slices) ((t0 = Math.min(t0, s.start)), (t1 = Math.max(t1, s.end)));
  return t0 <= t1 ? [t0, t1] : null;
}
