// Authoring and the keyboard model in Chromium (the editing hazards found by hand): editor keys stay in the
// editor, a cell moves by exactly one with its prose and keeps focus, the saved Markdown stays well-formed,
// every structural change is undoable, cells and prose are added from the insert bar, and a palette entry
// inserted into triage lands at the selected cell with fresh names and breaks nothing. Expected notebook
// texts are cut by hand from the notebook files, not computed by the workspace's own code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { servedWorkspace } from "../support/served-workspace";
import { notebookSettled, openEditor, openWorkspace } from "../support/workspace-page";

const OVERVIEW = readFileSync(
  join(import.meta.dirname, "../../notebooks/examples/frames-overview.md"),
  "utf8",
);

/** The notebook's text as Save would write it (unrun edits included). */
const notebookText = (page: Page) =>
  page.evaluate(() =>
    (
      document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        currentText(): string;
      }
    ).currentText(),
  );

/** data-cell of the element focused, through every shadow root, or null when it is not a cell frame. */
const focusedCell = (page: Page) =>
  page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.classList.contains("cell") ? el.getAttribute("data-cell") : null;
  });

const cellOrder = (page: Page) =>
  page.locator("jb-notebook .block.cell").evaluateAll((els) => els.map((e) => e.getAttribute("data-cell")));

describe("authoring in Chromium", () => {
  const suite = servedWorkspace();
  const browser = () => suite.browser;
  const url = () => suite.url;

  const overview = () => openWorkspace(browser(), url(), "?notebook=frames-overview");
  const cell = (page: Page, name: string): Locator =>
    page.locator(`jb-notebook .block.cell[data-cell="${name}"]`);

  it("Alt+Backspace in an editor deletes a word, never the cell", async () => {
    const { page, errors } = await overview();
    const before = await cellOrder(page);
    const editor = await openEditor(cell(page, "jank_by_second"));
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" -- alpha beta");
    await page.keyboard.press("Alt+Backspace");
    expect(await editor.locator(".cm-line").last().textContent()).toBe(" -- alpha ");
    expect(await cellOrder(page)).toEqual(before);
    // The cell's source ends with a newline, so Ctrl+End is on a line of its own.
    expect(await notebookText(page)).toContain("ORDER BY run_id, second\n -- alpha \n```");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("Alt+↑ in an editor moves the line, not the cell", async () => {
    const { page } = await overview();
    const before = await cellOrder(page);
    const editor = await openEditor(cell(page, "jank_by_second"));
    await editor.click();
    await page.keyboard.press("Control+End"); // the empty line after the source's final newline
    await page.keyboard.press("ArrowUp"); // GROUP BY ... ORDER BY run_id, second
    await page.keyboard.press("Alt+ArrowUp");
    const lines = await editor.locator(".cm-line").allTextContents();
    expect(lines.at(-3)).toBe("GROUP BY run_id, second ORDER BY run_id, second");
    expect(lines.at(-2)).toBe("      WHERE suspect IS NULL)");
    expect(await cellOrder(page)).toEqual(before);
    await page.context().close();
  });

  it("↓ moves a cell by exactly one with its prose, focus follows, the Markdown stays well-formed, Ctrl+Z undoes", async () => {
    const { page, errors } = await overview();
    const before = await cellOrder(page);
    expect(before[0]).toBe("runs_loaded");
    await cell(page, "runs_loaded").getByRole("button", { name: "↓" }).click();
    await notebookSettled(page);
    const after = await cellOrder(page);
    expect(after).toEqual([before[1], before[0], ...before.slice(2)]);
    expect(await focusedCell(page)).toBe("runs_loaded");
    // By hand: each cell with the paragraph that introduces it swaps places; the title and intro stay on top.
    const a = OVERVIEW.indexOf("First, the runs that are loaded");
    const b = OVERVIEW.indexOf("The jank budget:");
    const c = OVERVIEW.indexOf("```sql id=frame_counts"); // the next cell, with no paragraph of its own
    const unitA = OVERVIEW.slice(a, b);
    const unitB = OVERVIEW.slice(b, c);
    const expected =
      OVERVIEW.slice(0, a) + unitB.trimEnd() + "\n\n" + unitA.trimEnd() + "\n\n" + OVERVIEW.slice(c);
    expect(await notebookText(page)).toBe(expected);
    // A second ↓ moves it past one more cell only (it once moved by two).
    await cell(page, "runs_loaded").getByRole("button", { name: "↓" }).click();
    expect(await cellOrder(page)).toEqual([before[1], before[2], before[0], ...before.slice(3)]);
    expect(await focusedCell(page)).toBe("runs_loaded");
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    expect(await notebookText(page)).toBe(OVERVIEW);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("Alt+↓ and Alt+Backspace act on a focused cell frame; the toast's Undo brings the cell back", async () => {
    const { page } = await overview();
    const before = await cellOrder(page);
    await cell(page, "jank_by_second").locator(".bar .name").click();
    expect(await focusedCell(page)).toBe("jank_by_second");
    await page.keyboard.press("Alt+ArrowUp");
    expect(await focusedCell(page)).toBe("jank_by_second");
    const k = before.indexOf("jank_by_second");
    expect(await cellOrder(page)).toEqual([
      ...before.slice(0, k - 1),
      before[k],
      before[k - 1],
      ...before.slice(k + 1),
    ]);
    await page.keyboard.press("Alt+Backspace");
    expect(await cell(page, "jank_by_second").count()).toBe(0);
    const toast = page.locator("jb-notebook .toast");
    expect(await toast.innerText()).toMatch(/Deleted sql cell jank_by_second/);
    await toast.getByRole("button", { name: "Undo" }).click();
    expect(await cell(page, "jank_by_second").count()).toBe(1);
    await page.keyboard.press("Control+z");
    expect(await cellOrder(page)).toEqual(before);
    expect(await notebookText(page)).toBe(OVERVIEW);
    await page.context().close();
  });

  it("adds a SQL cell and a Markdown paragraph from the insert bar, and saves a prose edit", async () => {
    const { page, errors } = await overview();
    const bar = cell(page, "runs_loaded").locator("xpath=following-sibling::jb-insert-bar[1]");
    await bar.getByRole("button", { name: "+ SQL" }).click();
    const order = await cellOrder(page);
    expect(order[1]).toBe("query1");
    await page.keyboard.type("SELECT 42 AS answer");
    await page.keyboard.press("Shift+Enter");
    await notebookSettled(page);
    expect(await cell(page, "query1").locator("jb-table .row .c", { hasText: /^42$/ }).count()).toBe(1);
    expect(await notebookText(page)).toContain(
      "```\n\n```sql id=query1\nSELECT 42 AS answer\n```\n\nThe jank budget",
    );

    await cell(page, "query1")
      .locator("xpath=following-sibling::jb-insert-bar[1]")
      .getByRole("button", { name: "+ Markdown" })
      .click();
    const prose = page.locator("jb-notebook .prose.editing .cm-content");
    await prose.click();
    await page.keyboard.press("Control+Home"); // the blank line that sets it off
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Home");
    await page.keyboard.press("Shift+End");
    await page.keyboard.type("The answer, *by hand*.");
    await page.locator("jb-notebook .toolbar").click({ position: { x: 600, y: 5 } }); // blur: rendered again
    await expect.poll(() => page.locator("jb-notebook .prose em", { hasText: "by hand" }).count()).toBe(1);
    expect(await notebookText(page)).toContain(
      "SELECT 42 AS answer\n```\n\nThe answer, *by hand*.\n\nThe jank budget",
    );

    // An existing paragraph, edited in place.
    await page.locator("jb-notebook .prose", { hasText: "Frame times over each run" }).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("Edited by hand.\n");
    await page.locator("jb-notebook .toolbar").click({ position: { x: 600, y: 5 } });
    await expect
      .poll(() => notebookText(page))
      .toContain("and no spike is lost).\n\nEdited by hand.\n```sql id=frame_times");
    expect(await page.locator("jb-notebook .prose p", { hasText: "Edited by hand." }).count()).toBe(1);
    expect(await page.locator("jb-notebook .block.cell .error").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("completes table and column names of the loaded runs in a SQL cell", async () => {
    const { page } = await overview();
    await cell(page, "runs_loaded")
      .locator("xpath=following-sibling::jb-insert-bar[1]")
      .getByRole("button", { name: "+ SQL" })
      .click();
    await page.keyboard.type("SELECT frames.intended_v");
    await page.keyboard.press("Control+Space");
    const options = page.locator("jb-notebook .cm-tooltip-autocomplete li");
    await expect.poll(() => options.allTextContents()).toContain("intended_vsync");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("SELECT * FROM ui_e");
    await page.keyboard.press("Control+Space");
    await expect.poll(() => options.allTextContents()).toContain("ui_events");
    await page.context().close();
  });

  it("shows 'edited, not run' exactly while the code differs from what last ran", async () => {
    const { page } = await overview();
    const c = cell(page, "jank_by_second");
    const badge = c.locator(".draft");
    expect(await badge.count()).toBe(0);
    await (await openEditor(c)).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" ");
    await expect.poll(() => badge.count()).toBe(1);
    await page.keyboard.press("Backspace");
    await expect.poll(() => badge.count()).toBe(0);
    await page.keyboard.type(" LIMIT 3");
    await expect.poll(() => badge.count()).toBe(1);
    await page.keyboard.press("Shift+Enter");
    await notebookSettled(page);
    expect(await cell(page, "jank_by_second").locator(".draft").count()).toBe(0);
    await page.context().close();
  });

  it("greys out palette entries whose tables are not loaded, and shows the ? sheet", async () => {
    const { page } = await overview();
    const draw = page
      .locator("jb-notebook select[aria-label='insert analysis'] option", { hasText: "DRAW" })
      .first();
    await expect.poll(() => draw.isDisabled()).toBe(true);
    expect(await draw.evaluate((o) => o.textContent)).toMatch(/needs render_ops/);
    const iqr = page.locator("jb-notebook select[aria-label='insert analysis'] option", {
      hasText: "IQR flags",
    });
    expect(await iqr.isDisabled()).toBe(false);
    await page.locator("jb-notebook .toolbar").click({ position: { x: 600, y: 5 } });
    await page.keyboard.press("?");
    expect(await page.locator("jb-shortcuts [role=dialog]").innerText()).toMatch(/Alt\+Backspace/);
    await page.keyboard.press("Escape");
    expect(await page.locator("jb-shortcuts [role=dialog]").count()).toBe(0);
    await page.context().close();
  });

  it('inserts "DUNE: IQR flags" into triage after the selected cell, with fresh names, and no cell fails', async () => {
    const { page, errors } = await openWorkspace(browser(), url());
    const anchor = page.locator("jb-notebook .block.cell", { hasText: "const tauMs = view" });
    await anchor.locator(".bar .name").click();
    const label = await page
      .locator("jb-notebook select[aria-label='insert analysis'] option", { hasText: "IQR flags" })
      .getAttribute("value");
    await page.locator("jb-notebook select[aria-label='insert analysis']").selectOption(label!);
    await notebookSettled(page);
    // The entry's three cells, in order, right after the selected one.
    const following = (k: number) =>
      anchor
        .locator(`xpath=following-sibling::div[contains(@class,'cell')][${k}]`)
        .locator("jb-code-editor")
        .evaluate((e) => (e as unknown as { value: string }).value);
    expect(await following(1)).toContain("const outlierFactor2 = view(");
    expect(await following(2)).toContain("SELECT run_id, avg(duration) / 1e6 AS mean_ms FROM frames");
    expect(await following(3)).toContain("{outlierFactor: outlierFactor2}");
    expect(await page.locator("jb-notebook .block.cell .error").count()).toBe(0);
    expect(await page.locator("jb-notebook .status-rejected").count()).toBe(0);
    expect(
      await page.locator("jb-notebook .block.cell", { hasText: "runs outside the fences" }).count(),
    ).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
