// <jb-app>'s overview chart, as a Lit ReactiveController: drawn from the session's runs (first as soon as a
// run's frames and UI events are in, again once every run is), sized to the frames section and kept above the fold.
import type * as Plot from "@observablehq/plot";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { overviewChartOptions } from "../../charts/overview-chart";
import { overviewChartData } from "../app/overview-data";
import type { Session } from "../app/session";
import { tableExists } from "../db/engine";

export class OverviewChartController implements ReactiveController {
  /** the chart's Plot options; undefined while no run has frames */
  chart: Plot.PlotOptions | undefined;
  /** why the chart could not be drawn */
  error: string | undefined;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode }) {
    host.addController(this);
  }

  hostConnected() {}

  clear() {
    this.chart = undefined;
    this.host.requestUpdate();
  }

  /** `overviewReady`: a run's frames and UI events are in DuckDB though the run is not listed yet. */
  async refresh(session: Session | undefined, overviewReady = false) {
    if (!session || (!overviewReady && !session.hasTable("frames"))) return this.clear();
    try {
      const engine = session.engine;
      const hasEvents = overviewReady
        ? await tableExists(engine, "ui_events")
        : session.hasTable("ui_events");
      const queryStart = performance.now();
      const data = await overviewChartData(engine, hasEvents);
      // the workspace bench reads these: the overview's queries, cold (first) and warm (the redraw after the load)
      performance.measure("jb:overview-query", { start: queryStart, end: performance.now() });
      this.chart = this.fitFirstScreen(overviewChartOptions(data, Math.min(1160, this.chartWidth())));
      this.error = undefined;
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.host.requestUpdate();
  }

  /** The frames section's inner width: the chart never makes the page scroll sideways. */
  private chartWidth(): number {
    const section = this.host.renderRoot.querySelector<HTMLElement>("#frames");
    return section ? section.clientWidth - 34 : this.host.clientWidth - 80 || 960;
  }

  /** The first chart stays above the fold: no taller than the window below the frames section's top. */
  private fitFirstScreen(options: Plot.PlotOptions): Plot.PlotOptions {
    const section = this.host.renderRoot.querySelector<HTMLElement>("#frames");
    if (!section || options.height === undefined) return options;
    const room = innerHeight - (section.getBoundingClientRect().top + scrollY) - 110; // title, legend, padding
    return { ...options, height: Math.max(240, Math.min(options.height, room)) };
  }
}
