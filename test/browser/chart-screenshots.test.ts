// Every chart of notebooks/triage.md (and the runs overview above it) at 1440 and 900 px wide, as Chromium draws
// it: no text of a chart's SVG outside the SVG's box, none under 10 px, and each chart's picture
// against its reviewed golden test/golden/screenshots/<cell>-<width>.png. Fonts differ slightly between machines,
// so pictures are compared downscaled by half with a per-pixel tolerance; a changed picture is written to
// test/output/screenshots/ for review, and `UPDATE_GOLDEN=1` rewrites the goldens once reviewed (never under CI).
// A chart Plot warned about (it draws a warning sign whose title says so) fails too.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../workspace/node/static-server";
import { browserSuite } from "../support/browser-suite";
import { updatingGoldens } from "../support/update-golden";
import { notebookSettled } from "../support/workspace-page";

const GOLDEN = "test/golden/screenshots";
const OUTPUT = "test/output/screenshots";
const WIDTHS = [1440, 900] as const;
/** A pixel differs when a channel moves by more than this (of 255) after halving; a chart may have 1.5 % such pixels. */
const CHANNEL_TOLERANCE = 48;
const PIXEL_SHARE = 0.015;

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

interface TextProblem {
  text: string;
  problem: string;
}

/** Every <text> of every SVG under the chart's root: inside the SVG's box, drawn at 10 px or more, no Plot warning. */
function textProblems(root: Locator): Promise<TextProblem[]> {
  return root.evaluate((el) => {
    const out: { text: string; problem: string }[] = [];
    const svgs = [...(el.tagName.toLowerCase() === "svg" ? [el] : []), ...el.querySelectorAll("svg")];
    for (const svg of svgs as SVGSVGElement[]) {
      const box = svg.getBoundingClientRect();
      const viewBox = svg.viewBox.baseVal;
      // rendered px per SVG unit: Plot's SVGs scale down (max-width: 100%) when their container is narrower
      const scale = viewBox && viewBox.width ? box.width / viewBox.width : 1;
      for (const t of svg.querySelectorAll("text")) {
        // Plot's src/plot.js marks a chart it warned about with a sign titled "N warning(s). Please check the console."
        const title = t.querySelector("title")?.textContent ?? "";
        if (/warnings?\. Please check the console/.test(title))
          out.push({ text: title, problem: "Plot warned" });
        const r = t.getBoundingClientRect();
        if (!r.width || !t.textContent?.trim()) continue;
        const text = t.childNodes[0]?.textContent ?? t.textContent;
        if (
          r.left < box.left - 1 ||
          r.right > box.right + 1 ||
          r.top < box.top - 1 ||
          r.bottom > box.bottom + 1
        )
          out.push({
            text,
            problem: `outside its SVG: text ${Math.round(r.left - box.left)}…${Math.round(r.right - box.left)} × ${Math.round(r.top - box.top)}…${Math.round(r.bottom - box.top)} in ${Math.round(box.width)} × ${Math.round(box.height)}`,
          });
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < 9.5) out.push({ text, problem: `drawn at ${px.toFixed(1)} px` });
      }
    }
    return out;
  });
}

/** "" when the two PNGs look the same (halved, within the tolerance), else what differs. */
function compare(page: Page, actual: Buffer, golden: Buffer): Promise<string> {
  return page.evaluate(
    async ([a, g, tolerance, share]) => {
      const load = async (b64: string) =>
        createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const [ia, ig] = [await load(a), await load(g)];
      if (Math.abs(ia.width - ig.width) > 2 || Math.abs(ia.height - ig.height) > 2)
        return `size ${ia.width}×${ia.height}, golden ${ig.width}×${ig.height}`;
      const w = Math.max(1, Math.round(ig.width / 2));
      const h = Math.max(1, Math.round(ig.height / 2));
      const pixels = (img: ImageBitmap) => {
        const c = new OffscreenCanvas(w, h).getContext("2d")!;
        c.drawImage(img, 0, 0, w, h);
        return c.getImageData(0, 0, w, h).data;
      };
      const [pa, pg] = [pixels(ia), pixels(ig)];
      let differ = 0;
      for (let i = 0; i < pa.length; i += 4)
        if (
          Math.abs(pa[i]! - pg[i]!) > tolerance ||
          Math.abs(pa[i + 1]! - pg[i + 1]!) > tolerance ||
          Math.abs(pa[i + 2]! - pg[i + 2]!) > tolerance
        )
          differ++;
      const fraction = differ / (w * h);
      return fraction > share ? `${(fraction * 100).toFixed(1)} % of pixels differ` : "";
    },
    [actual.toString("base64"), golden.toString("base64"), CHANNEL_TOLERANCE, PIXEL_SHARE] as const,
  );
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

describe("the triage notebook's charts in Chromium", () => {
  const suite = browserSuite(() => serveStatic("dist", 0));

  for (const width of WIDTHS)
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
