// A plot({...}) cell whose channel names a column its data lacks: the cell fails, the page says which column and
// which columns there are, and draws no empty chart (it used to show an empty frame, marked fulfilled).
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { openWorkspace } from "../support/workspace-page";

describe("a plot on a misspelt column, in the workspace", () => {
  const suite = browserSuite(() => serveStatic("dist", 0, { "/fixtures/": "test/fixtures/notebooks" }));

  it("fails its cell with the column's name and the columns there are; the right plot still draws", async () => {
    const { page, errors } = await openWorkspace(
      suite.browser,
      suite.url,
      "?notebook=fixtures/plot-missing-column.md",
    );
    const plots = page.locator("jb-notebook .block.cell[data-kind=ts]");
    expect(await plots.count()).toBe(2);
    const [good, misspelt] = [plots.nth(0), plots.nth(1)];
    expect(await good.locator(".bar [class^=status-]").innerText()).toMatch(/^fulfilled/);
    // 200 frames of synthetic-feed-scroll, one dot each
    expect(await good.locator("jb-output svg g[aria-label=dot] circle").count()).toBe(200);

    expect(await misspelt.locator(".bar [class^=status-]").innerText()).toMatch(/^rejected/);
    expect(await misspelt.locator(".error[role=alert]").innerText()).toContain(
      'y names a column the data lacks: "frame_mss" (its columns: frame, frame_ms)',
    );
    expect(await misspelt.locator("jb-output svg").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
