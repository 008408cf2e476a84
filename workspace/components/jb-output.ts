// <jb-output>: one displayed value of a cell: an editable plot (chart + form; clicking a mark selects when
// the plot is a view), Plot options, a result table, Markdown (sanitized), an input element, or a value.
import * as Plot from "@observablehq/plot";
import { LitElement, css, html, unsafeCSS } from "lit";
import { unsafeHTML } from "lit/directives/unsafe-html.js";
import { CHART_CSS, isOnTimeAxis, themePlot, type ChartThemeOptions } from "../../charts/chart-theme";
import { classifyDisplay } from "../notebook/display-kind";
import { brushInterval, plotSpecToOptions, type BrushX, type PlotSpec } from "../../charts/plot-spec";
import { sanitize } from "../publish/browser-sanitize";
import { renderMarkdown } from "../notebook/markdown-render";
import { yieldWhenSliceSpent } from "../notebook/task-slice";
import { sameDisplay } from "../notebook/same-display";
import "./jb-plot-form";
import "./jb-timeline";
import "./jb-table";

/** The plot form's column beside a chart (200 px, 12 px gap, 11 px border and padding); below it when narrower. */
const FORM_WIDTH = 223;
const FORM_BESIDE = 700;
/** px a chart's room may change by before it is redrawn: text stays within 3 % of 10 px, and a focus ring moves nothing. */
const RESIZE_SLACK = 16;

export class JbOutput extends LitElement {
  // an equal value (same Markdown, same chart spec and rows) is not drawn again: see same-display.ts
  static override properties = {
    value: { attribute: false, hasChanged: (v: unknown, old: unknown) => !sameDisplay(v, old) },
  };
  declare value: unknown;

  static override styles = [
    unsafeCSS(CHART_CSS),
    css`
      :host {
        display: block;
        margin: 6px 0;
        container-type: inline-size;
        /* a stacking context: Chromium reuses its recorded paint while nothing in it changed, so one chart's
           redraw does not repaint the page's other outputs */
        isolation: isolate;
      }
      /* Plot's halos and tooltips paint in --plot-background (white by default): the panel's colour in dark mode */
      svg {
        --plot-background: var(--jb-panel, #fff);
      }
      .plot {
        display: flex;
        gap: 12px;
        align-items: flex-start;
      }
      .chart {
        flex: 1;
        min-width: 0;
        overflow-x: auto;
      }
      jb-plot-form {
        flex: 0 0 200px;
        border-left: 1px solid var(--jb-border, #dfe3ea);
        padding-left: 10px;
      }
      .selectable svg [aria-label] > * {
        cursor: pointer;
      }
      pre {
        margin: 0;
        font-size: 12px;
        white-space: pre-wrap;
      }
      .md {
        overflow-x: auto; /* a wide Markdown table scrolls in place, not the page */
      }
      .md :first-child {
        margin-top: 0;
      }
      .md :last-child {
        margin-bottom: 0;
      }
      /* Inputs.table (its own stylesheet does not reach this shadow root): rows scroll inside the form's height */
      form[class$="-table"] {
        display: block;
        overflow: auto;
        font-size: 12px;
      }
      form[class$="-table"] table {
        border-collapse: collapse;
        font-variant-numeric: tabular-nums;
      }
      form[class$="-table"] th,
      form[class$="-table"] td {
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
        max-width: 480px;
        padding: 3px 8px 3px 0;
        text-align: left;
        border-bottom: 1px solid var(--jb-border, #dfe3ea);
      }
      form[class$="-table"] thead th {
        position: sticky;
        top: 0;
        background: var(--jb-panel, #fff);
      }
      .selected {
        font-size: 12px;
        color: var(--jb-accent, #3b5bdb);
      }
      .choice button {
        font-size: 12px;
        padding: 0 6px;
        margin-left: 6px;
      }
      .plot.below {
        flex-direction: column;
        align-items: stretch;
      }
      .plot.below jb-plot-form {
        flex: none;
        max-width: 420px;
        border-left: none;
        padding-left: 0;
      }
      @container (max-width: ${FORM_BESIDE - 1}px) {
        .plot {
          flex-direction: column;
        }
        jb-plot-form {
          flex: none;
          border-left: none;
          padding-left: 0;
        }
      }
    `,
  ];

  private observer: ResizeObserver | undefined;
  private drawnWidth = 0;
  /** The host's width as the ResizeObserver last saw it (after a layout): a redraw reads this, not the live width,
   * which would force a layout of the page in the middle of a slider's redraws. */
  private knownWidth = 0;
  /** The width the chart column beside the plot form had when last measured (the form's own width varies). */
  private besideWidth: number | undefined;
  private drawnBeside = 0;
  /** A press is under way: a redraw now would replace the marks under it and lose its click. */
  private pressed = false;
  private stale = false;

  override connectedCallback() {
    super.connectedCallback();
    // Charts take their container's width (re-drawn when it changes by more than RESIZE_SLACK) so their text stays
    // at Plot's 10 px: the host's width, or beside the plot form the chart column's, whose width the form decides.
    this.observer = new ResizeObserver(() => {
      this.knownWidth = this.clientWidth;
      const column = this.renderRoot.querySelector(".plot > .chart");
      if (column?.clientWidth) {
        if (Math.abs(column.clientWidth - this.drawnBeside) > RESIZE_SLACK) {
          this.besideWidth = column.clientWidth;
          this.redraw();
        }
      } else if (Math.abs(this.clientWidth - this.drawnWidth) > RESIZE_SLACK) this.redraw();
    });
    this.observer.observe(this);
    this.addEventListener("pointerdown", this.onPress, true);
    this.addEventListener("pointerup", this.onRelease, true);
    this.addEventListener("pointercancel", this.onRelease, true);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.removeEventListener("pointerdown", this.onPress, true);
    this.removeEventListener("pointerup", this.onRelease, true);
    this.removeEventListener("pointercancel", this.onRelease, true);
  }

  private onPress = () => {
    this.pressed = true;
  };

  private onRelease = () => {
    this.pressed = false;
    // after the click that follows this release has reached the marks it was aimed at
    if (this.stale) setTimeout(() => this.redraw());
  };

  private redraw() {
    this.stale = this.pressed;
    if (!this.pressed) this.requestUpdate();
  }

  /** ms the last drawing took: a chart that takes long gets a task of its own */
  private drawMs = 0;

  /** After its first drawing, a new value is drawn at once while the task has room for it (as long as the last
   * drawing took), else in a task of its own: the charts one slider move redraws never add up to one long task
   * (task-slice.ts). */
  protected override async scheduleUpdate(): Promise<void> {
    if (this.hasUpdated) await yieldWhenSliceSpent(this.drawMs);
    const started = performance.now();
    super.scheduleUpdate();
    this.drawMs = performance.now() - started;
  }

  override updated() {
    const column = this.renderRoot.querySelector(".plot > .chart");
    if (column) this.observer?.observe(column);
  }

  /** The theme for a chart drawn here: the width it has (beside the plot form, or alone), canvas legends. */
  private theme(beside: boolean, extra: ChartThemeOptions = {}): ChartThemeOptions {
    this.drawnWidth = this.knownWidth || this.clientWidth;
    const host = this.drawnWidth || 760;
    let width = host;
    if (beside) width = this.besideWidth ?? (host >= FORM_BESIDE ? host - FORM_WIDTH : host);
    width = Math.max(240, Math.floor(width));
    if (beside) this.drawnBeside = width;
    return { width, rampLegends: true, ...extra };
  }

  /** `below`: the plot form goes under the chart, which takes the whole width (a chart on the timeline's axis). */
  private plotElement(spec: PlotSpec, below: boolean) {
    const options = themePlot(plotSpecToOptions(spec), this.theme(!below));
    if (below) this.drawnBeside = options.width ?? 0;
    const figure = Plot.plot({ ...options, document });
    if (spec.select) {
      const rows = ((options.marks?.[0] as { data?: unknown[] } | undefined)?.data ?? []) as Record<
        string,
        unknown
      >[];
      // Plot's tip is drawn where the press lands, so the release (and the click's target) can be the tip:
      // the mark that was pressed is the one chosen.
      let pressed: EventTarget | null = null;
      figure.addEventListener("pointerdown", (e) => (pressed = e.target), true);
      figure.addEventListener("click", (e) => {
        type Datum = Element & { __data__?: unknown };
        const target = (
          typeof (e.target as Datum).__data__ === "number" ? e.target : pressed
        ) as Datum | null;
        if (!target || typeof target.__data__ !== "number") return;
        const row = rows[target.__data__];
        if (!row) return;
        const input = spec as PlotSpec & { value: unknown } & EventTarget;
        input.value = row[spec.select!];
        input.dispatchEvent(new Event("input"));
        this.requestUpdate();
      });
    }
    return figure;
  }

  /** What a selectable plot has chosen, and a button that clears the choice (the input's value back to null). */
  private selectedLine(spec: PlotSpec, selected: unknown) {
    if (selected == null) return html`<div class="selected">click a mark to select its ${spec.select}</div>`;
    const clear = () => {
      const input = spec as PlotSpec & { value: unknown } & EventTarget;
      input.value = null;
      input.dispatchEvent(new Event("input"));
      this.requestUpdate();
    };
    return html`<div class="choice">
      <span class="selected">selected ${spec.select}: ${String(selected)}</span>
      <button class="clear" title="clear the selection" @click=${clear}>clear</button>
    </div>`;
  }

  /** A brushable chart: dragging across it sets the input's value to the x interval (plot-spec.ts brushX). */
  private brushElement(input: BrushX) {
    const { value, __brushX: _tag, ...options } = input as BrushX & Record<string, unknown>;
    const shown = value
      ? [
          Plot.rectX([value], {
            x1: (d: number[]) => d[0],
            x2: (d: number[]) => d[1],
            fill: "#3b5bdb",
            fillOpacity: 0.12,
          }),
        ]
      : [];
    const themed = themePlot(
      { ...(options as Plot.PlotOptions), marks: [...(input.marks ?? []), ...shown] },
      this.theme(false, { tips: false }),
    );
    const figure = Plot.plot({ ...themed, document });
    const svgs =
      figure.tagName.toLowerCase() === "svg" ? [figure] : Array.from(figure.querySelectorAll("svg"));
    const svg = svgs.sort((a, b) => Number(b.getAttribute("width")) - Number(a.getAttribute("width")))[0] as
      SVGSVGElement | undefined;
    if (!svg) return figure;
    const scale = figure.scale("x") as { invert?: (px: number) => unknown; domain?: unknown[] };
    // Pixels in the chart's own coordinates (the SVG may be drawn narrower than its width attribute).
    const px = (e: PointerEvent) => {
      const r = svg.getBoundingClientRect();
      return ((e.clientX - r.left) * Number(svg.getAttribute("width") ?? r.width)) / (r.width || 1);
    };
    const band = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    band.setAttribute("fill", "#3b5bdb");
    band.setAttribute("fill-opacity", "0.2");
    band.setAttribute("height", svg.getAttribute("height") ?? "0");
    band.setAttribute("pointer-events", "none");
    let from: number | null = null;
    svg.style.cursor = "crosshair";
    svg.style.touchAction = "none";
    svg.addEventListener("pointerdown", (e) => {
      from = px(e);
      svg.setPointerCapture(e.pointerId);
      band.setAttribute("x", String(from));
      band.setAttribute("width", "0");
      svg.append(band);
    });
    svg.addEventListener("pointermove", (e) => {
      if (from === null) return;
      const at = px(e);
      band.setAttribute("x", String(Math.min(from, at)));
      band.setAttribute("width", String(Math.abs(at - from)));
    });
    svg.addEventListener("pointerup", (e) => {
      if (from === null) return;
      input.value = brushInterval(scale, from, px(e));
      from = null;
      band.remove();
      input.dispatchEvent(new Event("input"));
      this.requestUpdate();
    });
    return figure;
  }

  override render() {
    const d = classifyDisplay(this.value);
    switch (d.kind) {
      // In a <figure>, as Plot puts a titled chart: the linked charts under it start at the same x.
      case "timeline":
        return html`<div class="chart">
          <figure><jb-timeline .view=${d.value}></jb-timeline></figure>
        </div>`;
      case "brush": {
        const w = d.value.value;
        return html`<div class="chart">
          ${this.brushElement(d.value)}
          <div class="selected">
            ${w ? `selected ${w[0].toFixed(3)} – ${w[1].toFixed(3)} (drag to change, click to clear)` : "drag across the chart to select an interval"}
          </div>
        </div>`;
      }
      case "plot-spec": {
        const v = d.value;
        const selectable = !!v.select;
        const selected = selectable ? (v as unknown as { value: unknown }).value : undefined;
        // a chart on the timeline's axis is as wide as the timeline above it: its form goes below
        const below = isOnTimeAxis({ width: v.width, ...v.layout });
        return html`<div class="plot ${below ? "below" : ""}">
          <div class="chart ${selectable ? "selectable" : ""}">
            ${this.plotElement(v, below)} ${selectable ? this.selectedLine(v, selected) : ""}
          </div>
          <jb-plot-form .spec=${v}></jb-plot-form>
        </div>`;
      }
      case "plot-options":
        return html`<div class="chart">
          ${Plot.plot({ ...themePlot(d.value, this.theme(false)), document })}
        </div>`;
      case "table":
        return html`<jb-table .table=${d.value}></jb-table>`;
      case "markdown":
        return html`<div class="md">${unsafeHTML(renderMarkdown(d.value.text, sanitize))}</div>`;
      case "input":
      case "node":
        if (d.value instanceof Node) return html`${d.value}`;
    }
    return html`<pre>${formatValue(this.value)}</pre>`;
  }
}

function formatValue(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "string") return v;
  try {
    return (
      JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x), 2)?.slice(0, 4000) ?? String(v)
    );
  } catch {
    return String(v);
  }
}
customElements.define("jb-output", JbOutput);
