// Rendering efficiency score (DRAW §IV-A, Equations 1-2): RES(v) = (Σ_k U(v^(k)) + 1) / Σ_k C(v^(k)).
//
// U (Equation 2): visible pixel-time, Σ over v's pixels of the time each stays visible. A frame's picture
// is on screen from the end of its last operation until the end of the next frame's (frames are treated
// as full redraws of what they list); the last frame stays for `lastFrameSeconds`. So U(v) = Σ_frames
// (pixels v leaves visible in the frame, see frame-coverage.ts) × (that frame's display time in s).
// C: v's rendering cost in seconds, the self times (§III-B) of all its measure, layout and draw operations.
// A view that never costs anything (C = 0) has RES = Infinity and ranks last. Lower RES = worse.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DRAW } from "./defaults";
import { frameCoverage } from "./frame-coverage";
import type { Screen } from "./overdraw-depth";
import type { RenderTrace } from "./render-trace";

export interface RenderingEfficiencyOptions {
  /** screen size in pixels (runs.screen_width × runs.screen_height) */
  screen: Screen;
  /** how long the last frame stays on screen, s; default: the median display time of the others, else 1/60 */
  lastFrameSeconds?: number;
}

export interface ViewEfficiency {
  viewId: number;
  viewClass: string;
  xmlId: string | null;
  layoutFile: string | null;
  /** Σ U: visible pixel-seconds */
  utility: number;
  /** Σ C: self rendering time, s */
  cost: number;
  res: number;
  /** frames with a draw operation of this view */
  framesDrawn: number;
}

/** RES of every view in the trace, worst (smallest) first. */
export function renderingEfficiency(t: RenderTrace, options: RenderingEfficiencyOptions): ViewEfficiency[] {
  const display = frameDisplaySeconds(t, options.lastFrameSeconds);
  const nv = t.views.length;
  const utility = new Float64Array(nv);
  const cost = new Float64Array(nv);
  const drawnFrames = new Int32Array(nv);
  for (let k = 0; k < t.length; k++) cost[t.view[k]!] = cost[t.view[k]!]! + t.self[k]! / 1e9;
  t.frames.forEach((fr, f) => {
    const cov = frameCoverage(t, f, options.screen);
    for (let j = 0; j < cov.ops.length; j++) {
      const v = t.view[cov.ops[j]!]!;
      utility[v] = utility[v]! + cov.visible[j]! * display[f]!;
    }
    const seen = new Set<number>();
    for (let k = fr.begin; k < fr.end; k++) if (t.op[k] === 2) seen.add(t.view[k]!);
    for (const v of seen) drawnFrames[v] = drawnFrames[v]! + 1;
  });
  const out = t.views.map((info, v) => ({
    ...info,
    utility: utility[v]!,
    cost: cost[v]!,
    res: cost[v]! > 0 ? (utility[v]! + 1) / cost[v]! : Infinity, // Equation 1
    framesDrawn: drawnFrames[v]!,
  }));
  return out.sort((a, b) => a.res - b.res || b.cost - a.cost || a.viewId - b.viewId);
}

/** Seconds each frame's picture is on screen: until the end of the next frame's last operation. */
export function frameDisplaySeconds(t: RenderTrace, lastFrameSeconds?: number): Float64Array {
  const ends = t.frames.map((fr) => {
    let end = -Infinity;
    for (let k = fr.begin; k < fr.end; k++) end = Math.max(end, t.start[k]! + t.dur[k]!);
    return end;
  });
  const out = new Float64Array(ends.length);
  for (let f = 0; f + 1 < ends.length; f++) out[f] = Math.max(0, ends[f + 1]! - ends[f]!) / 1e9;
  if (ends.length > 0) {
    let last = lastFrameSeconds;
    if (last === undefined) {
      const others = Array.from(out.subarray(0, ends.length - 1)).sort((a, b) => a - b);
      last = others.length ? others[(others.length - 1) >> 1]! : 1 / 60;
    }
    out[ends.length - 1] = last;
  }
  return out;
}

export interface RenderingEfficiencyPlotOptions {
  /** how many of the worst views to show; default DRAW.top (defaults.ts; the paper's Figure 7) */
  top?: number;
}

/** The RES ranking: the worst views as bars on a log scale, labelled with class and layout file. */
export function renderingEfficiencyPlot(
  ranking: readonly ViewEfficiency[],
  options: RenderingEfficiencyPlotOptions = {},
): ChartSpec {
  const rows = ranking
    .filter((r) => Number.isFinite(r.res))
    .slice(0, options.top ?? DRAW.top)
    .map((r, i) => ({
      ...r,
      rank: i + 1,
      label: `${r.viewClass.split(".").pop()}#${r.viewId} ${r.xmlId ?? ""} ${r.layoutFile ?? ""}`.trim(),
      tip: `${r.viewClass} #${r.viewId}\nRES ${r.res.toPrecision(3)}`,
    }));
  const floor = rows.length ? Math.min(...rows.map((r) => r.res)) / 2 : 1;
  return chartSpec("renderingEfficiencyPlot", {
    mark: "barX",
    data: rows,
    y: "label",
    options: { x1: floor, x2: "res", fill: "steelblue", title: "tip" },
    layout: {
      x: { type: "log", label: "RES (visible pixel·s + 1) / s; lower is worse", grid: true },
      y: { domain: rows.map((r) => r.label), label: null },
    },
    over: [{ mark: "ruleX", data: [floor] }],
  });
}
