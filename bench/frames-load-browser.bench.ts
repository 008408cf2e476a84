// Loading a big frames table in Chromium (docs/budgets.md: < 5 s, and no main-thread task over 200 ms
// meanwhile). The table has the columns an Android 12+ framestats dump prints (the widest common layout), so
// it is the size a real long device-lab run would be: 10M frames is ~46 hours at 60 Hz.
import type { Browser } from "playwright-core";
import type { StaticServer } from "../workspace/node/static-server";
import { pageRecordingLongTasks, serveBenchWorkspace } from "./browser-page";
import { FRAMES_LABEL as label, framesData, streamingFirstCharts } from "./frames-data";
import type { Benchmark } from "./harness";

// The budget is for 10M rows: at this width a 2.7 GB stream, which the workspace streams into DuckDB as it
// downloads (no browser buffer holds it whole). It takes ~20 s here, nearly all of it DuckDB-WASM's Arrow ingest
// (Node's build of the same engine needs 12.7 s with nothing of ours in the loop). The data: bench/frames-data.ts.
let browser: Browser;
let server: StaticServer;
/** The longest main-thread task seen during each timed load, reported as its own result. */
const longestTasks: number[] = [];

export const benchmarks: Benchmark[] = [
  {
    name: `workspace/${label} frames table loaded (navigation to run in DuckDB), 10M budget`,
    unit: "ms",
    budget: 5000,
    runs: 3,
    async setup() {
      const data = (await framesData()).root;
      ({ browser, server } = await serveBenchWorkspace(data));
    },
    async measure() {
      const { context, page } = await pageRecordingLongTasks(browser);
      await page.goto(`${server.url}?notebook=bench-nb/empty.md&runs=bench-data/frames-big/`);
      await page.waitForFunction(() => performance.getEntriesByName("jb:runs-loaded").length > 0, undefined, {
        timeout: 120_000,
      });
      // The overview chart is part of what the user waits through: long tasks are counted until it is drawn.
      await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0, undefined, {
        timeout: 120_000,
      });
      // the status says "1 run loaded" (or what failed) once the chart's redraw over every run is in
      await page.waitForFunction(
        () =>
          /runs? loaded/.test(
            document.querySelector("jb-app")?.shadowRoot?.querySelector(".status")?.textContent ?? "",
          ),
        undefined,
        { timeout: 120_000 },
      );
      const result = await page.evaluate(() => {
        // (no named helper here: tsx would wrap it in a __name call the page does not have)
        const [loaded, engineReady, loadStart] = ["jb:runs-loaded", "jb:engine-ready", "jb:load-start"].map(
          (m) => performance.getEntriesByName(m)[0]!.startTime,
        ) as [number, number, number];
        const tasks = (window as unknown as { jbLongTasks: [number, number][] }).jbLongTasks;
        return {
          loaded,
          firstChart: performance.getEntriesByName("jb:first-chart")[0]!.startTime,
          engineReady,
          loadStart,
          // a task that ends after the first table request is one the load could have caused or delayed
          longest: Math.max(0, ...tasks.filter(([start, d]) => start + d > loadStart).map(([, d]) => d)),
          longestBoot: Math.max(0, ...tasks.filter(([start, d]) => start + d <= loadStart).map(([, d]) => d)),
          status: document.querySelector("jb-app")?.shadowRoot?.textContent ?? "",
          runErrors:
            (
              document
                .querySelector("jb-app")
                ?.shadowRoot?.querySelector("jb-run-overview") as HTMLElement | null
            )?.shadowRoot?.textContent ?? "",
        };
      });
      if (!/1 run loaded(?!, )/.test(result.status))
        throw new Error(`load failed: ${result.runErrors.replace(/\s+/g, " ").slice(0, 1500)}`);
      longestTasks.push(result.longest);
      streamingFirstCharts.push(result.firstChart);
      process.stderr.write(
        `  loaded in ${result.loaded.toFixed(0)} ms (DuckDB ready at ${result.engineReady.toFixed(0)}, first request at ${result.loadStart.toFixed(0)}); ` +
          `longest main-thread task ${result.longest.toFixed(0)} ms during the load, ${result.longestBoot.toFixed(0)} ms before it (page start)\n`,
      );
      await context.close();
      return result.loaded;
    },
    async teardown() {
      await browser?.close();
      await server?.close();
    },
  },
  {
    name: `workspace/longest main-thread task while loading ${label} frames (from the first table request to the chart)`,
    unit: "ms",
    budget: 200,
    runs: 3,
    measure() {
      const next = longestTasks.shift();
      if (next === undefined) throw new Error("the frames load benchmark did not run first");
      return next;
    },
  },
];
