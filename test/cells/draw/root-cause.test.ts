import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { correlationGraphPlot } from "../../../cells/draw/correlation-graph";
import { overdrawDepthPlot, overdrawRegions } from "../../../cells/draw/overdraw-depth";
import { renderingEfficiency, renderingEfficiencyPlot } from "../../../cells/draw/rendering-efficiency";
import { contributions, rootCausePlot, rootCauses } from "../../../cells/draw/root-cause";
import { preprocessRenderOps } from "../../../cells/draw/render-trace";
import { FEATURE_NAMES } from "../../../cells/draw/interaction-features";
import { userInteractions } from "../../../cells/draw/user-interactions";
import { renderOps, type OpRow } from "./render-ops-fixture";
import type { PlotSpec } from "../../../charts/plot-spec";
import { chartOptions, goldenSvgMismatch } from "../../golden-svg";

const MS = 1_000_000;
const screen = { width: 400, height: 800 };

// 80 interactions with the same screen: a root with four list rows and a gallery (view 99) whose draw
// is slow (6-9 ms, decoding a bitmap, case study 4) in every other interaction and fast (0.4 ms) otherwise.
// Only draw times vary, so the diagnosis must blame the gallery.
function run() {
  const rows: OpRow[] = [];
  const ts: bigint[] = [];
  let seed = 11;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 80; i++) {
    const t0 = i * 200 * MS;
    ts.push(BigInt(t0));
    const heavy = i % 2 === 0;
    const leaves = 4;
    const galleryDur = heavy ? (6 + 3 * rand()) * MS : 0.4 * MS;
    const childDur = leaves * 0.5 * MS + galleryDur + 0.1 * MS;
    rows.push({
      frame: i,
      view: 1,
      cls: "android.widget.FrameLayout",
      op: "draw",
      start: t0 + MS,
      dur: childDur + MS,
      rect: [0, 0, 400, 800],
      bg: true,
    });
    let t = t0 + 1.5 * MS;
    for (let k = 0; k < leaves; k++) {
      const dur = (0.3 + 0.2 * rand()) * MS;
      rows.push({
        frame: i,
        view: 10 + k,
        parent: 1,
        cls: "android.widget.TextView",
        op: "draw",
        start: t,
        dur,
        rect: [0, k * 100, 400, 100],
      });
      t += 0.5 * MS;
    }
    rows.push({
      frame: i,
      view: 99,
      parent: 1,
      cls: "com.hp.pregnancy.MyTimeLineGallery",
      op: "draw",
      start: t,
      dur: galleryDur,
      rect: [0, 400, 400, 300],
      xml: "timeline",
      layout: "res/layout/timeline.xml",
    });
  }
  const events = makeBundleTable("ui_events", "r1", {
    ts,
    seq: ts.map((_, i) => i),
    kind: ts.map(() => "click"),
  });
  return { trace: preprocessRenderOps(renderOps(rows)), events };
}

describe("rootCauses (§V-B, Equation 3)", () => {
  const { trace, events } = run();
  const ui = userInteractions(trace, events, { screen });
  const result = rootCauses(trace, ui.interactions);

  it("ranks the slow view first, with draw time among its leading features", () => {
    expect(result.ranking[0]!.viewId).toBe(99);
    expect(result.ranking[0]!.layoutFile).toBe("res/layout/timeline.xml");
    expect(result.ranking[0]!.features[0]!.feature).toMatch(/^draw_time_(max|avg|var)$/);
    // Features that do not vary (same screen every time) are disconnected and score only |corr| = 0.
    expect(result.scores.view_count).toEqual({ iv: 0, sig: 0 });
    expect(Math.abs(result.correlations.draw_time_max!)).toBeGreaterThan(0.8);
  });

  it("RCS(v) = Σ_j sig(f_j, p) · con(v, f_j), con averaged over the interactions", () => {
    const expected = new Map<number, number>();
    for (const inter of ui.interactions) {
      for (const name of FEATURE_NAMES) {
        const con = contributions(inter, name);
        inter.views.forEach((v, r) => {
          const id = trace.views[v]!.viewId;
          expected.set(
            id,
            (expected.get(id) ?? 0) + (result.scores[name]!.sig * con[r]!) / ui.interactions.length,
          );
        });
      }
    }
    for (const r of result.ranking) expect(r.rcs).toBeCloseTo(expected.get(r.viewId)!, 9);
  });

  it("roots the graph at the metric and scores every feature", () => {
    expect(result.graph.root).toBe("rendering_time");
    expect(result.scores.rendering_time!.iv).toBe(1);
    for (const name of FEATURE_NAMES) expect(Number.isFinite(result.scores[name]!.sig)).toBe(true);
    expect(result.interactions).toBe(80);
  });

  it("diagnoses frame rate on request", () => {
    expect(rootCauses(trace, ui.interactions, { metric: "frame_rate" }).graph.root).toBe("frame_rate");
  });

  it("renders all four plots", () => {
    const { document } = parseHTML("<html><body></body></html>");
    const render = (spec: Plot.PlotOptions | PlotSpec) =>
      Plot.plot({ ...chartOptions(spec), document } as Plot.PlotOptions & { document: unknown });
    const heat = overdrawDepthPlot(
      overdrawRegions(
        [
          { left: 0, top: 0, width: 400, height: 800 },
          { left: 0, top: 0, width: 200, height: 100 },
        ],
        screen,
      ),
      { screen },
    );
    const svgs = [
      render(heat),
      render(renderingEfficiencyPlot(renderingEfficiency(trace, { screen }))),
      render(correlationGraphPlot(result.graph, result.scores)),
      render(rootCausePlot(result)),
    ].map((n) => (n as unknown as { outerHTML: string }).outerHTML);
    // Regions by hand: 200x100 under both rects (depth 2), the rest of the top 100 px and the 400x700 below
    // (depth 1). Plot's frame: x 40..340 for 0..400 px, y 20..690 for 0..800 px (width 360, height 720).
    const heatSvg = render(heat) as unknown as Element;
    const rects = [...heatSvg.querySelectorAll("g[aria-label='rect'] rect")].map((r) =>
      ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a))).concat([r.textContent as never]),
    );
    expect(rects).toEqual([
      [40, 20, 150, 83.75, "depth 2"],
      [190, 20, 150, 83.75, "depth 1"],
      [40, 103.75, 300, 586.25, "depth 1"],
    ]);
    expect(svgs[1]).toContain("MyTimeLineGallery#99");
    expect(svgs[2]).toContain("iv=1.00");
    expect(svgs[3]).toContain("MyTimeLineGallery#99");
    expect(
      goldenSvgMismatch("draw-correlation-graph", correlationGraphPlot(result.graph, result.scores)),
    ).toBe("");
    expect(goldenSvgMismatch("draw-root-cause", rootCausePlot(result))).toBe("");
  });
});
