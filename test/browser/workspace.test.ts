import { mkdir, cp, writeFile, readFile } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";

const SAMPLE = "workspace/public/samples";

describe("workspace shell in Chromium", () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;
  const pageErrors: string[] = [];
  const badRuns = mkdtempSync(join(tmpdir(), "jb-bad-runs-"));

  beforeAll(async () => {
    // A copy of the sample with one table damaged, to check the page names the problem and loads the rest.
    const index = JSON.parse(await readFile(join(SAMPLE, "index.json"), "utf8")) as string[];
    const run = index[0]!;
    await cp(join(SAMPLE, run), join(badRuns, "truncated"), { recursive: true });
    const tasks = await readFile(join(badRuns, "truncated", "tasks.arrows"));
    await writeFile(join(badRuns, "truncated", "tasks.arrows"), tasks.subarray(0, 200));
    await cp(join(SAMPLE, run), join(badRuns, "mistyped"), { recursive: true });
    const { tableFromArrays, tableToIPC } = await import("apache-arrow");
    // ui_events without its kind column; contexts with context_id as float64.
    await writeFile(
      join(badRuns, "mistyped", "ui_events.arrows"),
      tableToIPC(
        tableFromArrays({ run_id: ["x"], ts: new BigInt64Array(1), seq: new Int32Array(1) }),
        "stream",
      ),
    );
    await writeFile(
      join(badRuns, "mistyped", "contexts.arrows"),
      tableToIPC(tableFromArrays({ run_id: ["x"], context_id: new Float64Array(1) }), "stream"),
    );
    await mkdir(join(badRuns, "newer"), { recursive: true });
    await writeFile(
      join(badRuns, "newer", "manifest.json"),
      JSON.stringify({ schema_version: 99, run_id: "x", context: { app: "a" }, tables: {} }),
    );
    server = await serveStatic("dist", 0, { "/bad/": badRuns });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("opens the sample run: overview rows and a frames chart with real marks", async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(server.url);
    await page.locator("jb-app .status", { hasText: /runs? loaded/ }).waitFor({ timeout: 120_000 });
    await page.locator("#frames jb-plot svg").first().waitFor({ timeout: 120_000 });
    // textContent: past 3 runs the list is folded, and innerText reads nothing hidden
    const runText = await page.locator("jb-run-overview tr.run").first().textContent();
    expect(runText).toContain("synthetic");
    // The frames column comes first among the table counts; the chart has one dot per frame of every run
    // (drawn after the first run, and again once every run is in).
    const counts = await page
      .locator("jb-run-overview tr.run")
      .evaluateAll((rows) => rows.map((r) => Number(r.querySelector("td.num")?.textContent ?? "0")));
    const frames = counts.reduce((a, b) => a + b, 0);
    expect(frames).toBeGreaterThan(100);
    const dots = page.locator("#frames jb-plot svg g[aria-label='dot'] circle");
    await expect.poll(() => dots.count(), { timeout: 30_000 }).toBe(frames);
    // Janky frames are red, the rest blue.
    const red = await page.locator("#frames jb-plot svg g[aria-label='dot'] circle[fill='#e03131']").count();
    expect(red).toBeGreaterThan(0);
    expect(red).toBeLessThan(frames);
    expect(await page.locator("#frames jb-plot svg g[aria-label='rule'] line").count()).toBeGreaterThan(0);
    await mkdir("test/output", { recursive: true });
    await page.screenshot({ path: "test/output/workspace-sample.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("names a truncated table, a missing column, a wrong type and a too-new manifest in the page, and still loads the other tables", async () => {
    const p = await browser.newPage();
    const errors: string[] = [];
    p.on("pageerror", (e) => errors.push(e.message));
    await p.goto(`${server.url}?runs=bad/truncated/,bad/newer/`);
    await p.locator("jb-run-overview tr.run").nth(1).waitFor({ timeout: 120_000 });
    const truncated = await p.locator("jb-run-overview tr.run").nth(0).innerText();
    expect(truncated).toMatch(/bad\/truncated\/tasks\.arrows: table tasks: truncated Arrow stream/);
    const newer = await p.locator("jb-run-overview tr.run").nth(1).innerText();
    expect(newer).toMatch(/schema_version 99 is newer than this jankbook understands/);
    await p.goto(`${server.url}?runs=bad/mistyped/`);
    await p.locator("#frames jb-plot svg").first().waitFor({ timeout: 120_000 });
    const mistyped = await p.locator("jb-run-overview tr.run").nth(0).innerText();
    expect(mistyped).toMatch(
      /bad\/mistyped\/ui_events\.arrows: table ui_events: missing column kind \(utf8\)/,
    );
    expect(mistyped).toMatch(
      /bad\/mistyped\/contexts\.arrows: table contexts: column context_id is float64, expected int32/,
    );
    // frames of the damaged run still load and plot
    await p.locator("#frames jb-plot svg g[aria-label='dot'] circle").first().waitFor({ timeout: 30_000 });
    expect(await p.locator("jb-run-overview tr.run td.num").first().innerText()).toMatch(/^\d+$/);
    expect(errors).toEqual([]);
    await p.close();
  });
});
