// Hangs: a cell with `while (true) {}` in the browser tab, where cells run on the page's own thread.
// The cooperative budget (cell-budget.ts; 1 s here, from the fixture's front matter) stops it with an error in
// place that names it, and the page stays usable: the cells around it show their values, a generator yielding
// forever keeps updating, a click reaches its input. If the budget failed, the renderer would stay frozen: every
// wait below has its own timeout (long enough for a loaded 2-core CI machine), and the test's own 180 s ends it;
// afterAll kills Chromium.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { servedWorkspace } from "../support/served-workspace";
import { cellDefining } from "../support/workspace-page";

describe("a runaway cell in Chromium", () => {
  const served = servedWorkspace();

  const shown = (page: Page, name: string) =>
    cellDefining(page, name).locator("jb-output .md").first().innerText({ timeout: 20_000 });

  it("stops `while (true) {}` with its error in place; the page, the other cells and a generator keep working", async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${served.url}?notebook=fixtures/runaway.md`, { timeout: 60_000 });

    const spin = cellDefining(page, "spin");
    await spin.locator(".error").waitFor({ timeout: 60_000 });
    expect(await spin.locator(".error").innerText()).toMatch(
      /^cell spin ran for more than 1000 ms without yielding \(its loops were stopped\) at line 1$/,
    );
    await expect.poll(() => shown(page, "before"), { timeout: 30_000 }).toBe("before is 42");
    await expect.poll(() => shown(page, "after"), { timeout: 30_000 }).toBe("after is 43");

    // The page answers at once: a round trip through its main thread takes well under the budget.
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)), undefined);
    expect(Date.now() - t0).toBeLessThan(1000);

    // The generator that yields forever is not stopped: its value keeps changing, one per frame.
    const tick = async () => Number((await shown(page, "tickText")).replace("tick ", ""));
    const firstTick = await tick();
    await expect.poll(tick, { timeout: 30_000 }).toBeGreaterThan(firstTick + 10);
    expect(await cellDefining(page, "ticks").locator(".error").count()).toBe(0);

    // A click works while it runs.
    await expect.poll(() => shown(page, "clickText"), { timeout: 30_000 }).toBe("clicked 0 times");
    await cellDefining(page, "clicks").locator("button", { hasText: "Count" }).click({ timeout: 20_000 });
    await cellDefining(page, "clicks").locator("button", { hasText: "Count" }).click({ timeout: 20_000 });
    await expect.poll(() => shown(page, "clickText"), { timeout: 30_000 }).toBe("clicked 2 times");

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
