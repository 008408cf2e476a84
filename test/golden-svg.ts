// Golden SVG snapshots (Observable Plot's test/output practice): a chart rendered in Node with linkedom,
// numbers rounded so that float noise does not show, compared with test/golden/<name>.svg. A new chart is
// written to test/output/<name>.svg, a changed one to test/output/<name>-changed.svg, for review as pictures;
// `UPDATE_GOLDEN=1` writes the goldens themselves once reviewed.
import * as Plot from "@observablehq/plot";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import { themePlot } from "../charts/chart-theme";
import { isPlotSpec, plotSpecToOptions, type PlotSpec } from "../charts/plot-spec";

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
  const node = Plot.plot({
    ...themePlot(chartOptions(chart)),
    document,
  } as Plot.PlotOptions) as unknown as Element;
  const svg =
    node.tagName.toLowerCase() === "svg"
      ? node
      : [...node.children].filter((c) => c.tagName.toLowerCase() === "svg").pop()!;
  svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  return roundNumbers(svg.outerHTML).replace(/></g, ">\n<") + "\n";
}

/** Every decimal number to at most two places (paths, transforms and positions alike). */
export function roundNumbers(text: string): string {
  return text.replace(/-?\d+\.\d{3,}/g, (x) => String(Math.round(Number(x) * 100) / 100));
}

/** "" when the chart matches its golden; else what to look at (the files written for review). */
export function goldenSvgMismatch(name: string, options: Plot.PlotOptions | PlotSpec): string {
  const actual = renderSvg(options);
  const golden = `test/golden/${name}.svg`;
  if (process.env.UPDATE_GOLDEN) {
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
