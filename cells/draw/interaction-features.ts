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
import { frameCoverage, type FrameCoverage } from "./frame-coverage";
import { overdrawRegions, type DepthRegion, type Screen } from "./overdraw-depth";
import type { RenderTrace } from "./render-trace";

const STATS = ["avg", "max", "min", "var"] as const;
const OPNAMES = ["measure", "layout", "draw"] as const;
export const FEATURE_NAMES: readonly string[] = [
  "overdraw_max",
  "overdraw_avg",
  "invisible_view_count",
  "effective_drawing_ratio_avg",
  ...OPNAMES.flatMap((op) => STATS.map((s) => `${op}_time_${s}`)),
  ...OPNAMES.flatMap((op) => STATS.map((s) => `${op}_count_${s}`)),
  "view_count",
  ...STATS.map((s) => `pixel_depth_${s}`),
  ...STATS.map((s) => `view_area_${s}`),
  "view_tree_depth_max",
  "view_tree_depth_avg",
  "rendering_time_ratio",
  "hw_accelerated",
  "off_ui_thread",
  "invisible_draw",
];

type OpStat = `${(typeof OPNAMES)[number]}_${"sum" | "sumsq" | "n" | "max" | "min"}`;
export type ViewStat =
  | OpStat
  | "area"
  | "depth"
  | "drawn_px"
  | "wasted_px"
  | "self"
  | "non_hw"
  | "off_ui"
  | "invisible_draw"
  | "invisible"
  | "drawn"
  | "covers_max"
  | "covers_min";
/** Per-view columns kept for each interaction, for contributions (root-cause.ts). */
export const VIEW_STATS: readonly ViewStat[] = [
  ...OPNAMES.flatMap((op) =>
    (["sum", "sumsq", "n", "max", "min"] as const).map((s): ViewStat => `${op}_${s}`),
  ),
  "area",
  "depth",
  "drawn_px",
  "wasted_px",
  "self",
  "non_hw",
  "off_ui",
  "invisible_draw",
  "invisible",
  "drawn",
  "covers_max",
  "covers_min",
];
const S = Object.fromEntries(VIEW_STATS.map((s, i) => [s, i])) as Record<ViewStat, number>;
const NS = VIEW_STATS.length;

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

// Column offsets, resolved once for the hot loops.
const O_SUM = OPNAMES.map((op) => S[`${op}_sum`]);
const O_MIN = OPNAMES.map((op) => S[`${op}_min`]);
const O_N = OPNAMES.map((op) => S[`${op}_n`]);

/** The features and per-view statistics of one interaction (its frames are trace frame indices). */
export function interactionOf(
  t: RenderTrace,
  frames: number[],
  start: number,
  seq: number,
  kind: string,
  completions: Float64Array | null,
  screen: Screen,
  slot: Int32Array,
  pool: { rows: Int32Array; stats: Float64Array; used: number },
): Interaction {
  let cap = 0;
  for (const f of frames) cap += t.frames[f]!.views.length;
  const rows = pool.rows.subarray(pool.used, pool.used + cap);
  const st = pool.stats.subarray(pool.used * NS, (pool.used + cap) * NS);
  pool.used += cap;
  let nv = 0;
  // slot[v] = v's row in this interaction (-1: none yet); reset before returning.
  const row = (v: number): number => {
    let r = slot[v]!;
    if (r < 0) {
      r = slot[v] = nv++;
      rows[r] = v;
      for (let op = 0; op < 3; op++) st[r * NS + O_MIN[op]!] = Infinity;
      st[r * NS + S.invisible] = 1;
    }
    return r;
  };
  let end = start,
    renderNs = 0,
    allHw = 1,
    offUi = 0,
    invisibleDraw = 0,
    drawFrames = 0;
  const hist: number[] = [];
  let ratioSum = 0,
    ratioFrames = 0,
    screenPx = 0;
  const frameDepth: { max: number; min: number; cov: FrameCoverage; regions: DepthRegion[] }[] = [];
  const execs: number[][] = [[], [], []];
  for (const f of frames) {
    const fr = t.frames[f]!;
    for (let i = 0; i < fr.views.length; i++) st[row(fr.views[i]!) * NS + S.depth] = fr.depths[i]!;
    let hasDraw = false;
    for (let k = fr.begin; k < fr.end; k++) {
      const b = row(t.view[k]!) * NS;
      const op = t.op[k]!;
      const x = t.self[k]! / 1e6;
      execs[op]!.push(x);
      const o = O_SUM[op]!; // sum, sumsq, n, max, min are consecutive (VIEW_STATS)
      st[b + o] = st[b + o]! + x;
      st[b + o + 1] = st[b + o + 1]! + x * x;
      st[b + o + 2] = st[b + o + 2]! + 1;
      if (x > st[b + o + 3]!) st[b + o + 3] = x;
      if (x < st[b + o + 4]!) st[b + o + 4] = x;
      st[b + S.area] = t.width[k]! * t.height[k]!;
      st[b + S.self] = st[b + S.self]! + x;
      renderNs += t.self[k]!;
      const e = t.start[k]! + t.dur[k]!;
      if (e > end) end = e;
      if (!t.hwAccelerated[k]) ((allHw = 0), (st[b + S.non_hw] = 1));
      if (!t.uiThread[k]) ((offUi = 1), (st[b + S.off_ui] = 1));
      if (op === 2) {
        hasDraw = true;
        st[b + S.drawn] = 1;
        if (t.visibility[k] !== 0) ((invisibleDraw = 1), (st[b + S.invisible_draw] = 1));
      }
    }
    if (!hasDraw) continue;
    drawFrames++;
    const cov = frameCoverage(t, f, screen);
    // One sweep gives the depth regions; the frame's histogram is their areas by depth.
    const regions = overdrawRegions(cov.rects, screen);
    const frameHist: number[] = [0];
    for (const g of regions) frameHist[g.depth] = (frameHist[g.depth] ?? 0) + (g.x1 - g.x0) * (g.y1 - g.y0);
    let drawnPx = 0;
    for (let d = 1; d < frameHist.length; d++) drawnPx += frameHist[d] ??= 0;
    frameHist[0] = screenSize(screen) - drawnPx;
    for (let d = 0; d < frameHist.length; d++) hist[d] = (hist[d] ?? 0) + frameHist[d]!;
    screenPx += screenSize(screen);
    let drawnSum = 0;
    for (let j = 0; j < cov.ops.length; j++) {
      const b = row(t.view[cov.ops[j]!]!) * NS;
      st[b + S.drawn_px] = st[b + S.drawn_px]! + cov.drawn[j]!;
      st[b + S.wasted_px] = st[b + S.wasted_px]! + cov.drawn[j]! - cov.visible[j]!;
      drawnSum += cov.drawn[j]!;
    }
    if (drawnSum > 0) ((ratioSum += drawnPx / drawnSum), ratioFrames++);
    let min = 0;
    while (min < frameHist.length && frameHist[min] === 0) min++;
    frameDepth.push({ max: frameHist.length - 1, min, cov, regions });
  }
  for (let r = 0; r < nv; r++)
    for (let op = 0; op < 3; op++) if (st[r * NS + O_N[op]!] === 0) st[r * NS + O_MIN[op]!] = 0;

  // Views covering a pixel at the interaction's max (min) depth, in frames attaining it (1/m shares).
  let maxDepth = 0,
    minDepth = Infinity;
  for (const fd of frameDepth)
    ((maxDepth = Math.max(maxDepth, fd.max)), (minDepth = Math.min(minDepth, fd.min)));
  for (const fd of frameDepth) {
    const wantMax = maxDepth >= 1 && fd.max === maxDepth;
    const wantMin = minDepth >= 1 && fd.min === minDepth;
    if (!wantMax && !wantMin) continue;
    const regions = fd.regions.filter(
      (g) => (wantMax && g.depth === maxDepth) || (wantMin && g.depth === minDepth),
    );
    // A region lies wholly inside or wholly outside each rectangle (both come from the same edges), so a
    // rectangle covers it iff it contains the region's top-left pixel.
    for (let j = 0; j < fd.cov.rects.length; j++) {
      const rc = fd.cov.rects[j]!;
      const b = row(t.view[fd.cov.ops[j]!]!) * NS;
      let needMax = wantMax && st[b + S.covers_max] === 0;
      let needMin = wantMin && st[b + S.covers_min] === 0;
      for (let q = 0; q < regions.length && (needMax || needMin); q++) {
        const g = regions[q]!;
        if (g.x0 < rc.left || g.x0 >= rc.left + rc.width || g.y0 < rc.top || g.y0 >= rc.top + rc.height)
          continue;
        if (needMax && g.depth === maxDepth) ((st[b + S.covers_max] = 1), (needMax = false));
        if (needMin && g.depth === minDepth) ((st[b + S.covers_min] = 1), (needMin = false));
      }
    }
  }
  // invisible_view_count: views showing no pixel in any frame of the interaction.
  for (const fd of frameDepth) for (const v of fd.cov.shown) st[slot[v]! * NS + S.invisible] = 0;

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
    ratioFrames > 0 ? ratioSum / ratioFrames : 0,
  );
  for (let op = 0; op < 3; op++) feats.push(...describe(execs[op]!, execs[op]!.length, 0, 1));
  for (let op = 0; op < 3; op++) feats.push(...describe(st, nv, O_N[op]!));
  feats.push(sumOf(st, nv, S.drawn));
  const pxMean = screenPx > 0 ? depthSum / screenPx : 0;
  feats.push(
    pxMean,
    maxD,
    frameDepth.length ? minDepth : 0,
    screenPx > 0 ? depthSq / screenPx - pxMean * pxMean : 0,
  );
  feats.push(...describe(st, nv, S.area));
  const [depthAvg, depthMax] = describe(st, nv, S.depth);
  feats.push(depthMax, depthAvg);
  feats.push(end > start ? renderNs / (end - start) : 0, frames.length ? allHw : 0, offUi, invisibleDraw);
  const durationS = (end - start) / 1e9;
  const completed = completions ? countIn(completions, start, end) : drawFrames;
  const views = rows.subarray(0, nv);
  for (const v of views) slot[v] = -1;
  return {
    seq,
    kind,
    start,
    end,
    frames,
    renderingTime: renderNs / 1e6,
    frameRate: durationS > 0 ? completed / durationS : 0,
    features: new Float64Array(feats),
    views,
    viewStats: st.subarray(0, nv * NS),
  };
}

const screenSize = (screen: Screen) => Math.ceil(screen.width) * Math.ceil(screen.height);

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
