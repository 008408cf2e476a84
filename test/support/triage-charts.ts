// Every chart of notebooks/triage.md (and the runs overview above it) as Chromium draws it at a given width: no
// text of a chart's SVG outside the SVG's box, none under 10 px, and each chart's picture against its reviewed
// golden test/golden/screenshots/<cell>-<width>.png. Fonts differ slightly between machines, so pictures are
// compared downscaled by half with a per-pixel tolerance; a changed picture is written to test/output/screenshots/
// for review, and `UPDATE_GOLDEN=1` rewrites the goldens once reviewed (never under CI). A chart Plot warned about
// (it draws a warning sign whose title says so) fails too. Used by test/browser/chart-screenshots*.test.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "./browser-suite";
import { updatingGoldens } from "./update-golden";
import { compareScreenshots as compare, textProblems } from "./chart-pictures";
import { notebookSettled } from "./workspace-page";

const GOLDEN = "test/golden/screenshots";
const OUTPUT = "test/output/screenshots";

interface Chart {
  name: string;
  root: Locator;
}

/** The charts on the page, named after the cell that draws them (its first defined name, or the one before it). */
async function charts(page: Page): Promise<Chart[]> {
  const out: Chart[] = [{ name: "overview", root: page.locator("jb-plot figure, jb-plot > svg").first() }];
  const cells = page.locator("jb-notebook .block.cell");
  const seen = new Map<string, number>();
  let previous = "start";
  for (let i = 0; i < (await cells.count()); i++) {
    const cell = cells.nth(i);
    const label = (await cell.locator(".bar .name").innerText()).trim();
    const defined = label.split(/\s+/)[1]?.replace(/,$/, "");
    const base = defined ?? `after-${previous}`;
    if (defined) previous = defined;
    const roots = cell.locator("jb-output .chart > figure, jb-output .chart > svg");
    for (let j = 0; j < (await roots.count()); j++) {
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.push({ name: n ? `${base}-${n}` : base, root: roots.nth(j) });
    }
  }
  return out;
}

/** Scrolls the chart's top just below the toolbar and the input cells that stick over it (their section's). */
async function belowStuckInputs(root: Locator) {
  await root.evaluate((el) => {
    el.scrollIntoView({ block: "start" });
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook")!.shadowRoot!;
    const top = el.getBoundingClientRect().top;
    // stuck: a sticky element sits exactly at its `top`
    const stuck = [...nb.querySelectorAll(".toolbar, .block.cell.input")]
      .filter((e) => Math.abs(e.getBoundingClientRect().top - parseFloat(getComputedStyle(e).top)) < 1)
      .map((e) => e.getBoundingClientRect());
    const cover = Math.max(top, ...stuck.map((r) => r.bottom));
    scrollBy(0, Math.round(top - cover));
  });
}

/** The test of triage's charts at each of `widths`, in one Chromium. */
export function describeTriageCharts(widths: readonly number[]): void {
  describe("the triage notebook's charts in Chromium", () => {
    const suite = browserSuite(() => serveStatic("dist", 0));

    for (const width of widths)
      it(`at ${width} px: text inside every chart, at 10 px or more, and pictures as reviewed`, async () => {
        const update = updatingGoldens();
        const context = await suite.browser.newContext({
          viewport: { width, height: 900 },
          deviceScaleFactor: 1,
        });
        const page = await context.newPage();
        await page.goto(`${suite.url}?notebook=triage`);
        await page.locator("jb-notebook .block.cell").first().waitFor({ timeout: 150_000 });
        await notebookSettled(page);
        const found = await charts(page);
        // triage draws at least its fifteen paper charts (and the overview)
        expect(found.length).toBeGreaterThanOrEqual(16);

        const problems: string[] = [];
        const changed: string[] = [];
        mkdirSync(OUTPUT, { recursive: true });
        mkdirSync(GOLDEN, { recursive: true });
        for (const chart of found) {
          for (const p of await textProblems(chart.root))
            problems.push(`${chart.name}: "${p.text}" ${p.problem}`);
          const file = `${chart.name}-${width}.png`;
          await belowStuckInputs(chart.root);
          const shot = await chart.root.screenshot({ animations: "disabled" });
          if (update) {
            writeFileSync(`${GOLDEN}/${file}`, shot);
            continue;
          }
          if (!existsSync(`${GOLDEN}/${file}`)) {
            writeFileSync(`${OUTPUT}/${file}`, shot);
            changed.push(`${file}: no golden (see ${OUTPUT}/${file})`);
            continue;
          }
          const diff = await compare(page, shot, readFileSync(`${GOLDEN}/${file}`));
          if (diff) {
            writeFileSync(`${OUTPUT}/${file}`, shot);
            changed.push(`${file}: ${diff} (see ${OUTPUT}/${file})`);
          }
        }
        await context.close();
        expect(problems).toEqual([]);
        expect(changed).toEqual([]);
      });
  });
}
