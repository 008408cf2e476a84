// The built workspace (and BENCH_BEFORE_DIST, a build of other code) served side by side, triage open in each, so a
// bench measures both builds in one run at the same load: workspace-slider and workspace-paint.
import { execFileSync } from "node:child_process";
import type { Browser, Locator, Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { openWorkspace } from "../test/support/workspace-page";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";

export interface TriageBuild {
  label: "before" | "after";
  dist: string;
  server: StaticServer;
  page: Page;
}

/** The labels of the builds measured: "before" only when BENCH_BEFORE_DIST names one. */
export const BUILD_LABELS = process.env.BENCH_BEFORE_DIST ? ["before", "after"] : ["after"];

/** Builds the workspace, then serves each build and opens `?notebook=triage` in it until its cells settle. */
export async function openTriageBuilds(): Promise<{ browser: Browser; builds: TriageBuild[] }> {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  const dists: [TriageBuild["label"], string][] = [["after", "dist"]];
  if (process.env.BENCH_BEFORE_DIST) dists.unshift(["before", process.env.BENCH_BEFORE_DIST]);
  const browser = await launchChromium();
  const builds: TriageBuild[] = [];
  for (const [label, dist] of dists) {
    const server = await serveStatic(dist);
    const { page } = await openWorkspace(browser, server.url, "?notebook=triage");
    builds.push({ label, dist, server, page });
  }
  return { browser, builds };
}

/** Closes the browser and every build's server. */
export async function closeTriageBuilds(browser: Browser | undefined, builds: TriageBuild[]) {
  await browser?.close();
  for (const b of builds) await b.server.close();
}

/** The range input of the cell that defines `name` (its code contains `cell`), scrolled into view, after the
 * notebook's runtime was set to `value` and settled. */
export async function sliderAt(page: Page, name: string, cell: string, value: number): Promise<Locator> {
  await page.evaluate(
    async ([name, value]) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { settled(ms: number): Promise<void>; setInput(n: string, v: unknown): void };
      };
      nb.runtime.setInput(name, value);
      await nb.runtime.settled(120_000);
    },
    [name, value] as const,
  );
  const slider = page.locator("jb-notebook .block.cell", { hasText: cell }).locator("input[type=range]");
  await slider.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return slider;
}
