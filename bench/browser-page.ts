// Browser benchmarks' common steps: the built workspace served beside the bench data, Chromium, and a page that
// records every long main-thread task from its first script on.
import { execFileSync } from "node:child_process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";

/** `vite build`, then dist/ served with the bench data under /bench-data/ and bench notebooks under /bench-nb/. */
export async function serveBenchWorkspace(
  dataRoot: string,
): Promise<{ browser: Browser; server: StaticServer }> {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  const server = await serveStatic("dist", 0, { "/bench-data/": dataRoot, "/bench-nb/": "bench/fixtures" });
  return { server, browser: await launchChromium() };
}

/**
 * A new context (no cache: a first visit) and page; `window.jbLongTasks` lists each long task as
 * [start, duration], recorded from the first script on so nothing the page does escapes the count.
 */
export async function pageRecordingLongTasks(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { jbLongTasks: [number, number][] };
    w.jbLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.jbLongTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  });
  return { context, page };
}
