// A paper chart (DiagDroid's anomaly bars, a chart function's spec, not a plot({...}) cell)
// edited through its form: the SVG changes, the cell's code holds the edit, and a reload shows the edited chart.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { servedWorkspace } from "../support/served-workspace";
import { cellCode, notebookSettled, openWorkspace } from "../support/workspace-page";

describe("a paper chart's plot form in Chromium", () => {
  const served = servedWorkspace();
  const chartCell = (page: Page) =>
    page
      .locator("jb-notebook .block.cell", { hasText: "anomalousGroupsPlot" })
      .filter({ has: page.locator("jb-plot-form") });
  const marks = (page: Page, kind: string) =>
    chartCell(page).locator(`jb-output svg g[aria-label='${kind}'] > *`);
  const code = (page: Page) => cellCode(chartCell(page));

  it("edits the anomaly bars' mark and fill; the code holds the edit and a reload recovers it", async () => {
    const { page, errors } = await openWorkspace(
      served.browser,
      served.url,
      "?notebook=fixtures/paper-chart.md",
    );

    // The paper's chart: one bar per metric per anomalous group, coloured by metric.
    const bars = await marks(page, "bar").count();
    expect(bars).toBeGreaterThan(0);
    expect(await marks(page, "dot").count()).toBe(0);
    const form = chartCell(page).locator("jb-plot-form");
    expect(await form.locator("select[name=mark]").inputValue()).toBe("barX");
    expect(await form.locator("select[name=fill]").inputValue()).toBe("metric");

    await form.locator("select[name=mark]").selectOption("dot");
    await expect.poll(() => marks(page, "dot").count()).toBe(bars);
    expect(await marks(page, "bar").count()).toBe(0);
    await chartCell(page).locator("jb-plot-form select[name=fill]").selectOption("label");
    await expect
      .poll(() => code(page))
      .toContain('display(plot({...jb.diagdroid.anomalousGroupsPlot(groups), mark: "dot", fill: "label"}));');
    // The colour legend (its swatches, not the figure: the y axis names the groups too) now names the groups.
    const legend = () =>
      chartCell(page).locator("jb-output figure [class$='-swatches-wrap']").first().innerText();
    await expect.poll(legend).not.toMatch(/Mq \(max queuing\)/);
    expect(await legend()).toMatch(/#1 group \d+/);

    await page.reload();
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
    await notebookSettled(page);
    await expect.poll(() => code(page)).toContain('mark: "dot", fill: "label"');
    await expect.poll(() => marks(page, "dot").count()).toBe(bars);
    expect(await marks(page, "bar").count()).toBe(0);
    expect(await chartCell(page).locator("jb-plot-form select[name=fill]").inputValue()).toBe("label");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
