// What a chart's picture is checked for in Chromium: its text inside its SVG, at 10 px or more, no Plot warning; and
// its screenshot against a reviewed golden, compared downscaled by half with a per-pixel tolerance (fonts differ
// slightly between machines).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";

/** A pixel differs when a channel moves by more than this (of 255) after halving; a chart may have 1.5 % such pixels. */
const CHANNEL_TOLERANCE = 48;
const PIXEL_SHARE = 0.015;

export interface TextProblem {
  text: string;
  problem: string;
}

/** Every <text> of every SVG under the chart's root: inside the SVG's box, drawn at 10 px or more, no Plot warning. */
export function textProblems(root: Locator): Promise<TextProblem[]> {
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
export function compareScreenshots(page: Page, actual: Buffer, golden: Buffer): Promise<string> {
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

/**
 * "" when `shot` matches the golden `dir/file`, else what differs (the shot is then written to `output/file` for
 * review). `update` (UPDATE_GOLDEN=1) rewrites the golden instead.
 */
export async function goldenMismatch(
  page: Page,
  shot: Buffer,
  dir: string,
  output: string,
  file: string,
  update: boolean,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  mkdirSync(output, { recursive: true });
  if (update) {
    writeFileSync(`${dir}/${file}`, shot);
    return "";
  }
  if (!existsSync(`${dir}/${file}`)) {
    writeFileSync(`${output}/${file}`, shot);
    return `${file}: no golden (see ${output}/${file})`;
  }
  const diff = await compareScreenshots(page, shot, readFileSync(`${dir}/${file}`));
  if (!diff) return "";
  writeFileSync(`${output}/${file}`, shot);
  return `${file}: ${diff} (see ${output}/${file})`;
}

/** Pairs of a chart's text labels (`selector` under its root) whose drawn boxes overlap, as "a | b". */
export function overlappingLabels(root: Locator, selector: string): Promise<string[]> {
  return root.evaluate((el, sel) => {
    const boxes = [...el.querySelectorAll(sel)].map((t) => ({
      text: t.childNodes[0]?.textContent ?? t.textContent ?? "",
      r: t.getBoundingClientRect(),
    }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!.r, boxes[j]!.r];
        // touching is fine; half a pixel of overlap is the font's own slack
        const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (dx > 0.5 && dy > 0.5) out.push(`${boxes[i]!.text} | ${boxes[j]!.text}`);
      }
    return out;
  }, selector);
}
