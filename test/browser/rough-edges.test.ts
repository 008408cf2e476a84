// The triage notebook in Chromium, for the rough edges a first user met: a cell ending in check(...) shows its
// checks and no stray `true`; the toolbar stays inside its column from 1440 down to 720 px; DRAW's correlation graph
// has no two labels overlapping; a bar chosen in the anomalous-groups chart can be cleared; a plot-form edit of a
// channel drops the literal's title, so the chart does not keep naming the old column; a TS cell's code opened and
// run stays open. One page for all of them (triage loads once), resized rather than reloaded.
// DOCS_SCREENSHOTS=1 also saves README's picture of the workspace (docs/img/workspace.png) from this page.
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../workspace/node/static-server";
import { overlappingLabels } from "../support/chart-pictures";
import { launchChromium } from "../support/chromium";
import { cellDefining, notebookSettled } from "../support/workspace-page";

/** A notebook value, as the runtime holds it. */
const valueOf = (page: Page, name: string) =>
  page.evaluate((n) => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { value(n: string): Promise<unknown> };
    };
    return nb.runtime.value(n);
  }, name);

/** Every element under the toolbar that reaches past its right edge, and whether the toolbar itself scrolls. */
function toolbarOverflow(toolbar: Locator): Promise<string[]> {
  return toolbar.evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const out =
      bar.scrollWidth > bar.clientWidth + 1 ? [`scrolls ${bar.scrollWidth} > ${bar.clientWidth}`] : [];
    for (const el of bar.children) {
      const r = el.getBoundingClientRect();
      if (r.right > box.right + 1)
        out.push(
          `${el.tagName.toLowerCase()} ends at ${Math.round(r.right - box.left)} of ${Math.round(box.width)}`,
        );
    }
    return out;
  });
}

describe("rough edges of the triage notebook in Chromium", () => {
  let browser: Browser;
  let server: StaticServer;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serveStatic("dist", 0);
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      deviceScaleFactor: 1,
    });
    page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}?notebook=triage`, { timeout: 120_000 });
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);
    if (process.env.DOCS_SCREENSHOTS) await page.screenshot({ path: "docs/img/workspace.png" });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("a cell ending in check(...) lists its checks and shows no bare true or false", async () => {
    const withChecks = page.locator("jb-notebook .block.cell").filter({ has: page.locator("ul.checks") });
    // triage's checks: the frames cell's, the DiagDroid ground truth's three, and more below
    expect(await withChecks.count()).toBeGreaterThanOrEqual(2);
    const shown = await withChecks.evaluateAll((cells) =>
      cells.flatMap((c) =>
        [...c.querySelectorAll("jb-output")].map((o) => o.shadowRoot!.textContent!.trim()),
      ),
    );
    expect(shown.filter((t) => t === "true" || t === "false")).toEqual([]);
  });

  // 720 px: a 1440 px screen shared by two windows side by side
  it("the toolbar stays inside its column at every width from 1440 down to 720 px", async () => {
    const toolbar = page.locator("jb-notebook .toolbar");
    const problems: string[] = [];
    for (const width of [1440, 1366, 1280, 1152, 1024, 900, 720]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      for (const p of await toolbarOverflow(toolbar)) problems.push(`${width} px: ${p}`);
      // every button is still on screen
      for (const name of ["Add cell", "Run all", "Undo"]) {
        const b = (await toolbar.getByRole("button", { name }).boundingBox())!;
        if (b.x + b.width > width) problems.push(`${width} px: ${name} ends at ${Math.round(b.x + b.width)}`);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(problems).toEqual([]);
  });

  it("DRAW's correlation graph draws no two labels over each other, at 1440 and 900 px", async () => {
    const graph = cellDefining(page, "interactions", "rootCause", "significance")
      .locator("jb-output .chart > :is(figure, svg)")
      .first();
    const overlaps: string[] = [];
    for (const width of [900, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      // jb-output redraws for its new width (ResizeObserver; 16 px of slack)
      await expect
        .poll(() =>
          graph.evaluate((el) => {
            const svgs = [...el.querySelectorAll("svg")];
            const drawn = Math.max(...svgs.map((s) => Number(s.getAttribute("width")) || 0));
            return Math.abs(drawn - el.closest(".chart")!.clientWidth) <= 16;
          }),
        )
        .toBe(true);
      const labels = await graph.locator("g[aria-label='text'] text").count();
      expect(labels).toBeGreaterThan(30);
      for (const pair of await overlappingLabels(graph, "g[aria-label='text'] text"))
        overlaps.push(`${width}: ${pair}`);
    }
    expect(overlaps).toEqual([]);
  });

  it("a chosen group can be cleared: the chart's value goes back to null and its dependents follow", async () => {
    const cell = cellDefining(page, "chosenGroup");
    const bar = cell.locator("jb-output svg g[aria-label='bar'] rect").first();
    await bar.scrollIntoViewIfNeeded();
    await bar.click();
    await notebookSettled(page);
    const chosen = await valueOf(page, "chosenGroup");
    expect(chosen).not.toBeNull();
    await expect.poll(() => cell.locator("jb-output .selected").innerText()).toMatch(/^selected group: /);
    await cell.locator("jb-output .choice").getByRole("button", { name: "clear" }).click();
    await expect.poll(() => valueOf(page, "chosenGroup")).toBeNull();
    await notebookSettled(page);
    await expect
      .poll(() => cell.locator("jb-output .selected").innerText())
      .toMatch(/^click a mark to select its group/);
  });

  it("a plot-form edit of x drops the chart's title: the chart no longer names the column it stopped showing", async () => {
    const title = "K-9 lab: mean frame time (ms) per run";
    const cell = page
      .locator("jb-notebook .block.cell")
      .filter({ has: page.locator("figure h2", { hasText: title }) });
    const index = await cell.getAttribute("data-index");
    await cell.locator("jb-plot-form select[name=x]").selectOption("p90FrameMs");
    await notebookSettled(page);
    const edited = page.locator(`jb-notebook .block.cell[data-index="${index}"]`);
    await expect
      .poll(() => edited.locator("jb-output figure > svg g[aria-label='x-axis label'] text").textContent())
      .toMatch(/90th percentile frame time \(ms\)/);
    expect(await edited.locator("jb-output figure h2").count()).toBe(0);
    expect(
      await edited.locator("jb-code-editor").evaluate((e) => (e as unknown as { code: string }).code.trim()),
    ).toBe(`plot({data: metricRows, mark: "barX", x: "p90FrameMs", y: "run", fill: "os"})`);
  });

  it("a TS cell's code, opened, edited and run, stays open", async () => {
    const cell = cellDefining(page, "groupAt", "transportr", "openLaw", "headlines", "fbReader");
    const details = cell.locator("details.code");
    expect(await details.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    await details.locator("summary").click();
    await cell.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n// read again");
    await expect.poll(() => cell.locator(".draft").count()).toBe(1);
    await page.keyboard.press("Shift+Enter");
    await expect.poll(() => cell.locator(".draft").count()).toBe(0);
    await notebookSettled(page);
    expect(await details.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    expect(await cell.locator("ul.checks li").count()).toBe(3);
    expect(errors).toEqual([]);
  });
});
