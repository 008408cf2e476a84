// Charts that must read in both colour schemes, as Chromium draws them at 1440 px: perfetto-frames' thread-state
// chart and its timeline, and DRAW's correlation graph (case notebook draw-4). Each is compared in light and in dark
// with its golden (test/golden/screenshots/legible/, reviewed; `UPDATE_GOLDEN=1` rewrites them), its SVG text stays
// inside its SVG at 10 px or more with no Plot warning (chart-pictures.ts), the thread-state chart lists frames by
// number with units on its axes, the timeline fills its column and draws in the page's colours, and no two of the
// graph's labels overlap at any width (their drawn boxes, not pixels).
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { goldenMismatch, overlappingLabels, textProblems } from "../support/chart-pictures";
import { updatingGoldens } from "../support/update-golden";
import { notebookSettled } from "../support/workspace-page";

const GOLDEN = "test/golden/screenshots/legible";
const OUTPUT = "test/output/screenshots/legible";
const SCHEMES = ["light", "dark"] as const;

/** The chart (figure or bare SVG) of the cell whose chart is titled `title`. */
function chartTitled(page: Page, title: string): Locator {
  return page
    .locator("jb-notebook .block.cell jb-output .chart > figure")
    .filter({ has: page.locator("h2", { hasText: title }) });
}

/** Repaints after a scheme or size change: two frames (Lit renders on one, the canvas draws on the next). */
const repainted = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** jb-output has redrawn the chart for its column's new width (a ResizeObserver; jb-output.ts RESIZE_SLACK is 16 px). */
async function redrawnFor(chart: Locator): Promise<void> {
  await expect
    .poll(
      () =>
        chart.evaluate((el) => {
          const svgs = [...(el.tagName.toLowerCase() === "svg" ? [el] : el.querySelectorAll("svg"))];
          const drawn = Math.max(...svgs.map((s) => Number(s.getAttribute("width")) || 0));
          return Math.abs(drawn - el.closest(".chart")!.clientWidth) <= 16;
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
  await repainted(chart.page());
}

/**
 * The timeline canvas's mean luminance (0-1) over its painted plot area, and over the opaque pixels of its track-name
 * gutter (the names' ink): dark mode paints a dark plot with light names.
 */
function canvasInk(canvas: Locator): Promise<{ plot: number; names: number }> {
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext("2d")!;
    const dpr = c.width / c.getBoundingClientRect().width;
    const lum = (d: Uint8ClampedArray, i: number) =>
      (0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!) / 255;
    const mean = (x0: number, y0: number, w: number, h: number, opaqueOnly: boolean) => {
      const d = ctx.getImageData(
        Math.round(x0 * dpr),
        Math.round(y0 * dpr),
        Math.round(w * dpr),
        Math.round(h * dpr),
      ).data;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (!opaqueOnly || d[i + 3]! > 200) ((sum += lum(d, i)), n++);
      return n ? sum / n : NaN;
    };
    const w = c.getBoundingClientRect().width;
    const h = c.getBoundingClientRect().height;
    // timeline-view.ts TIMELINE_MARGIN: names in the 160 px gutter, the plot after it; the axis is the top 22 px
    return { plot: mean(160, 22, w - 180, h - 22, false), names: mean(0, 22, 156, h - 22, true) };
  });
}

describe("charts legible in light and dark (Chromium, 1440 px)", () => {
  const suite = browserSuite(() => serveStatic("dist", 0));

  it("perfetto-frames: frames listed by number, axes with units, a full-width timeline in the page's colours, as reviewed", async () => {
    const update = updatingGoldens();
    const context = await suite.browser.newContext({
      viewport: { width: 1440, height: 900 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on("pageerror", (e) => warnings.push(e.message));
    await page.goto(`${suite.url}?notebook=perfetto-frames`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);

    const states = chartTitled(page, "UI thread state during each janky frame");
    const ticks = await states.locator("g[aria-label='y-axis tick label'] text").allTextContents();
    const numbers = ticks.map((t) => Number(/^frame (\d+)/.exec(t)?.[1]));
    // the fixture's janky frames run from token 30 to 1000: as text, 1000 would sort between 100 and 110
    expect(numbers.length).toBeGreaterThan(5);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(1000);
    const axisLabels = await states.locator("g[aria-label$='-axis label'] text").allTextContents();
    expect(axisLabels.join(" / ")).toMatch(/time in state \(ms\).*/);
    expect(axisLabels.some((l) => /janky frame .*ms/.test(l))).toBe(true);
    expect(axisLabels.join(" ")).not.toMatch(/frame time/);

    const column = page
      .locator("jb-notebook jb-output")
      .filter({ has: page.locator("jb-timeline") })
      .first();
    const timeline = column.locator("jb-timeline");
    const canvas = timeline.locator("canvas");
    await canvas.scrollIntoViewIfNeeded();
    const [cw, ow] = [(await canvas.boundingBox())!.width, (await column.boundingBox())!.width];
    // the column's whole width, not the 760 px a timeline used to keep
    expect(Math.abs(cw - ow)).toBeLessThanOrEqual(1);
    expect(cw).toBeGreaterThan(1000);

    const problems: string[] = [];
    const changed: string[] = [];
    const ink: Record<string, { plot: number; names: number }> = {};
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await repainted(page);
      ink[scheme] = await canvasInk(canvas);
      for (const p of await textProblems(states))
        problems.push(`${scheme} thread states: "${p.text}" ${p.problem}`);
      for (const [name, root] of [
        ["thread-states", states],
        ["perfetto-timeline", timeline],
      ] as const) {
        const shot = await root.screenshot({ animations: "disabled" });
        const diff = await goldenMismatch(page, shot, GOLDEN, OUTPUT, `${name}-${scheme}.png`, update);
        if (diff) changed.push(diff);
      }
    }
    // light: a white plot with dark names; dark: a dark plot with light names (the page's --jb-panel and --jb-fg)
    expect(ink.light!.plot).toBeGreaterThan(0.7);
    expect(ink.light!.names).toBeLessThan(0.4);
    expect(ink.dark!.plot).toBeLessThan(0.3);
    expect(ink.dark!.names).toBeGreaterThan(0.6);
    await context.close();
    expect(problems).toEqual([]);
    expect(changed).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("DRAW's correlation graph: layers, no two labels overlapping at 1440, 1100 or 900 px, full names on hover, as reviewed", async () => {
    const update = updatingGoldens();
    const context = await suite.browser.newContext({
      viewport: { width: 1440, height: 900 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    await page.goto(`${suite.url}?notebook=draw-4-timeline-gallery`);
    await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
    await notebookSettled(page);
    const graph = page.locator("jb-notebook .block.cell jb-output .chart > :is(figure, svg)").filter({
      has: page.locator("g[aria-label='x-axis label'] text", { hasText: "distance from the metric" }),
    });
    const labels = graph.locator("g[aria-label='text'] text");
    await graph.scrollIntoViewIfNeeded();

    // every label is its feature's name, whole or cut in the middle, with the whole name, iv and sig as its title
    const named = await labels.evaluateAll((ts) =>
      ts.map((t) => ({
        shown: t.childNodes[0]?.textContent ?? "",
        title: t.querySelector("title")?.textContent ?? "",
      })),
    );
    expect(named.length).toBeGreaterThan(30);
    for (const { shown, title } of named) {
      const name = title.replace(/: iv=.*$/, "");
      expect(title).toMatch(/^\w+: iv=\d+\.\d\d, sig=\d+\.\d\d$/);
      if (shown !== name) {
        const [head, tail] = shown.split("…");
        expect(name.startsWith(head!) && name.endsWith(tail!)).toBe(true);
      }
    }

    const problems: string[] = [];
    for (const width of [1440, 1100, 900]) {
      await page.setViewportSize({ width, height: 900 });
      await redrawnFor(graph);
      for (const pair of await overlappingLabels(graph, "g[aria-label='text'] text"))
        problems.push(`${width} px: ${pair}`);
      for (const p of await textProblems(graph)) problems.push(`${width} px: "${p.text}" ${p.problem}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await redrawnFor(graph);
    const changed: string[] = [];
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await repainted(page);
      const shot = await graph.screenshot({ animations: "disabled" });
      const diff = await goldenMismatch(
        page,
        shot,
        GOLDEN,
        OUTPUT,
        `correlation-graph-${scheme}.png`,
        update,
      );
      if (diff) changed.push(diff);
    }
    await context.close();
    expect(problems).toEqual([]);
    expect(changed).toEqual([]);
  });
});
