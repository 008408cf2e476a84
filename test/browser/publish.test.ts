// A published notebook opens from disk (file://) in Chromium with the network blocked: plots and prose render,
// no script runs, no error. Independent of the built workspace: the page is published here, headless.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runNotebookFile } from "../../workspace/node/headless";
import { cells, parseNotebook } from "../../workspace/notebook/format";
import { createNodePublishContext } from "../../workspace/node/node-context";
import { publishNotebook } from "../../workspace/publish/publish";
import { launchChromium } from "../support/chromium";
import { openOffline } from "../support/offline-page";

const ROOT = join(import.meta.dirname, "../..");
const NOTEBOOK = join(ROOT, "notebooks/examples/frames-overview.md");
let browser: Browser;
let file: string;

beforeAll(async () => {
  const r = await runNotebookFile(NOTEBOOK);
  const html = publishNotebook(
    r.notebook,
    r.states,
    createNodePublishContext(r.provenance, { embedData: true }),
  );
  await r.close();
  // Hostile prose appended to a real page: it must stay inert in a real browser too.
  const hostile = html.replace(
    "</main>",
    `${createNodePublishContext(r.provenance).sanitize('<img src=x onerror="window.pwned=1"><a href="javascript:window.pwned=2" id="jsl">x</a><script>window.pwned=3</script>')}</main>`,
  );
  const dir = mkdtempSync(join(tmpdir(), "jankbook-publish-"));
  file = join(dir, "frames-overview.html");
  writeFileSync(file, hostile);
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe("published notebook in Chromium", () => {
  it("opens offline from file://, renders plots and prose, runs nothing, logs no error", async () => {
    const page = await browser.newPage();
    const { problems, requests } = await openOffline(page, file);
    await page.locator("a#jsl").click();
    // Plots: SVGs with marks in them.
    const plots = page.locator(".plot svg[viewBox]"); // the charts (legend swatches are small svgs too)
    expect(await plots.count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.plot svg g[aria-label="dot"] circle').count()).toBe(1800);
    expect(await page.locator('.plot svg g[aria-label="bar"] rect').count()).toBeGreaterThan(0);
    const box = await plots.first().boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    // Prose and values.
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Frames overview");
    expect(await page.locator(".md strong").first().textContent()).toMatch(/^\d+\.\d %$/);
    // each code block's source, folded: as many as the notebook has cells
    const codeBlocks = cells(parseNotebook(readFileSync(NOTEBOOK, "utf8"))).length;
    expect(codeBlocks).toBeGreaterThanOrEqual(8);
    expect(await page.locator("details.code").count()).toBe(codeBlocks);
    expect(await page.locator("footer").textContent()).toContain("synthetic-feed-scroll");
    // Nothing ran, nothing was fetched from the network.
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(requests.filter((u) => !u.startsWith("file:"))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
