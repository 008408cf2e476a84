// The notebook workspace in Chromium: inputs, the plot form written back to code, selections driving
// downstream cells, errors in place, and recovery of unsaved edits after a reload.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { servedWorkspace } from "../support/served-workspace";
import { cellCode, notebookSettled, openEditor } from "../support/workspace-page";

describe("notebook workspace in Chromium", () => {
  const served = servedWorkspace();

  async function openNotebook(query: string): Promise<{ page: Page; errors: string[] }> {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${served.url}${query}`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    // the runtime's own word, not "no cell shows pending" (true before a cell is first marked, and between runs)
    await notebookSettled(page);
    return { page, errors };
  }

  const cell = (page: Page, name: string) => page.locator(`jb-notebook .block.cell[data-cell="${name}"]`);

  it("moving an input re-runs its dependents", async () => {
    const { page, errors } = await openNotebook("?notebook=frames-overview");
    const share = page.locator("jb-notebook .block.cell", { hasText: "of 1800 frames took longer than" });
    const before = await share.locator("jb-output .md").first().innerText();
    expect(before).toMatch(/of 1800 frames took longer than 16\.7 ms/);
    const input = page.locator("jb-notebook input[type=number]").first();
    await input.fill("40");
    await input.press("Enter");
    await expect
      .poll(() => share.locator("jb-output .md").first().innerText())
      .toMatch(/took longer than 40 ms/);
    expect(await share.locator("jb-output .md").first().innerText()).not.toBe(before);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("editing a plot's y channel in the form re-renders it and writes the edit into the cell's code", async () => {
    const { page, errors } = await openNotebook("?notebook=frames-overview");
    const plotCell = page.locator("jb-notebook .block.cell", { has: page.locator("jb-plot-form") }).first();
    const svgBefore = await plotCell.locator("jb-output svg").last().innerHTML();
    await plotCell.locator("jb-plot-form select[name=y]").selectOption("intended_vsync");
    await expect.poll(() => plotCell.locator("jb-output svg").last().innerHTML()).not.toBe(svgBefore);
    await expect.poll(() => cellCode(plotCell)).toContain('y: "intended_vsync"');
    expect(await plotCell.locator("jb-plot-form select[name=y]").inputValue()).toBe("intended_vsync");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("clicking a bar selects its group and the downstream cells show only that group", async () => {
    const { page, errors } = await openNotebook("?notebook=fixtures/interactive.md");
    const summary = page.locator("jb-notebook .block.cell", { hasText: "showing" }).locator("jb-output .md");
    expect(await summary.innerText()).toMatch(/showing 20 events of kind any/);
    const bars = page
      .locator("jb-notebook .block.cell", { has: page.locator("jb-plot-form") })
      .first()
      .locator("svg g[aria-label='bar'] rect");
    expect(await bars.count()).toBe(2);
    await bars.nth(0).click(); // kinds are ordered: click, scroll
    await expect.poll(() => summary.innerText()).toMatch(/showing \d+ events of kind click/);
    const shown = Number((await summary.innerText()).match(/showing (\d+)/)![1]);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(20);
    const dots = page
      .locator("jb-notebook .block.cell", { has: page.locator("jb-plot-form") })
      .nth(1)
      .locator("svg g[aria-label='dot'] circle");
    await expect.poll(() => dots.count()).toBe(shown);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows a SQL error, a thrown exception and a cycle in place while the rest keeps working", async () => {
    const { page, errors } = await openNotebook("?notebook=fixtures/interactive.md");
    expect(await cell(page, "broken_sql").locator(".error").innerText()).toMatch(/no_such_column/);
    expect(
      await page.locator("jb-notebook .block.cell", { hasText: "boom" }).locator(".error").innerText(),
    ).toMatch(/deliberate failure/);
    expect(
      await page
        .locator("jb-notebook .block.cell", { hasText: "loopA" })
        .first()
        .locator(".error")
        .innerText(),
    ).toMatch(/circular|cycle/i);
    expect(
      await page
        .locator("jb-notebook .block.cell", { hasText: "still works" })
        .locator("jb-output .md")
        .innerText(),
    ).toMatch(/still works: 40/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("recovers an edit typed but not saved after a reload", async () => {
    const { page } = await openNotebook("?notebook=frames-overview");
    const sqlCell = cell(page, "jank_by_second");
    await (await openEditor(sqlCell)).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n-- typed before the crash");
    await page.reload();
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await expect.poll(() => cellCode(cell(page, "jank_by_second"))).toContain("-- typed before the crash");
    expect(await page.locator("jb-app").locator(".recovered").innerText()).toMatch(/Recovered unsaved edits/);
    await page.context().close();
  });
});
