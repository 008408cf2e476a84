// Rendering features of one user interaction (DRAW §IV Table I, §V-A Table II), and the per-view
// statistics the contributions of §V-B are computed from (root-cause.ts).
//
// Features (43; times in ms, areas in px), named after Table II's wording:
// - Table I: overdraw_max, overdraw_avg (over pixels drawn at least once, all frames pooled),
//   invisible_view_count (views of the interaction that show no pixel in any of its frames), and
//   effective_drawing_ratio_avg (mean over frames with draw operations of distinct drawn pixels / Σ drawn
//   pixels; Android's draws leave no other record of "changed" pixels, so a pixel drawn at all changed);
// - {measure,layout,draw}_time_{avg,max,min,var}: over every execution's self time;
// - {measure,layout,draw}_count_{avg,max,min,var}: executions per view, over the interaction's views;
// - view_count: views drawn; pixel_depth_{avg,max,min,var}: over every screen pixel of every frame with
//   a draw (undrawn pixels have depth 0); view_area_{avg,max,min,var}: width × height per view (last op);
// - view_tree_depth_{max,avg}; rendering_time_ratio = rendering time / duration; binary: hw_accelerated
//   (every op was), off_ui_thread (some op was not on the UI thread), invisible_draw (some view drew while
//   not visible). Statistics of an empty set are 0; variance is the population variance.
import type { RenderTrace } from "./render-trace";
import {
  addCoverage,
  addOps,
  markDepthCovers,
  viewRows,
  type InteractionContext,
  type InteractionEvent,
  type Totals,
  type ViewRows,
} from "./interaction-frames";
import { NS, O_MIN, O_N, S } from "./view-stats";

export { FEATURE_NAMES, VIEW_STATS, type ViewStat } from "./view-stats";
export type { InteractionContext, InteractionEvent } from "./interaction-frames";

export interface Interaction {
  seq: number;
  kind: string;
  /** ns */
  start: number;
  end: number;
  /** indices into trace.frames */
  frames: number[];
  /** Σ self time of its operations, ms */
  renderingTime: number;
  /** frames per second over [start, end] */
  frameRate: number;
  /** feature values, in FEATURE_NAMES order */
  features: Float64Array;
  /** trace view indices of the interaction's views */
  views: Int32Array;
  /** views × VIEW_STATS, row-major */
  viewStats: Float64Array;
}

/** Frames completed in [lo, hi], from sorted completion times. */
export function countIn(sorted: Float64Array, lo: number, hi: number): number {
  const lower = (x: number) => {
    let a = 0,
      b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (sorted[m]! < x) a = m + 1;
      else b = m;
    }
    return a;
  };
  const upper = (x: number) => {
    let a = 0,
      b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (sorted[m]! <= x) a = m + 1;
      else b = m;
    }
    return a;
  };
  return upper(hi) - lower(lo);
}

/** The 43 features in FEATURE_NAMES order, from the totals and the per-view statistics. */
function featureVector(
  v: ViewRows,
  tot: Totals,
  start: number,
  frames: number,
  minDepth: number,
): Float64Array {
  const { st, count: nv } = v;
  const hist = tot.hist;
  const feats: number[] = [];
  let histTotal = 0,
    depthSum = 0,
    depthSq = 0;
  for (let d = 0; d < hist.length; d++) {
    const c = hist[d] ?? 0;
    histTotal += c;
    depthSum += d * c;
    depthSq += d * d * c;
  }
  const drawnPx = histTotal - (hist[0] ?? 0);
  const maxD = hist.length > 0 ? hist.length - 1 : 0;
  feats.push(
    maxD,
    drawnPx > 0 ? depthSum / drawnPx : 0,
    sumOf(st, nv, S.invisible),
    tot.ratioFrames > 0 ? tot.ratioSum / tot.ratioFrames : 0,
  );
  for (let op = 0; op < 3; op++) feats.push(...describe(tot.execs[op]!, tot.execs[op]!.length, 0, 1));
  for (let op = 0; op < 3; op++) feats.push(...describe(st, nv, O_N[op]!));
  feats.push(sumOf(st, nv, S.drawn));
  const pxMean = tot.screenPx > 0 ? depthSum / tot.screenPx : 0;
  feats.push(
    pxMean,
    maxD,
    tot.frameDepth.length ? minDepth : 0,
    tot.screenPx > 0 ? depthSq / tot.screenPx - pxMean * pxMean : 0,
  );
  feats.push(...describe(st, nv, S.area));
  const [depthAvg, depthMax] = describe(st, nv, S.depth);
  feats.push(depthMax, depthAvg);
  feats.push(
    tot.end > start ? tot.renderNs / (tot.end - start) : 0,
    frames ? tot.allHw : 0,
    tot.offUi,
    tot.invisibleDraw,
  );
  return new Float64Array(feats);
}

/** The features and per-view statistics of one interaction. */
export function interactionOf(t: RenderTrace, event: InteractionEvent, ctx: InteractionContext): Interaction {
  const { frames, start } = event;
  const v = viewRows(t, frames, ctx);
  const tot: Totals = {
    end: start,
    renderNs: 0,
    allHw: 1,
    offUi: 0,
    invisibleDraw: 0,
    drawFrames: 0,
    hist: [],
    ratioSum: 0,
    ratioFrames: 0,
    screenPx: 0,
    frameDepth: [],
    execs: [[], [], []],
  };
  for (const f of frames) if (addOps(t, f, v, tot)) addCoverage(t, f, ctx.screen, v, tot);
  for (let r = 0; r < v.count; r++)
    for (let op = 0; op < 3; op++) if (v.st[r * NS + O_N[op]!] === 0) v.st[r * NS + O_MIN[op]!] = 0;
  const minDepth = markDepthCovers(t, v, tot);
  // invisible_view_count: views showing no pixel in any frame of the interaction.
  for (const fd of tot.frameDepth)
    for (const view of fd.cov.shown) v.st[ctx.slot[view]! * NS + S.invisible] = 0;
  const features = featureVector(v, tot, start, frames.length, minDepth);
  const durationS = (tot.end - start) / 1e9;
  const completed = ctx.completions ? countIn(ctx.completions, start, tot.end) : tot.drawFrames;
  const views = v.rows.subarray(0, v.count);
  for (const view of views) ctx.slot[view] = -1;
  return {
    seq: event.seq,
    kind: event.kind,
    start,
    end: tot.end,
    frames,
    renderingTime: tot.renderNs / 1e6,
    frameRate: durationS > 0 ? completed / durationS : 0,
    features,
    views,
    viewStats: v.st.subarray(0, v.count * NS),
  };
}

/** [avg, max, min, population variance] of xs[offset + k·stride], k < n (per-view stat columns read in
 *  place); all 0 for an empty list. */
function describe(
  xs: ArrayLike<number>,
  n: number,
  offset: number,
  stride = NS,
): [number, number, number, number] {
  if (n === 0) return [0, 0, 0, 0];
  let sum = 0,
    max = -Infinity,
    min = Infinity;
  for (let k = 0, i = offset; k < n; k++, i += stride) {
    const x = xs[i]!;
    sum += x;
    if (x > max) max = x;
    if (x < min) min = x;
  }
  const mean = sum / n;
  let v = 0;
  for (let k = 0, i = offset; k < n; k++, i += stride) v += (xs[i]! - mean) * (xs[i]! - mean);
  return [mean, max, min, v / n];
}

function sumOf(xs: Float64Array, n: number, offset: number): number {
  let sum = 0;
  for (let k = 0, i = offset; k < n; k++, i += NS) sum += xs[i]!;
  return sum;
}
