// The 10M-row frames run opened attached (docs/scaling.md): navigation to the first chart (< 3 s, >= 5x
// faster than the streaming load of the same data, frames-load-browser.bench.ts, which runs before this
// file), the longest main-thread task meanwhile, and the overview's query on the attached run, cold and warm.
import type { Browser } from "playwright-core";
import type { StaticServer } from "../workspace/node/static-server";
import { pageRecordingLongTasks, serveBenchWorkspace } from "./browser-page";
import { FRAMES_LABEL as label, framesData, streamingFirstCharts } from "./frames-data";
import { median, type Benchmark } from "./harness";

let browser: Browser;
let server: StaticServer;
const firstCharts: number[] = [];
const longest: number[] = [];
const coldQueries: number[] = [];
const warmQueries: number[] = [];

/** One measurement taken in the attach runs, reported as its own result. */
function recorded(name: string, unit: string, values: number[], budget?: number): Benchmark {
  return {
    name,
    unit,
    budget,
    runs: 3,
    measure() {
      const next = values.shift();
      if (next === undefined) throw new Error("the attached first-chart benchmark did not run first");
      return next;
    },
  };
}

export const benchmarks: Benchmark[] = [
  {
    name: `workspace/${label} frames attached from run.duckdb: navigation to first chart`,
    unit: "ms",
    budget: 3000,
    runs: 3,
    async setup() {
      const data = await framesData();
      ({ browser, server } = await serveBenchWorkspace(data.root));
    },
    async measure() {
      const { context, page } = await pageRecordingLongTasks(browser);
      const data = await framesData();
      await page.goto(`${server.url}?notebook=bench-nb/empty.md&runs=bench-data/${data.packed}/`);
      // the second overview query is the redraw once every run is in: warm
      await page.waitForFunction(
        () => performance.getEntriesByName("jb:overview-query").length >= 2,
        undefined,
        {
          timeout: 120_000,
        },
      );
      const r = await page.evaluate(() => {
        const chart = performance.getEntriesByName("jb:first-chart")[0]!.startTime;
        const queries = performance.getEntriesByName("jb:overview-query").map((e) => e.duration);
        const tasks = (window as unknown as { jbLongTasks: [number, number][] }).jbLongTasks;
        return {
          chart,
          queries,
          longest: Math.max(0, ...tasks.filter(([start]) => start <= chart).map(([, d]) => d)),
          status: document.querySelector("jb-app")?.shadowRoot?.querySelector(".status")?.textContent ?? "",
        };
      });
      if (!r.status.includes("1 run loaded (attached)")) throw new Error(`not attached: ${r.status}`);
      firstCharts.push(r.chart);
      longest.push(r.longest);
      coldQueries.push(r.queries[0]!);
      warmQueries.push(r.queries[1]!);
      process.stderr.write(
        `  first chart ${r.chart.toFixed(0)} ms, overview query cold ${r.queries[0]!.toFixed(0)} / warm ${r.queries[1]!.toFixed(0)} ms, longest task ${r.longest.toFixed(0)} ms\n`,
      );
      await context.close();
      return r.chart;
    },
    async teardown() {
      await browser?.close();
      await server?.close();
    },
  },
  recorded(
    `workspace/longest main-thread task, ${label} attached, navigation to first chart`,
    "ms",
    longest,
    200,
  ),
  recorded(`workspace/overview query on ${label} frames attached, cold`, "ms", coldQueries),
  recorded(`workspace/overview query on ${label} frames attached, warm`, "ms", warmQueries),
  {
    name: `workspace/${label} first chart: streaming load / attached (speed-up)`,
    unit: "x",
    budget: 5,
    higherIsBetter: true,
    runs: 1,
    measure() {
      if (streamingFirstCharts.length === 0)
        throw new Error("run the streaming load first (npm run bench -- workspace)");
      return median(streamingFirstCharts) / median(firstCharts);
    },
  },
];
