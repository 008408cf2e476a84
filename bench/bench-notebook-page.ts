// What the Chromium notebook benches share: a run written to a temporary folder, the workspace built, served
// with the run under /bench-data/ and bench/fixtures/ under /bench-nb/, and a page opened on a bench notebook.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";

export interface BenchNotebookPage {
  browser: Browser;
  server: StaticServer;
  page: Page;
  /** closes the browser and the server, and deletes the run */
  close(): Promise<void>;
}

/** Writes the run with `write(dir)`, then opens `bench/fixtures/<notebook>` over it at 1280 x 900. */
export async function openBenchNotebook(
  notebook: string,
  write: (dir: string) => Promise<void>,
): Promise<BenchNotebookPage> {
  const data = mkdtempSync(join(tmpdir(), "jb-bench-"));
  await write(join(data, "run"));
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  const server = await serveStatic("dist", 0, { "/bench-data/": data, "/bench-nb/": "bench/fixtures" });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}?notebook=bench-nb/${notebook}&runs=bench-data/run/`);
  return {
    browser,
    server,
    page,
    async close() {
      await browser.close();
      await server.close();
      rmSync(data, { recursive: true, force: true });
    },
  };
}
