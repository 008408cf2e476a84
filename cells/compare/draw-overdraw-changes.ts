// DRAW's views compared by their overdraw depth (DRAW §IV, Table I's overdraw, taken per view): in each frame, the
// mean number of painting operations covering the pixels a view paints, itself included (1: nothing under or over
// it), pooled over the view's frames and matched across runs by class and XML id as draw-changes.ts matches them.
// Pixels follow overdraw-depth.ts's model: a rectangle covers the integer pixels from ceil(left) to
// ceil(left + width), clipped to the screen.
import type { Table } from "apache-arrow";
import { frameCoverage } from "../draw/frame-coverage";
import type { Rect } from "../draw/overdraw-depth";
import { preprocessRenderOps } from "../draw/render-trace";
import type { Screen } from "./draw-changes";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

/** A rectangle's pixels as [x0, x1) × [y0, y1) on the screen (empty: x1 ≤ x0 or y1 ≤ y0). */
function pixelBox(r: Rect, screen: Screen): [number, number, number, number] {
  if (!(r.width > 0 && r.height > 0)) return [0, 0, 0, 0];
  return [
    Math.max(0, Math.ceil(r.left)),
    Math.min(Math.ceil(screen.width), Math.ceil(r.left + r.width)),
    Math.max(0, Math.ceil(r.top)),
    Math.min(Math.ceil(screen.height), Math.ceil(r.top + r.height)),
  ];
}

/** Adds each view's overdraw depth per frame, of each run's render operations (one table per run). */
export function drawOverdrawChanges(
  renderOpsByRun: ReadonlyMap<string, Table>,
  screens: ReadonlyMap<string, Screen>,
  builder: MetricBuilder,
): void {
  const specs = new Map<string, MetricSpec>();
  const specOf = (viewClass: string, xmlId: string | null) => {
    const subject = `${viewClass}${xmlId ? ` #${xmlId}` : ""}`;
    let s = specs.get(subject);
    if (!s)
      specs.set(
        subject,
        (s = {
          analysis: "draw",
          subject,
          key: `draw:${subject}:overdraw`,
          measure: "overdraw depth where it paints (mean)",
          unit: "layers",
          scale: "ratio",
          statistic: { kind: "mean" },
          better: "lower",
        }),
      );
    return s;
  };
  for (const [run, ops] of renderOpsByRun) {
    if (!builder.locate(run) || ops.numRows === 0) continue;
    const t = preprocessRenderOps(ops);
    const screen = screens.get(run) ?? { width: 1080, height: 1920 };
    const pixels = new Float64Array(t.views.length);
    const layers = new Float64Array(t.views.length);
    t.frames.forEach((fr, f) => {
      const cov = frameCoverage(t, f, screen);
      const boxes = cov.rects.map((r) => pixelBox(r, screen));
      // Σ over an operation's pixels of the operations covering each = Σ over operations of the overlap
      boxes.forEach(([x0, x1, y0, y1], j) => {
        const v = t.view[cov.ops[j]!]!;
        for (const [u0, u1, w0, w1] of boxes) {
          const w = Math.min(x1, u1) - Math.max(x0, u0);
          const h = Math.min(y1, w1) - Math.max(y0, w0);
          if (w > 0 && h > 0) layers[v]! += w * h;
        }
        if (x1 > x0 && y1 > y0) pixels[v]! += (x1 - x0) * (y1 - y0);
      });
      const ts = t.start[fr.begin]!;
      for (const v of fr.views) {
        if (pixels[v]! > 0) {
          const info = t.views[v]!;
          builder.add(specOf(info.viewClass, info.xmlId), run, ts, layers[v]!, pixels[v]!);
        }
        pixels[v] = 0;
        layers[v] = 0;
      }
    });
  }
}
