// Every DUNE plot's options render with Observable Plot (Node, linkedom document), draw what they claim and
// match their golden SVG (test/golden-svg.ts).
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { apriori } from "../../../cells/dune/context-rules";
import {
  aprioriPlot,
  deviationLabels,
  deviationLabelsPlot,
  eventPrecisionRecall,
  eventPrecisionRecallPlot,
  frameMetrics,
  frameMetricsPlot,
  iqrFlags,
  iqrFlagsPlot,
  similarityWeights,
  similarityWeightsPlot,
} from "../../../cells/dune/index";
import type { PlotSpec } from "../../../charts/plot-spec";
import { chartOptions, goldenSvgMismatch } from "../../golden-svg";

const { document } = parseHTML("<!doctype html><html><body></body></html>");
const render = (chart: Plot.PlotOptions | PlotSpec) => {
  const node = Plot.plot({ ...chartOptions(chart), document } as Plot.PlotOptions) as unknown as Element;
  // With a title or legend Plot returns a <figure>; the chart is its last <svg> child.
  if (node.tagName.toLowerCase() === "svg") return node;
  return [...node.children].filter((c) => c.tagName.toLowerCase() === "svg").pop()!;
};
const ns = (ms: number) => BigInt(Math.round(ms * 1e6));

describe("DUNE plots render", () => {
  it("Figure 3: one bar per frame, janky ones red, one rule per UI event", () => {
    const dur = [10, 20, 16, 40].map(ns);
    const frames = makeBundleTable("frames", "r", {
      intended_vsync: [0, 16, 32, 48].map(ns),
      duration: dur,
      deadline: dur.map(() => 0n),
      jank: dur.map(() => false),
    });
    const events = makeBundleTable("ui_events", "r", { ts: [ns(20)], seq: [0], kind: ["click"] });
    const options = frameMetricsPlot(frameMetrics(frames, { uiEvents: events }));
    expect(goldenSvgMismatch("dune-frame-metrics", options)).toBe("");
    const svg = render(options);
    const bars = svg.querySelectorAll("g[aria-label='rule'] line");
    expect(bars.length).toBe(4 + 1);
    expect([...bars].filter((l) => l.getAttribute("stroke") === "#d62728").length).toBe(2);
    expect(svg.textContent).toContain("E1 click");
  });
  it("Figure 8: the cluster's values, the fences and the new run", () => {
    const hist = [448, 453, 450, 457, 430].map((f) => ({
      context: {},
      metrics: { frames: f, smoothRatio: 0.9, meanFrameMs: 10 },
    }));
    const r = deviationLabels(
      { context: {}, metrics: { frames: 270, smoothRatio: 0.9, meanFrameMs: 10 } },
      hist,
      { dimensions: [] },
    );
    expect(goldenSvgMismatch("dune-deviation-labels", deviationLabelsPlot(r))).toBe("");
    const svg = render(deviationLabelsPlot(r));
    expect(svg.querySelectorAll("g[aria-label='dot'] circle").length).toBe(5);
    expect(svg.textContent).toContain("Q1 − OF·IQR");
    expect(svg.querySelector("g[aria-label='rule'][stroke='#d62728'] line")).not.toBeNull();
  });
  it("Figure 9: one bar per rule, ranked", () => {
    const rows = [
      { sdk: "5.0.0", label: "Outlier-" },
      { sdk: "5.0.0", label: "Outlier-" },
      { sdk: "4.4", label: "N" },
    ];
    const rules = apriori(rows, { minSupport: 0.3, minConfidence: 0.9, consequentAttribute: "label" });
    expect(goldenSvgMismatch("dune-apriori", aprioriPlot(rules))).toBe("");
    const svg = render(aprioriPlot(rules));
    expect(svg.querySelectorAll("g[aria-label='bar'] rect").length).toBe(rules.length);
    expect(svg.textContent).toContain("{sdk=5.0.0} ⇒ {label=Outlier-}");
  });
  it("IQR strip, similarity weights and precision/recall", () => {
    const xs = [448, 453, 450, 457, 430, 270];
    expect(render(iqrFlagsPlot(iqrFlags(xs), xs)).querySelectorAll("circle").length).toBe(6);
    expect(goldenSvgMismatch("dune-iqr-flags", iqrFlagsPlot(iqrFlags(xs), xs))).toBe("");
    const w = similarityWeights({ a: "1" }, [{ a: "1" }, { a: "2" }], ["a"]);
    expect(render(similarityWeightsPlot(w)).querySelectorAll("g[aria-label='bar'] rect").length).toBe(2);
    expect(goldenSvgMismatch("dune-similarity-weights", similarityWeightsPlot(w))).toBe("");
    const pr = [eventPrecisionRecall([3, 5], [3]), eventPrecisionRecall([3], [3, 7])];
    expect(render(eventPrecisionRecallPlot(pr)).querySelectorAll("circle").length).toBe(4);
    expect(goldenSvgMismatch("dune-event-precision-recall", eventPrecisionRecallPlot(pr))).toBe("");
  });
});
