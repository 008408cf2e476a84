// The built workspace (and BENCH_BEFORE_DIST, a build of other code) served side by side, triage open in each, so a
// bench measures both builds in one run at the same load: workspace-slider and workspace-paint.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
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
