// DRAW's views compared, matched across runs by class and XML id (view ids are identity hash codes, new in
// every run): the rendering efficiency score (DRAW §IV-A, Equation 1, as visible pixel-seconds per second of
// rendering cost, pooled over the view's frames) and its rendering cost per second (§III-B self times), which
// is zero where a side lacks the view.
import type { Table } from "apache-arrow";
import { frameCoverage } from "../draw/frame-coverage";
import { frameDisplaySeconds } from "../draw/rendering-efficiency";
import { preprocessRenderOps } from "../draw/render-trace";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export interface Screen {
  width: number;
  height: number;
}

/** Adds the view measures of each run's render operations (one table per run) to `builder`. */
export function drawChanges(
  renderOpsByRun: ReadonlyMap<string, Table>,
  screens: ReadonlyMap<string, Screen>,
  builder: MetricBuilder,
): void {
  const specs = new Map<string, MetricSpec[]>();
  const specsOf = (viewClass: string, xmlId: string | null) => {
    const subject = `${viewClass}${xmlId ? ` #${xmlId}` : ""}`;
    let s = specs.get(subject);
    if (!s) {
      const base = {
        analysis: "draw",
        subject,
        scale: "ratio" as const,
        statistic: { kind: "mean" as const },
      };
      s = [
        {
          ...base,
          key: `draw:${subject}:res`,
          measure: "RES (visible pixel-s per s of cost)",
          unit: "px",
          better: "higher",
        },
        {
          ...base,
          key: `draw:${subject}:cost`,
          measure: "rendering cost per second",
          unit: "ms/s",
          better: "lower",
        },
      ];
      specs.set(subject, s);
    }
    return s;
  };
  for (const [run, ops] of renderOpsByRun) {
    if (!builder.locate(run) || ops.numRows === 0) continue;
    const t = preprocessRenderOps(ops);
    const screen = screens.get(run) ?? { width: 1080, height: 1920 };
    const display = frameDisplaySeconds(t);
    const nv = t.views.length;
    const u = new Float64Array(nv);
    const c = new Float64Array(nv);
    t.frames.forEach((fr, f) => {
      u.fill(0);
      c.fill(0);
      for (let k = fr.begin; k < fr.end; k++) c[t.view[k]!]! += t.self[k]! / 1e9;
      const cov = frameCoverage(t, f, screen);
      for (let j = 0; j < cov.ops.length; j++) u[t.view[cov.ops[j]!]!]! += cov.visible[j]! * display[f]!;
      const ts = t.start[fr.begin]!;
      for (const v of fr.views) {
        const info = t.views[v]!;
        const [res, cost] = specsOf(info.viewClass, info.xmlId);
        if (c[v]! > 0) builder.add(res!, run, ts, u[v]!, c[v]!);
        builder.addAmount(cost!, run, ts, c[v]! * 1e3);
      }
    });
  }
}
