// A packed run (run.duckdb) opens in Chromium by attaching it: by URL (HTTP range reads) and dropped (a File
// read lazily), without fetching or inserting any of its Arrow files (docs/scaling.md, "Tier 1").
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { packBundle } from "../../workspace/db/node/pack-bundle";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";

const RUN = "k9-galaxy-s21-android12-r1";

describe("a packed run in the workspace", () => {
  let browser: Browser;
  let server: StaticServer;
  let frames = 0;
  let requests: { url: string; method: string; range?: string }[] = [];

  beforeAll(async () => {
    const runs = await mkdtemp(join(tmpdir(), "jb-attach-"));
    await cp(join("workspace/public/samples", RUN), join(runs, "packed"), { recursive: true });
    expect((await packBundle(join(runs, "packed"))).errors).toEqual([]);
    frames = (await readBundleFolder(join(runs, "packed"))).tables.get("frames")!.numRows;
    server = await serveStatic("dist", 0, { "/runs/": runs, "/nb/": "bench/fixtures" });
    // Logged by the server: DuckDB's worker reads the file, and a page's request events do not see a worker's.
    server.server.on("request", (req) => {
      if (req.url?.startsWith("/runs/"))
        requests.push({ url: req.url, method: req.method ?? "", range: req.headers.range });
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page; the server records its requests for the run's files, with the Range header each carried. */
  async function open(query: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    requests = [];
    await page.goto(`${server.url}?notebook=nb/empty.md${query}`);
    return { page, errors };
  }

  async function expectChart(page: Page) {
    const dots = page.locator("#frames jb-plot svg g[aria-label='dot'] circle");
    await expect.poll(() => dots.count(), { timeout: 30_000 }).toBe(frames);
    const rows = await page.locator("jb-run-overview tr.run td.num").first().innerText();
    expect(Number(rows)).toBe(frames);
  }

  it("opens by URL through range reads of run.duckdb, with no Arrow file fetched", async () => {
    const { page, errors } = await open("&runs=runs/packed/");
    await page
      .locator("jb-app .status", { hasText: "1 run loaded (attached)" })
      .waitFor({ timeout: 120_000 });
    await expectChart(page);
    expect(requests.filter((r) => r.url.endsWith(".arrows"))).toEqual([]);
    const db = requests.filter((r) => r.url.endsWith("/run.duckdb"));
    expect(db.length).toBeGreaterThan(0);
    // DuckDB reads blocks, never the whole file in one GET
    expect(db.filter((r) => !r.range?.startsWith("bytes="))).toEqual([]);
    expect(db.filter((r) => r.method === "GET").length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens a dropped folder holding only manifest.json and run.duckdb, by attaching the File", async () => {
    const { page, errors } = await open("&runs=");
    await page.locator("jb-app .status", { hasText: "0 runs loaded" }).waitFor({ timeout: 120_000 });
    // the drop carries just the two files: streaming could not even find the Arrow files
    await page.evaluate(async () => {
      const dt = new DataTransfer();
      for (const name of ["manifest.json", "run.duckdb"]) {
        const bytes = await (await fetch(`runs/packed/${name}`)).arrayBuffer();
        dt.items.add(new File([bytes], name));
      }
      document
        .querySelector("jb-app")!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    });
    await page
      .locator("jb-app .status", { hasText: "1 run loaded (attached)" })
      .waitFor({ timeout: 120_000 });
    await expectChart(page);
    // the page fetched the two files to drop them; DuckDB read nothing over HTTP
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /runs/packed/manifest.json",
      "GET /runs/packed/run.duckdb",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
