// `jb.timeline({...})`: a zoomable timeline as a notebook value, in both hosts. Its value is the window shown,
// [t0, t1] ns (cells/common/time-window.ts), so `const w = view(await jb.timeline(...))` is the notebook's shared
// time window: every cell reading `w` (counters, heap, a profile) follows zoom and pan. It holds no DOM: the
// browser draws it with <jb-timeline>, publish and the headless runner as a static SVG of the current window.
// Boxes come per zoom level from the slices in memory (timelineLod) or from SQL (a TimelineQuerySource): one
// query in flight at a time and only the newest window waiting, so a burst of wheel events runs two queries,
// not fifty, and the last view always wins.
import {
  timelineExtent,
  timelineLod,
  timelineTracks,
  type BoundSql,
  type TimelineBox,
  type TimelineQuerySource,
  type TimelineSlice,
  type TimelineTrack,
} from "../../cells/common/timeline-lod";
import { TIME_AXIS, clampWindow, timeWindow, type TimeWindow } from "../../cells/common/time-window";
import { holdInput } from "./view-input";

export interface TimelineOptions {
  title?: string;
  /** slices held in memory: frames, tasks, a trace's slices */
  slices?: readonly TimelineSlice[];
  /** or boxes from SQL at each zoom level (e.g. jb.androscope.callTimelineSource) */
  source?: TimelineQuerySource;
  /** how far zooming out goes; default the slices' or the source's extent */
  extent?: readonly [number, number] | null;
  /** the window shown first; default the extent */
  window?: readonly [number, number] | null;
  /** colour key (a slice's color, else its name) -> CSS colour */
  colors?: Readonly<Record<string, string>>;
  /**
   * the chart's width in px, gutter included, in published and headless pictures; default 760 (the notebook's plot
   * width). The workspace draws it at its column's width.
   */
  width?: number;
  /**
   * The time the axis counts from, ns. Default: the slices' first start (a trace's clock counts from boot, so
   * 476,593.396 s says nothing; 12.5 ms from the start does), 0 for a query source (a method trace's clock
   * already starts with the trace). Absolute times stay on hover and in a slice's details.
   */
  origin?: number;
}

/** The timeline's layout, shared with the charts under it so their x axes line up: track names left of x. */
export const TIMELINE_MARGIN = TIME_AXIS;

type RunSql = (q: BoundSql) => Promise<unknown>;

export interface LoadedBoxes {
  window: TimeWindow;
  widthPx: number;
  boxes: TimelineBox[];
}

export class TimelineView extends EventTarget {
  readonly __timeline = true;
  readonly title: string | undefined;
  readonly extent: TimeWindow;
  readonly tracks: TimelineTrack[];
  readonly colors: Readonly<Record<string, string>>;
  readonly width: number;
  /** the time the axis counts from, ns (TimelineOptions.origin) */
  readonly origin: number;
  /** the last boxes loaded, for the window they were loaded for */
  loaded: LoadedBoxes | null = null;
  private current: TimeWindow;
  private readonly slices: readonly TimelineSlice[] | null;
  private readonly source: TimelineQuerySource | null;
  private readonly run: RunSql | null;
  private inFlight: Promise<void> | null = null;
  private wanted: { window: TimeWindow; widthPx: number } | null = null;
  private inputTimer: ReturnType<typeof setTimeout> | null = null;
  private lastInput = 0;
  private releaseInput: () => void = () => {};

  constructor(options: TimelineOptions, run: RunSql | null) {
    super();
    if (!options.slices === !options.source)
      throw new Error("jb.timeline: give either slices (an array) or a source (a TimelineQuerySource)");
    if (options.source && !run) throw new Error("jb.timeline: a query source needs a SQL engine");
    this.title = options.title;
    this.slices = options.slices ?? null;
    this.source = options.source ?? null;
    this.run = run;
    this.extent =
      timeWindow(options.extent) ??
      (this.source ? this.source.extent : timelineExtent(this.slices!)) ??
      ([0, 1_000_000] as const);
    this.tracks = this.source ? this.source.tracks : timelineTracks(this.slices!);
    this.colors = options.colors ?? {};
    this.width = options.width ?? TIME_AXIS.width;
    this.current = clampWindow(timeWindow(options.window) ?? this.extent, this.extent);
    this.origin = options.origin ?? (this.source ? 0 : this.extent[0]);
    if (!Number.isFinite(this.origin))
      throw new Error(`jb.timeline: origin must be a number of ns, got ${options.origin}`);
  }

  /** The window shown, [t0, t1] ns. Setting it (the runtime's setInput, a carried choice) moves the view. */
  get value(): TimeWindow {
    return this.current;
  }
  set value(w: TimeWindow | null) {
    this.current = clampWindow(timeWindow(w) ?? this.extent, this.extent);
    this.dispatchEvent(new Event("window"));
  }

  /** Moves the view (a gesture): the drawing follows at once, the cells reading the window within ~150 ms. */
  setWindow(w: TimeWindow, settle = false): void {
    this.current = clampWindow(w, this.extent);
    this.dispatchEvent(new Event("window"));
    if (this.inputTimer) clearTimeout(this.inputTimer);
    // the notebook is not settled (publish, tests) while the window is on its way to the cells reading it
    else this.releaseInput = holdInput();
    // Trailing, but at least every 300 ms during a long gesture: dependents follow without re-running per frame.
    const now = Date.now();
    const delay = settle || now - this.lastInput > 300 ? 0 : 150;
    this.inputTimer = setTimeout(() => {
      this.inputTimer = null;
      this.lastInput = Date.now();
      this.releaseInput();
      this.dispatchEvent(new Event("input"));
    }, delay);
  }

  /** The plot area's width in px: what one box pixel is measured against. */
  get plotWidth(): number {
    return Math.max(1, this.width - TIMELINE_MARGIN.left - TIMELINE_MARGIN.right);
  }

  /**
   * Loads the boxes for a window (default the current one): resolves when this or a newer request's boxes are in
   * `loaded`, and dispatches "boxes" each time some arrive. Never throws: a failed query dispatches "error".
   */
  load(window: TimeWindow = this.current, widthPx = this.plotWidth): Promise<void> {
    if (this.slices) {
      this.loaded = { window, widthPx, boxes: timelineLod(this.slices, window, widthPx) };
      this.dispatchEvent(new Event("boxes"));
      return Promise.resolve();
    }
    this.wanted = { window, widthPx };
    this.inFlight ??= this.drain().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** The details query of a box, run; null when the source has none. */
  async details(box: TimelineBox): Promise<Record<string, unknown> | null> {
    const q = this.source?.details?.(box);
    if (!q || !this.run) return null;
    const t = (await this.run(q)) as {
      numRows: number;
      get(i: number): { toJSON(): Record<string, unknown> };
    };
    return t.numRows > 0 ? t.get(0).toJSON() : null;
  }

  private async drain(): Promise<void> {
    while (this.wanted) {
      const { window, widthPx } = this.wanted;
      this.wanted = null;
      try {
        const rows = await this.run!(this.source!.query(window, widthPx));
        this.loaded = { window, widthPx, boxes: this.source!.boxes(rows) };
        this.dispatchEvent(new Event("boxes"));
      } catch (e) {
        this.dispatchEvent(new CustomEvent("error", { detail: e }));
      }
    }
  }
}

export function isTimelineView(v: unknown): v is TimelineView {
  return typeof v === "object" && v !== null && (v as { __timeline?: unknown }).__timeline === true;
}

/** `jb.timeline(options)`: the timeline with its first window's boxes loaded (published reports draw those). */
export async function timeline(options: TimelineOptions, run: RunSql | null): Promise<TimelineView> {
  const view = new TimelineView(options, run);
  let failure: unknown = null;
  view.addEventListener("error", (e) => (failure = (e as CustomEvent).detail));
  await view.load();
  if (failure) throw failure;
  return view;
}
