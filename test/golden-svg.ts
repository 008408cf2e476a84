// Golden SVG snapshots (Observable Plot's test/output practice): a chart rendered in Node with linkedom,
// numbers rounded so that float noise does not show, compared with test/golden/<name>.svg. A new chart is
// written to test/output/<name>.svg, a changed one to test/output/<name>-changed.svg, for review as pictures;
// `UPDATE_GOLDEN=1` writes the goldens themselves once reviewed (refused under CI). A chart Plot warns about fails:
// Plot draws a warning sign into it and says why only on the console (Plot's src/warnings.js).
import * as Plot from "@observablehq/plot";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import { themePlot } from "../charts/chart-theme";
import { isPlotSpec, plotSpecToOptions, type PlotSpec } from "../charts/plot-spec";
import { updatingGoldens } from "./support/update-golden";

const { document } = parseHTML("<!doctype html><html><body></body></html>");

/** Plot options of a chart, whether a cell returned them or a chart spec (cells/common/chart-spec.ts). */
export function chartOptions(chart: Plot.PlotOptions | PlotSpec): Plot.PlotOptions {
  return isPlotSpec(chart) ? plotSpecToOptions(chart) : (chart as Plot.PlotOptions);
}

/**
 * The chart's <svg> (with a title or legend Plot returns a <figure>: its last <svg>) as standalone text, drawn with
 * the chart theme as every host draws it (no ramp legends: linkedom has no canvas).
 */
export function renderSvg(chart: Plot.PlotOptions | PlotSpec): string {
  const node = plotWithoutWarnings({ ...themePlot(chartOptions(chart)), document } as Plot.PlotOptions);
  const svg =
    node.tagName.toLowerCase() === "svg"
      ? node
      : [...node.children].filter((c) => c.tagName.toLowerCase() === "svg").pop()!;
  svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  return roundNumbers(svg.outerHTML).replace(/></g, ">\n<") + "\n";
}

/** Plot.plot, throwing what Plot warned on the console (warn() and its deprecation notes both go there). */
export function plotWithoutWarnings(options: Plot.PlotOptions): Element {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  let node: Element;
  try {
    node = Plot.plot(options) as unknown as Element;
  } finally {
    console.warn = warn;
  }
  if (warnings.length) throw new Error(`Plot warned while drawing the chart:\n${warnings.join("\n")}`);
  return node;
}

/** Every decimal number to at most two places (paths, transforms and positions alike). */
export function roundNumbers(text: string): string {
  return text.replace(/-?\d+\.\d{3,}/g, (x) => String(Math.round(Number(x) * 100) / 100));
}

/** "" when the chart matches its golden; else what to look at (the files written for review). */
export function goldenSvgMismatch(name: string, options: Plot.PlotOptions | PlotSpec): string {
  const update = updatingGoldens();
  const actual = renderSvg(options);
  const golden = `test/golden/${name}.svg`;
  if (update) {
    mkdirSync("test/golden", { recursive: true });
    writeFileSync(golden, actual);
    return "";
  }
  mkdirSync("test/output", { recursive: true });
  if (!existsSync(golden)) {
    writeFileSync(`test/output/${name}.svg`, actual);
    return `no golden ${golden}: review test/output/${name}.svg and copy it there`;
  }
  if (readFileSync(golden, "utf8") === actual) return "";
  writeFileSync(`test/output/${name}-changed.svg`, actual);
  return `${golden} differs: see test/output/${name}-changed.svg`;
}
