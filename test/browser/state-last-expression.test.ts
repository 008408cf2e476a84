// A ts cell's last expression after statements is its value (as in Observable): shown in the page and
// in the published report. Before the fix such a cell showed nothing, e.g. DRAW's top-views table in triage.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { cellDefining, openWorkspace } from "../support/workspace-page";

/** Publishes the open notebook and returns the report's HTML. */
async function publish(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Publish" }).click(),
  ]);
  return readFileSync((await download.path())!, "utf8");
}

describe("a ts cell's last expression in the workspace", () => {
  const suite = browserSuite(() => serveStatic("dist", 0, { "/fixtures/": "test/fixtures/notebooks" }));

  it("a markdown table made after statements shows in the page and in the report", async () => {
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      "?notebook=fixtures/state-last-expression.md",
    );
    // 1800 frames in synthetic-feed-scroll (its manifest), 12600 sevenfold
    const table = cellDefining(page, "n", "rows").locator("jb-output table");
    expect(await table.innerText()).toMatch(/frames\s+1800\s+12600/);
    const report = await publish(page);
    expect(report).toMatch(/<td>frames<\/td>\s*<td>1800<\/td>\s*<td>12600<\/td>/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("triage shows DRAW's top views with their xml ids and layout files, in the page and in the report", async () => {
    const { page, errors } = await openWorkspace(suite.browser, suite.url, "?notebook=triage");
    const table = cellDefining(page, "resRows").locator("jb-output table");
    const head = await table.locator("thead").innerText();
    for (const column of ["rank", "view", "xmlId", "layoutFile", "res", "framesDrawn"])
      expect(head).toContain(column);
    expect(await table.locator("tbody tr").count()).toBe(12); // ranking.slice(0, 12)
    const report = await publish(page);
    expect(report).toMatch(/<th[^>]*>xmlId<\/th>\s*<th[^>]*>layoutFile<\/th>/);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 400_000);
});
