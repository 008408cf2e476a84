// The built workspace (and BENCH_BEFORE_DIST, a build of other code) served side by side, the same notebooks open in
// each, so a bench measures both builds in one run at the same load: workspace-slider, workspace-paint, every-slider.
// Each page also gets the wait those benches end their measurements with (`window.jbOutputsPainted`).
import { execFileSync } from "node:child_process";
import type { Browser, Locator, Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { openWorkspace } from "../test/support/workspace-page";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";

export interface OpenBuild {
  label: "before" | "after";
  dist: string;
  /** the notebook open in `page` */
  notebook: string;
  server: StaticServer;
  page: Page;
}

/** The labels of the builds measured: "before" only when BENCH_BEFORE_DIST names one. */
export const BUILD_LABELS = process.env.BENCH_BEFORE_DIST ? ["before", "after"] : ["after"];

/** What a page of an open build has: see installOutputsPainted. */
export interface BenchWindow {
  jbOutputsPainted(): Promise<void>;
}

/**
 * Builds the workspace, then serves each build and opens each of `notebooks` in it (`?notebook=`) until its cells
 * settle: one OpenBuild per build and notebook, the builds in turn.
 */
export async function openBuilds(
  notebooks: readonly string[] = ["triage"],
): Promise<{ browser: Browser; builds: OpenBuild[] }> {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  const dists: [OpenBuild["label"], string][] = [["after", "dist"]];
  if (process.env.BENCH_BEFORE_DIST) dists.unshift(["before", process.env.BENCH_BEFORE_DIST]);
  const browser = await launchChromium();
  const builds: OpenBuild[] = [];
  for (const [label, dist] of dists) {
    const server = await serveStatic(dist);
    for (const notebook of notebooks) {
      const { page } = await openWorkspace(browser, server.url, `?notebook=${notebook}`);
      await installOutputsPainted(page);
      builds.push({ label, dist, notebook, server, page });
    }
  }
  return { browser, builds };
}

/**
 * `window.jbOutputsPainted()` in the page: resolves once every output's pending drawing is done (an output redraws
 * in the frame that renders its value, or in a task of its own after) and a task after the next frame, which paints
 * the last of them, has begun. Called once the runtime has settled on the value being measured.
 */
async function installOutputsPainted(page: Page) {
  await page.evaluate(() => {
    (window as unknown as BenchWindow).jbOutputsPainted = async () => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook")!;
      const outputs = nb.shadowRoot!.querySelectorAll("jb-output");
      await Promise.all(
        [...outputs].map((o) => (o as unknown as { updateComplete: Promise<unknown> }).updateComplete),
      );
      await new Promise((r) =>
        requestAnimationFrame(() => {
          const c = new MessageChannel();
          c.port1.onmessage = r;
          c.port2.postMessage(null);
        }),
      );
    };
  });
}

/** Closes the browser and every build's server. */
export async function closeBuilds(browser: Browser | undefined, builds: OpenBuild[]) {
  await browser?.close();
  for (const server of new Set(builds.map((b) => b.server))) await server.close();
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
