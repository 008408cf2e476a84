// <jb-app>: the workspace shell. Opens run bundles (the bundled samples, ?runs=URL,..., or a drop),
// registers them in DuckDB and shows the run overview with its first chart.
import type * as Plot from "@observablehq/plot";
import { LitElement, css, html, nothing } from "lit";
import { droppedSources, urlSource } from "../../bundle/browser-sources";
import { filesFromDrop } from "../app/dropped-files";
import { overviewChartData, overviewChartOptions } from "../app/overview-chart";
import { Session } from "../app/session";
import { createBrowserEngine } from "../db/duckdb-browser";
import "./jb-plot";
import "./jb-run-overview";

export class JbApp extends LitElement {
  static override properties = {
    session: { attribute: false },
    status: { state: true },
    chart: { state: true },
    chartError: { state: true },
    dragging: { state: true },
  };
  declare session: Session | undefined;
  declare status: string;
  declare chart: Plot.PlotOptions | undefined;
  declare chartError: string | undefined;
  declare dragging: boolean;

  constructor() {
    super();
    this.status = "starting DuckDB…";
    this.dragging = false;
  }

  static override styles = css`
    :host { display: block; min-height: 100vh; }
    header { display: flex; align-items: center; gap: 16px; padding: 10px 20px; border-bottom: 1px solid var(--jb-border); background: var(--jb-panel); }
    h1 { font-size: 18px; margin: 0; letter-spacing: 0.02em; }
    .status { color: var(--jb-muted); font-size: 13px; flex: 1; }
    form { display: flex; gap: 6px; }
    input[type="url"] { width: 320px; font: inherit; font-size: 13px; padding: 3px 6px; }
    main { padding: 16px 20px; max-width: 1200px; }
    section { background: var(--jb-panel); border: 1px solid var(--jb-border); border-radius: 6px; padding: 12px 16px; margin-bottom: 16px; }
    h2 { font-size: 15px; margin: 0 0 8px; }
    .hint { color: var(--jb-muted); font-size: 12px; }
    .error { color: var(--jb-bad); font-family: ui-monospace, monospace; font-size: 12px; }
    .drop { position: fixed; inset: 0; background: rgba(59, 91, 219, 0.12); border: 3px dashed var(--jb-accent); display: flex; align-items: center; justify-content: center; font-size: 20px; pointer-events: none; }
  `;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener("dragover", (e) => {
      e.preventDefault();
      this.dragging = true;
    });
    this.addEventListener("dragleave", () => (this.dragging = false));
    this.addEventListener("drop", (e) => void this.onDrop(e));
    void this.start();
  }

  private async start() {
    try {
      const engine = await createBrowserEngine();
      this.session = new Session(engine);
      this.session.addEventListener("change", () => this.requestUpdate());
      const params = new URLSearchParams(location.search);
      const urls = params.get("runs")?.split(",").filter(Boolean) ?? (await this.sampleUrls());
      await this.open(urls.map((u) => urlSource(u)));
    } catch (e) {
      this.status = `could not start: ${(e as Error).message}`;
    }
  }

  private async sampleUrls(): Promise<string[]> {
    const response = await fetch("samples/index.json");
    if (!response.ok) return [];
    return ((await response.json()) as string[]).map((run) => `samples/${run}/`);
  }

  private async open(sources: Parameters<Session["load"]>[0]) {
    if (!this.session) return;
    this.status = `loading ${sources.length} run${sources.length === 1 ? "" : "s"}…`;
    await this.session.load(sources);
    const failed = this.session.runs.filter((r) => r.errors.length).length;
    this.status = `${this.session.runs.length} run${this.session.runs.length === 1 ? "" : "s"} loaded${failed ? `, ${failed} with errors` : ""}`;
    await this.refreshChart();
  }

  private async refreshChart() {
    if (!this.session?.hasTable("frames")) {
      this.chart = undefined;
      return;
    }
    try {
      const data = await overviewChartData(this.session.engine, this.session.hasTable("ui_events"));
      this.chart = overviewChartOptions(data, Math.min(1160, this.clientWidth - 80 || 960));
      this.chartError = undefined;
    } catch (e) {
      this.chartError = (e as Error).message;
    }
  }

  private async onDrop(e: DragEvent) {
    e.preventDefault();
    this.dragging = false;
    if (!e.dataTransfer) return;
    const sources = droppedSources(await filesFromDrop(e.dataTransfer));
    if (sources.length === 0) {
      this.status = "dropped files hold no manifest.json: drop a run bundle folder";
      return;
    }
    await this.open(sources);
  }

  private onUrl(e: SubmitEvent) {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem("url") as HTMLInputElement;
    if (input.value) void this.open([urlSource(input.value)]);
    input.value = "";
  }

  override updated() {
    if (this.chart && this.renderRoot.querySelector("jb-plot svg")) performance.mark("jb:first-chart");
  }

  override render() {
    const runs = this.session?.runs ?? [];
    return html`
      <header>
        <h1>jankbook</h1>
        <span class="status" role="status">${this.status}</span>
        <form @submit=${this.onUrl}>
          <input type="url" name="url" placeholder="open a run bundle by URL…" aria-label="run bundle URL" />
          <button>Open</button>
        </form>
      </header>
      <main>
        <section id="overview">
          <h2>Runs</h2>
          <jb-run-overview .runs=${runs}></jb-run-overview>
          <p class="hint">Drop a run bundle folder (manifest.json + .arrows files) anywhere on the page to add it.</p>
        </section>
        <section id="frames">
          <h2>Frames</h2>
          ${this.chartError ? html`<div class="error">${this.chartError}</div>` : nothing}
          ${this.chart ? html`<jb-plot .options=${this.chart}></jb-plot>` : html`<p class="hint">No frames loaded.</p>`}
        </section>
      </main>
      ${this.dragging ? html`<div class="drop">Drop run bundles to open them</div>` : nothing}
    `;
  }
}
customElements.define("jb-app", JbApp);
