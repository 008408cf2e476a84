// The first screen in Chromium at 1440x900 and 900x900: the first chart above the fold, no sideways
// scrolling, the table of contents following the reader, the notebook picker, the runs summary, dark mode; and
// a result table's sort, filter, resize and formatting.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { servedWorkspace } from "../support/served-workspace";
import { notebookSettled } from "../support/workspace-page";

const served = servedWorkspace({ "/fixtures/": "test/fixtures/notebooks" });

async function open(
  query: string,
  viewport: { width: number; height: number },
  colorScheme: "light" | "dark" = "light",
): Promise<{ page: Page; errors: string[] }> {
  const context = await served.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(served.url + query);
  await page.locator("jb-app .status", { hasText: /runs? loaded/ }).waitFor({ timeout: 120_000 });
  return { page, errors };
}

/** Every cell of the notebook has settled: the page is as wide as it will get. */
async function settled(page: Page) {
  await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 120_000 });
  await notebookSettled(page);
}

/** The overview chart's own svg: with legends, Plot wraps it in a figure beside them (a ramp is an svg too). */
const chart = (page: Page) => page.locator("#frames jb-plot figure > svg[viewBox]").last();

/** The chart's box once drawn: read where it is now (the chart is redrawn once every run is in). */
async function chartBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  await chart(page).waitFor({ timeout: 60_000 });
  // a chart replaced between finding it and reading it reads as a 0x0 box at 0,0: read the one in the page
  const read = () =>
    chart(page).evaluate((svg) => {
      const r = svg.getBoundingClientRect();
      return svg.isConnected ? { x: r.x, y: r.y, width: r.width, height: r.height } : undefined;
    });
  let box: Awaited<ReturnType<typeof read>>;
  await expect.poll(async () => (box = await read()), { timeout: 30_000 }).toBeDefined();
  return box!;
}

function relativeLuminance(rgb: string): number {
  const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

describe("first screen at 900x900 (dark scheme)", () => {
  it("draws the first chart inside the viewport, scrolls no page sideways, folds the contents and the runs", async () => {
    const { page, errors } = await open("", { width: 900, height: 900 }, "dark");
    const box = await chartBox(page);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect(box.x + box.width).toBeLessThanOrEqual(900);
    expect(box.height).toBeGreaterThan(200);
    // 18 runs: one summary line, the table folded until asked for
    const summary = page.locator("jb-run-overview summary");
    expect(await summary.innerText()).toMatch(/^18 runs · \d+ devices · [\d,]+ frames/);
    expect(await page.locator("jb-run-overview tr.run").first().isVisible()).toBe(false);
    await settled(page);
    // below 1200 px the contents are a folded list above the runs, not a sidebar
    expect(await page.locator("jb-toc").getAttribute("wide")).toBeNull();
    expect(await page.locator("jb-toc summary").innerText()).toMatch(/^Contents \(\d+ sections\)$/);
    const widths = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    // dark: a dark page, and the chart's text (currentColor) light on it
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const text = await chart(page).evaluate((svg) => getComputedStyle(svg).color);
    expect(relativeLuminance(bg)).toBeLessThan(0.15);
    expect(relativeLuminance(text)).toBeGreaterThan(0.75);
    await summary.click();
    await page.locator("jb-run-overview tr.run").first().waitFor({ state: "visible" });
    expect(await page.locator("jb-run-overview tr.run").count()).toBe(18);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe("first screen at 1440x900", () => {
  it("keeps the chart above the fold, highlights the section scrolled to, and opens a notebook from the picker", async () => {
    const { page, errors } = await open("", { width: 1440, height: 900 });
    const box = await chartBox(page);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    await settled(page);
    const toc = page.locator("jb-toc");
    expect(await toc.getAttribute("wide")).toBe("");
    const links = toc.locator("a");
    expect(await links.count()).toBeGreaterThan(5);
    // Scroll the page (not the contents) to the fifth heading: the contents follow.
    const target = await links.nth(4).innerText();
    await page.evaluate((text) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook")!;
      const h = [...nb.shadowRoot!.querySelectorAll("h1, h2, h3")].find(
        (e) => e.textContent?.trim() === text,
      );
      h!.scrollIntoView({ block: "start" });
    }, target);
    await expect.poll(() => toc.locator("a.active").innerText(), { timeout: 30_000 }).toBe(target);
    expect(await toc.locator("a.active").getAttribute("aria-current")).toBe("location");
    // the sidebar stays in view while the page scrolls
    const side = (await toc.boundingBox())!;
    expect(side.y).toBeGreaterThanOrEqual(0);
    expect(side.y).toBeLessThan(50);
    // a click on an entry scrolls to its heading
    const first = await links.first().innerText();
    await links.first().click();
    await expect.poll(() => toc.locator("a.active").innerText(), { timeout: 30_000 }).toBe(first);
    expect(errors).toEqual([]);

    await Promise.all([
      page.waitForURL(/\?notebook=frames-overview$/, { timeout: 30_000 }),
      page.locator("jb-notebook-picker select").selectOption("frames-overview"),
    ]);
    await page.locator("jb-notebook h1", { hasText: "Frames overview" }).waitFor({ timeout: 120_000 });
    expect(await page.locator("jb-notebook-picker select").inputValue()).toBe("frames-overview");
    await page.context().close();
  });

  it("serves the favicon the page links", async () => {
    const response = await fetch(`${served.url}favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const html = await (await fetch(served.url)).text();
    expect(html).toMatch(/<link rel="icon" href="\.\/favicon\.svg" type="image\/svg\+xml"/);
  });
});

describe("result tables", () => {
  it("sort by a header click, filter, resize with a middle ellipsis, format ns, and fold past 10 rows", async () => {
    const { page, errors } = await open("?notebook=fixtures/tables.md", { width: 1280, height: 900 });
    await settled(page);
    const table = page.locator('jb-notebook .block.cell[data-cell="durations"] jb-table');
    const rows = table.locator(".row");
    const cells = (k: number) => rows.nth(k).locator(".c").allInnerTexts();
    // 25 rows: 10 shown until asked; dur (ns) shown in ms: row 0 is 16,666,667 ns
    expect(await rows.count()).toBe(10);
    expect(await cells(0)).toEqual(["0", "16.67 ms", "k9-galaxy-s21-android12-upgraded-run-0"]);
    expect(await table.locator("button.all").innerText()).toBe("show all 25 rows");
    // sort by dur, descending on the second click: (i*7) % 25 = 24 at i = 7, so 40.67 ms comes first
    const dur = table.locator('.head .c[role="columnheader"]', { hasText: "dur" });
    await dur.click();
    expect(await dur.getAttribute("aria-sort")).toBe("ascending");
    expect((await cells(0))[1]).toBe("16.67 ms");
    expect((await cells(1))[1]).toBe("17.67 ms");
    await dur.click();
    expect(await dur.getAttribute("aria-sort")).toBe("descending");
    expect(await cells(0)).toEqual(["7", "40.67 ms", "k9-galaxy-s21-android12-upgraded-run-7"]);
    // filter on the shown text
    await table.locator('input[type="search"]').fill("39.67 ms");
    await expect.poll(() => rows.count()).toBe(1);
    expect((await cells(0))[0]).toBe("14"); // 14 * 7 = 98 = 3 * 25 + 23
    expect(await table.locator(".meta").innerText()).toBe("1 of 25 rows × 3 columns");
    await table.locator('input[type="search"]').fill("");
    await table.locator("button.all").click();
    await expect.poll(() => table.locator("button.all").count()).toBe(0);
    // all 25 now scroll in place (only the rows in view are in the DOM): the last is the shortest frame
    await table.locator(".scroll").evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(async () => (await rows.last().locator(".c").allInnerTexts())[1]).toBe("16.67 ms");
    await table.locator(".scroll").evaluate((el) => (el.scrollTop = 0));
    // drag the run_id column's edge 150 px left: the id is cut in the middle, whole in its tooltip
    const head = table.locator('.head .c[role="columnheader"]', { hasText: "run_id" });
    const before = (await head.boundingBox())!.width;
    const grip = (await head.locator(".grip").boundingBox())!;
    await page.mouse.move(grip.x + 3, grip.y + 5);
    await page.mouse.down();
    await page.mouse.move(grip.x - 147, grip.y + 5, { steps: 5 });
    await page.mouse.up();
    expect((await head.boundingBox())!.width).toBeCloseTo(before - 150, 0);
    const id = rows.nth(0).locator(".c").nth(2);
    // 287 px wide (39 characters of run-10 x 7 px + 14 px padding) → 137 px: 17 characters, 8 on each side of the cut
    await expect.poll(() => id.innerText()).toBe("k9-galax…ed-run-7");
    expect(await id.getAttribute("title")).toBe("k9-galaxy-s21-android12-upgraded-run-7");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
