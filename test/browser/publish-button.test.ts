// The workspace's Publish button: on triage.md with τ moved, the downloaded HTML opens from a file://
// URL with the network blocked and shows the prose, every plot as SVG, the values at publish time (τ = 2000 ms,
// its report) and the provenance, and runs no script and logs no error.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cells, parseNotebook } from "../../workspace/notebook/format";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled, openWorkspace } from "../support/workspace-page";
import { openOffline } from "../support/offline-page";

const ROOT = join(import.meta.dirname, "../..");
const TRIAGE = readFileSync(join(ROOT, "notebooks/triage.md"), "utf8");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const SAMPLE_RUNS = (
  JSON.parse(readFileSync(join(ROOT, "workspace/public/samples/index.json"), "utf8")) as string[]
).filter(
  (r) => r === "paper-cases-pixel-4a" || r.startsWith("k9-") || r === "feed-methods-pixel-4a", // triage.md's front matter
);

describe("Publish from the workspace", () => {
  let browser: Browser;
  let server: StaticServer;
  let workspace: Page;
  let file: string;
  let plotsInWorkspace: number;

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
    ({ page: workspace } = await openWorkspace(browser, server.url, "?notebook=triage"));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("clicking Publish after moving τ downloads triage.html", async () => {
    const slider = cellDefining(workspace, "tauMs").locator("input[type=range]");
    await slider.focus();
    await workspace.keyboard.press("End"); // τ = 2000 ms: only the Transportr group is anomalous
    await expect.poll(() => slider.inputValue()).toBe("2000");
    await notebookSettled(workspace);
    await expect
      .poll(() => cellDefining(workspace, "chosenGroup").locator("svg g[aria-label='bar'] rect").count())
      .toBe(1);
    // the Plot charts, and each canvas timeline, which a report draws as a static chart of its window
    plotsInWorkspace =
      (await workspace.locator("jb-notebook jb-output svg[viewBox]").count()) +
      (await workspace.locator("jb-notebook jb-timeline").count());
    const [download] = await Promise.all([
      workspace.waitForEvent("download"),
      workspace.getByRole("button", { name: "Publish" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("triage.html");
    file = join(mkdtempSync(join(tmpdir(), "jankbook-publish-button-")), "triage.html");
    await download.saveAs(file);
    expect(readFileSync(file, "utf8")).toMatch(/^<!doctype html>/);
  });

  it("the downloaded page opens offline from file:// with plots, prose, the values at publish time and provenance, and no error", async () => {
    const context = await browser.newContext({ offline: true, javaScriptEnabled: true });
    const page = await context.newPage();
    const { problems, requests } = await openOffline(page, file);

    // Prose: the title and every section heading of the notebook.
    expect(await page.locator("h1").first().textContent()).toBe("Triage: why does the app stutter?");
    const sections = [...TRIAGE.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.replace(/`/g, ""));
    expect(await page.locator("h2").allTextContents()).toEqual(expect.arrayContaining(sections));
    expect(sections.length).toBeGreaterThanOrEqual(5);
    // Every plot the workspace showed is an SVG with marks; the DiagDroid plot has τ's single group.
    const plots = page.locator(".plot svg[viewBox]");
    expect(await plots.count()).toBe(plotsInWorkspace);
    expect(plotsInWorkspace).toBeGreaterThanOrEqual(8);
    // (a colour ramp's legend is an svg of its own, with no marks)
    for (const svg of await page.locator(".plot svg[viewBox]:not([class$='-ramp'])").all())
      expect(
        await svg.locator("[aria-label] > *").count(),
        (await svg.evaluate((e) => e.outerHTML)).slice(0, 400),
      ).toBeGreaterThan(0);
    const groupsPlot = page.locator(".plot svg[viewBox]", { hasText: "LocationAdapter.onTextChanged" });
    expect(await groupsPlot.locator("g[aria-label='bar'] rect").count()).toBe(1);
    expect((await plots.first().boundingBox())!.width).toBeGreaterThan(200);
    // The values at publish time: the input shows τ with its label, the report was computed at 2000 ms.
    expect(await page.locator(".input", { hasText: "τ (ms)" }).locator("output").textContent()).toBe("2000");
    expect(await page.locator(".md").filter({ hasText: "cases of queuing time ≥ 2000ms" }).count()).toBe(1);
    expect(await page.locator("footer tr", { hasText: "τ (ms)" }).textContent()).toContain("2000");
    // Code folded, one <details> per cell; provenance names every run and this jankbook's version.
    expect(await page.locator("details.code").count()).toBe(cells(parseNotebook(TRIAGE)).length);
    expect(await page.locator("details.code[open]").count()).toBe(0);
    const footer = (await page.locator("footer").textContent())!;
    for (const run of SAMPLE_RUNS) expect(footer).toContain(run);
    expect(footer).toContain(`jankbook ${VERSION}`);
    // Nothing ran, nothing was fetched.
    expect(await page.locator("script").count()).toBe(0);
    expect(requests.filter((u) => !u.startsWith("file:"))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
