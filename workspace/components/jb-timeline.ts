// <jb-timeline>: a notebook's jb.timeline(...) drawn on a canvas, with Perfetto UI's controls: the wheel zooms
// about the pointer (ctrl + wheel, a trackpad pinch, too), a horizontal wheel or a drag pans, W/S zoom and A/D
// pan, +/- zoom; a click shows a box's details, Esc or "clear" drops the selection. Every move redraws at once
// from the boxes at hand and asks the view for the new level of detail (one query at a time, the newest wins).
// Boxes are asked for a window one span wider on each side, so a pan shows no holes while the query runs. It is as
// wide as its column and draws in the page's colours (--jb-*), redrawn when either changes.
import { LitElement, css, html, nothing } from "lit";
import type { TimelineBox } from "../../cells/common/timeline-lod";
import { panWindow, zoomWindow, type TimeWindow } from "../../cells/common/time-window";
import { msLabel, timeAtLabel } from "../notebook/timeline-plot";
import { TIMELINE_MARGIN, type TimelineView } from "../notebook/timeline-view";
import {
  LIGHT_PALETTE,
  drawTimeline,
  hitBox,
  timelineLayout,
  type DrawState,
  type TimelinePalette,
} from "./timeline-canvas";

const ZOOM_STEP = 0.8;
const PAN_STEP = 0.1;

export class JbTimeline extends LitElement {
  static override properties = {
    view: { attribute: false },
    selection: { state: true },
    summary: { state: true },
  };
  declare view: TimelineView | null;
  /** the box clicked, and its source's details once they arrive */
  declare selection: { box: TimelineBox; details: Record<string, unknown> | null } | null;
  declare summary: string;

  static override styles = css`
    :host {
      display: block;
      font:
        12px system-ui,
        sans-serif;
    }
    .bar {
      display: flex;
      gap: 6px;
      align-items: center;
      margin-bottom: 4px;
    }
    .bar h3 {
      font-size: 13px;
      margin: 0 auto 0 0;
      font-weight: 600;
    }
    button {
      font: inherit;
      padding: 1px 7px;
    }
    canvas {
      display: block;
      touch-action: none;
      cursor: grab;
      outline: none;
    }
    canvas:focus-visible {
      box-shadow: 0 0 0 2px var(--jb-accent, #3b5bdb);
    }
    .summary {
      color: var(--jb-muted, #5d6678);
      margin: 2px 0;
    }
    .details {
      border: 1px solid var(--jb-border, #dfe3ea);
      border-radius: 4px;
      padding: 4px 8px;
      margin-top: 4px;
    }
    .details dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 0 10px;
      margin: 0;
    }
    .details dt {
      color: var(--jb-muted, #5d6678);
    }
    .details dd {
      margin: 0;
      font-family: ui-monospace, monospace;
    }
  `;

  private canvas: HTMLCanvasElement | null = null;
  private frame = 0;
  private pointerX: number | null = null;
  private drag: { x: number; window: TimeWindow; moved: boolean } | null = null;
  private bound: TimelineView | null = null;
  /** The width drawn at: the column's (the host's), else the view's own (TimelineOptions.width). */
  private widthPx = 0;
  private readonly resized = new ResizeObserver(() => {
    if (this.clientWidth && this.clientWidth !== this.widthPx)
      ((this.widthPx = this.clientWidth), this.changed());
  });
  // absent where there is no media (jsdom): the colours are then read at each draw only
  private readonly scheme =
    typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
  private readonly onScheme = () => this.schedule();
  private readonly onWindow = () => this.changed();
  private readonly onBoxes = () => (this.schedule(), this.describe());
  /** The summary follows the settled window (the view's "input"), not every frame of a gesture. */
  private readonly onInput = () => this.describe();

  constructor() {
    super();
    this.view = null;
    this.selection = null;
    this.summary = "";
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resized.disconnect();
    this.scheme?.removeEventListener("change", this.onScheme);
    this.bind(null);
    cancelAnimationFrame(this.frame);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resized.observe(this);
    this.scheme?.addEventListener("change", this.onScheme);
    // moved in the page (a cell moved): listen again
    if (this.view && this.bound !== this.view) this.bind(this.view);
  }

  override updated(changed: Map<string, unknown>): void {
    const first = !this.canvas;
    this.canvas ??= this.renderRoot.querySelector("canvas");
    if (this.view !== this.bound) this.bind(this.view);
    if (first || changed.has("selection")) this.schedule();
  }

  private bind(view: TimelineView | null) {
    this.bound?.removeEventListener("window", this.onWindow);
    this.bound?.removeEventListener("boxes", this.onBoxes);
    this.bound?.removeEventListener("input", this.onInput);
    this.bound = view;
    view?.addEventListener("window", this.onWindow);
    view?.addEventListener("boxes", this.onBoxes);
    view?.addEventListener("input", this.onInput);
    if (view) (this.changed(), this.describe());
  }

  private get width(): number {
    return this.widthPx || this.view?.width || TIMELINE_MARGIN.width;
  }

  /** px of the time axis: the width less the track names' gutter and the right margin. */
  private get plotWidth(): number {
    return Math.max(1, this.width - TIMELINE_MARGIN.left - TIMELINE_MARGIN.right);
  }

  /** The page's colours (workspace/style.css), read at each draw: a scheme change redraws. */
  private palette(): TimelinePalette {
    const style = getComputedStyle(this);
    const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    return {
      background: read("--jb-panel", LIGHT_PALETTE.background),
      track: read("--jb-head", LIGHT_PALETTE.track),
      grid: read("--jb-border", LIGHT_PALETTE.grid),
      text: read("--jb-fg", LIGHT_PALETTE.text),
      muted: read("--jb-muted", LIGHT_PALETTE.muted),
      selection: read("--jb-fg", LIGHT_PALETTE.selection),
    };
  }

  /** The window moved: redraw now, and ask for its level of detail unless the boxes at hand are fine for it. */
  private changed() {
    const v = this.view;
    if (!v) return;
    const w = v.value;
    const span = w[1] - w[0];
    const l = v.loaded;
    const loadedScale = l ? (l.window[1] - l.window[0]) / l.widthPx : 0;
    const scale = span / this.plotWidth;
    const fine =
      l &&
      l.window[0] <= w[0] &&
      l.window[1] >= w[1] &&
      loadedScale <= scale * 1.5 &&
      loadedScale >= scale / 1.5;
    if (!fine) void v.load([w[0] - span, w[1] + span], this.plotWidth * 3);
    this.schedule();
  }

  private schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private state(): DrawState | null {
    const v = this.view;
    if (!v) return null;
    return {
      window: v.value,
      tracks: v.tracks,
      boxes: v.loaded?.boxes ?? [],
      colors: v.colors,
      selected: this.selection?.box ?? null,
      layout: timelineLayout(v.tracks, this.width),
      origin: v.origin,
      palette: this.palette(),
    };
  }

  private draw() {
    const s = this.state();
    const c = this.canvas;
    if (!s || !c) return;
    const dpr = window.devicePixelRatio || 1;
    const { width, height } = s.layout;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext("2d")!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTimeline(ctx, s, dpr);
  }

  private describe() {
    const v = this.view;
    if (!v) return;
    const boxes = v.loaded?.boxes ?? [];
    const merged = boxes.filter((b) => b.count > 1).length;
    const [t0, t1] = v.value;
    const from = v.origin ? " from the start" : "";
    this.summary = `${v.tracks.length} tracks, ${msLabel(t0 - v.origin)} – ${msLabel(t1 - v.origin)}${from} (${msLabel(t1 - t0)} shown); ${boxes.length} boxes loaded, ${merged} of them merging slices narrower than a pixel`;
  }

  private timeAt(clientX: number): number {
    const v = this.view!;
    const r = this.canvas!.getBoundingClientRect();
    const px = clientX - r.left - TIMELINE_MARGIN.left;
    const w = v.value;
    return w[0] + (px / this.plotWidth) * (w[1] - w[0]);
  }

  private zoom(factor: number, anchor?: number) {
    const v = this.view;
    if (!v) return;
    const w = v.value;
    const at = anchor ?? (this.pointerX !== null ? this.timeAt(this.pointerX) : (w[0] + w[1]) / 2);
    v.setWindow(zoomWindow(w, factor, at, v.extent));
  }

  private pan(share: number) {
    const v = this.view;
    if (!v) return;
    const w = v.value;
    v.setWindow(panWindow(w, (w[1] - w[0]) * share, v.extent));
  }

  private onWheel(e: WheelEvent) {
    if (!this.view) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    const dx = e.shiftKey ? e.deltaY * unit : e.deltaX * unit;
    const dy = e.shiftKey ? 0 : e.deltaY * unit;
    this.pointerX = e.clientX;
    // a pinch arrives as ctrl + wheel with small deltas: zoom harder per pixel
    if (dy) this.zoom(Math.exp(dy * (e.ctrlKey ? 0.01 : 0.002)), this.timeAt(e.clientX));
    if (dx) this.pan(dx / this.plotWidth);
  }

  private onPointerDown(e: PointerEvent) {
    if (!this.view || e.button !== 0) return;
    this.canvas!.setPointerCapture(e.pointerId);
    this.canvas!.focus({ preventScroll: true });
    this.drag = { x: e.clientX, window: this.view.value, moved: false };
    this.canvas!.style.cursor = "grabbing";
  }

  private onPointerMove(e: PointerEvent) {
    this.pointerX = e.clientX;
    const d = this.drag;
    const v = this.view;
    if (v && !d) this.canvas!.title = timeAtLabel(this.timeAt(e.clientX), v.origin);
    if (!d || !v) return;
    const dx = e.clientX - d.x;
    if (Math.abs(dx) >= 3) d.moved = true;
    if (!d.moved) return;
    const w = d.window;
    v.setWindow(panWindow(w, (-dx / this.plotWidth) * (w[1] - w[0]), v.extent));
  }

  private onPointerUp(e: PointerEvent) {
    const d = this.drag;
    this.drag = null;
    this.canvas!.style.cursor = "grab";
    if (!d || !this.view) return;
    if (d.moved) {
      this.view.setWindow(this.view.value, true);
      return;
    }
    const s = this.state()!;
    const r = this.canvas!.getBoundingClientRect();
    this.select(hitBox(s, e.clientX - r.left, e.clientY - r.top));
  }

  private select(box: TimelineBox | null) {
    const selection = box ? { box, details: null } : null;
    this.selection = selection;
    this.dispatchEvent(new CustomEvent("box-select", { detail: box, bubbles: true, composed: true }));
    if (box && this.view)
      void this.view.details(box).then(
        (details) => this.selection === selection && (this.selection = { box, details }),
        () => undefined,
      );
  }

  private onKey(e: KeyboardEvent) {
    const key = e.key.toLowerCase();
    const actions: Record<string, () => void> = {
      w: () => this.zoom(ZOOM_STEP),
      s: () => this.zoom(1 / ZOOM_STEP),
      "+": () => this.zoom(ZOOM_STEP),
      "=": () => this.zoom(ZOOM_STEP),
      "-": () => this.zoom(1 / ZOOM_STEP),
      a: () => this.pan(-PAN_STEP),
      d: () => this.pan(PAN_STEP),
      escape: () => this.select(null),
    };
    const act = actions[key];
    if (!act || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    e.stopPropagation();
    act();
  }

  private reset() {
    const v = this.view;
    if (v) v.setWindow(v.extent, true);
  }

  private detailsPanel() {
    if (!this.selection) return nothing;
    const b = this.selection.box;
    // a source's details carry the slice's whole span (start_ns, dur_ns): the box may be cut to the window
    const { start_ns: start, dur_ns: dur, ...extra } = { ...b.args, ...this.selection.details };
    const rows: [string, string][] = [
      ["name", b.name],
      [
        b.count > 1 ? "slices" : "start",
        b.count > 1 ? String(b.count) : msLabel(Number(start ?? b.start) - this.view!.origin, true),
      ],
      [b.count > 1 ? "span" : "duration", msLabel(Number(dur ?? b.end - b.start), true)],
      ["track", b.track],
      ["depth", String(b.depth)],
    ];
    for (const [k, val] of Object.entries(extra))
      rows.push([k, typeof val === "number" ? String(Math.round(val * 1000) / 1000) : String(val)]);
    const absolute = timeAtLabel(Number(start ?? b.start), this.view!.origin);
    return html`<div class="details" role="region" aria-label="selected slice">
      <dl>
        ${rows.map(
          ([k, val]) =>
            html`<dt>${k}</dt>
              <dd title=${k === "start" ? absolute : nothing}>${val}</dd>`,
        )}
      </dl>
    </div>`;
  }

  override render() {
    const v = this.view;
    if (!v) return nothing;
    const label = `${v.title ?? "Timeline"}: ${this.summary}`;
    return html`<div class="bar">
        <h3>${v.title ?? "Timeline"}</h3>
        <button title="zoom in (W, +)" @click=${() => this.zoom(ZOOM_STEP, centre(v.value))}>+</button>
        <button title="zoom out (S, -)" @click=${() => this.zoom(1 / ZOOM_STEP, centre(v.value))}>−</button>
        <button title="show everything" @click=${() => this.reset()}>reset</button>
        <button
          class="clear"
          title="clear the selection (Esc)"
          ?disabled=${!this.selection}
          @click=${() => this.select(null)}
        >
          clear selection
        </button>
      </div>
      <canvas
        tabindex="0"
        role="img"
        aria-label=${label}
        @wheel=${(e: WheelEvent) => this.onWheel(e)}
        @pointerdown=${(e: PointerEvent) => this.onPointerDown(e)}
        @pointermove=${(e: PointerEvent) => this.onPointerMove(e)}
        @pointerup=${(e: PointerEvent) => this.onPointerUp(e)}
        @pointerleave=${() => (this.pointerX = null)}
        @keydown=${(e: KeyboardEvent) => this.onKey(e)}
      ></canvas>
      <p class="summary" aria-live="polite">
        ${this.summary}. Wheel or W/S zoom, drag or A/D pan, click for details, Esc clears.
      </p>
      ${this.detailsPanel()}`;
  }
}

const centre = (w: TimeWindow) => (w[0] + w[1]) / 2;

customElements.define("jb-timeline", JbTimeline);

declare global {
  interface HTMLElementEventMap {
    /** <jb-timeline>: the box clicked, or null when the click hit none (not "select": the DOM types that one) */
    "box-select": CustomEvent<TimelineBox | null>;
  }
}
