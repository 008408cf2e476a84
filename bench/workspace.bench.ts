// Workspace benchmarks in Chromium: navigation to the first chart on the bundled sample.
import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";
import type { Benchmark } from "./harness";

let browser: Browser;
let server: StaticServer;

export const benchmarks: Benchmark[] = [
  {
    name: "workspace/navigation to first chart (sample, cold cache)",
    unit: "ms",
    budget: 3000,
    runs: 7,
    async setup() {
      execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
      server = await serveStatic("dist");
      browser = await launchChromium();
    },
    async measure() {
      // A new context per run: no HTTP cache, no compiled wasm, like a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(server.url + (process.env.JB_BENCH_QUERY ?? ""));
      await page
        .locator("#frames jb-plot svg g[aria-label='dot'] circle")
        .first()
        .waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0);
      const ms = await page.evaluate(() => performance.getEntriesByName("jb:first-chart")[0]!.startTime);
      await context.close();
      return ms;
    },
    async teardown() {
      await browser.close();
      await server.close();
    },
  },
];
