// One interaction's frames accumulated for its features (DRAW §IV Table I, §V-A Table II): the per-view rows and
// statistics, the totals over its operations, and each drawing frame's coverage and overdraw depth.
import { frameCoverage, type FrameCoverage } from "./frame-coverage";
import { overdrawRegions, type DepthRegion, type Screen } from "./overdraw-depth";
import type { RenderTrace } from "./render-trace";
import { NS, O_MIN, O_SUM, S } from "./view-stats";

/** One user interaction to featurise: its input event and its frames (trace frame indices). */
export interface InteractionEvent {
  seq: number;
  kind: string;
  /** ns, the input's timestamp */
  start: number;
  frames: number[];
}

/** What every interaction of one trace shares: the screen, frame completions and the reused buffers. */
export interface InteractionContext {
  screen: Screen;
  /** sorted completion times (ns) from the frames table; null counts trace frames with a draw */
  completions: Float64Array | null;
  /** per trace view, its row in the interaction being built (-1: none); left all -1 */
  slot: Int32Array;
  /** one buffer for every interaction's per-view rows and stats */
  pool: { rows: Int32Array; stats: Float64Array; used: number };
}

/** The interaction's per-view rows: a row per view met, its statistics in `st` (VIEW_STATS columns). */
export interface ViewRows {
  rows: Int32Array;
  st: Float64Array;
  count: number;
  row(v: number): number;
}

export function viewRows(t: RenderTrace, frames: number[], ctx: InteractionContext): ViewRows {
  const { pool, slot } = ctx;
  let cap = 0;
  for (const f of frames) cap += t.frames[f]!.views.length;
  const rows = pool.rows.subarray(pool.used, pool.used + cap);
  const st = pool.stats.subarray(pool.used * NS, (pool.used + cap) * NS);
  pool.used += cap;
  const out: ViewRows = {
    rows,
    st,
    count: 0,
    row(v) {
      let r = slot[v]!;
      if (r < 0) {
        r = slot[v] = out.count++;
        rows[r] = v;
        for (let op = 0; op < 3; op++) st[r * NS + O_MIN[op]!] = Infinity;
        st[r * NS + S.invisible] = 1;
      }
      return r;
    },
  };
  return out;
}

/** Totals over the interaction's operations and frames, filled frame by frame. */
export interface Totals {
  end: number;
  renderNs: number;
  allHw: number;
  offUi: number;
  invisibleDraw: number;
  drawFrames: number;
  /** pixels by overdraw depth, all frames with a draw pooled */
  hist: number[];
  ratioSum: number;
  ratioFrames: number;
  screenPx: number;
  frameDepth: { max: number; min: number; cov: FrameCoverage; regions: DepthRegion[] }[];
  /** self times (ms) of every execution, per op */
  execs: number[][];
}

/** Adds frame f's operations to the views' statistics and the totals; true when the frame draws. */
export function addOps(t: RenderTrace, f: number, v: ViewRows, tot: Totals): boolean {
  const fr = t.frames[f]!;
  const st = v.st;
  for (let i = 0; i < fr.views.length; i++) st[v.row(fr.views[i]!) * NS + S.depth] = fr.depths[i]!;
  let hasDraw = false;
  for (let k = fr.begin; k < fr.end; k++) {
    const b = v.row(t.view[k]!) * NS;
    const op = t.op[k]!;
    const x = t.self[k]! / 1e6;
    st[b + S.area] = t.width[k]! * t.height[k]!;
    if (op === 2) ((hasDraw = true), (st[b + S.drawn] = 1));
    // A replayed view is on screen (its pixels count) but ran nothing this frame: no execution, no time.
    if (t.replayed[k]) continue;
    tot.execs[op]!.push(x);
    const o = O_SUM[op]!; // sum, sumsq, n, max, min are consecutive (VIEW_STATS)
    st[b + o] = st[b + o]! + x;
    st[b + o + 1] = st[b + o + 1]! + x * x;
    st[b + o + 2] = st[b + o + 2]! + 1;
    if (x > st[b + o + 3]!) st[b + o + 3] = x;
    if (x < st[b + o + 4]!) st[b + o + 4] = x;
    st[b + S.self] = st[b + S.self]! + x;
    tot.renderNs += t.self[k]!;
    const e = t.start[k]! + t.dur[k]!;
    if (e > tot.end) tot.end = e;
    if (!t.hwAccelerated[k]) ((tot.allHw = 0), (st[b + S.non_hw] = 1));
    if (!t.uiThread[k]) ((tot.offUi = 1), (st[b + S.off_ui] = 1));
    if (op === 2 && t.visibility[k] !== 0) ((tot.invisibleDraw = 1), (st[b + S.invisible_draw] = 1));
  }
  return hasDraw;
}

/** Adds a drawing frame's coverage: depth histogram, drawn and wasted pixels per view, drawing ratio (Table I). */
export function addCoverage(t: RenderTrace, f: number, screen: Screen, v: ViewRows, tot: Totals): void {
  tot.drawFrames++;
  const cov = frameCoverage(t, f, screen);
  // One sweep gives the depth regions; the frame's histogram is their areas by depth.
  const regions = overdrawRegions(cov.rects, screen);
  const frameHist: number[] = [0];
  for (const g of regions) frameHist[g.depth] = (frameHist[g.depth] ?? 0) + (g.x1 - g.x0) * (g.y1 - g.y0);
  let drawnPx = 0;
  for (let d = 1; d < frameHist.length; d++) drawnPx += frameHist[d] ??= 0;
  frameHist[0] = screenSize(screen) - drawnPx;
  for (let d = 0; d < frameHist.length; d++) tot.hist[d] = (tot.hist[d] ?? 0) + frameHist[d]!;
  tot.screenPx += screenSize(screen);
  let drawnSum = 0;
  for (let j = 0; j < cov.ops.length; j++) {
    const b = v.row(t.view[cov.ops[j]!]!) * NS;
    v.st[b + S.drawn_px] = v.st[b + S.drawn_px]! + cov.drawn[j]!;
    v.st[b + S.wasted_px] = v.st[b + S.wasted_px]! + cov.drawn[j]! - cov.visible[j]!;
    drawnSum += cov.drawn[j]!;
  }
  if (drawnSum > 0) ((tot.ratioSum += drawnPx / drawnSum), tot.ratioFrames++);
  let min = 0;
  while (min < frameHist.length && frameHist[min] === 0) min++;
  tot.frameDepth.push({ max: frameHist.length - 1, min, cov, regions });
}

/** Marks the views covering a pixel at the interaction's max (min) depth, in frames attaining it (1/m shares). */
export function markDepthCovers(t: RenderTrace, v: ViewRows, tot: Totals): number {
  let maxDepth = 0,
    minDepth = Infinity;
  for (const fd of tot.frameDepth)
    ((maxDepth = Math.max(maxDepth, fd.max)), (minDepth = Math.min(minDepth, fd.min)));
  for (const fd of tot.frameDepth) {
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
      const b = v.row(t.view[fd.cov.ops[j]!]!) * NS;
      let needMax = wantMax && v.st[b + S.covers_max] === 0;
      let needMin = wantMin && v.st[b + S.covers_min] === 0;
      for (let q = 0; q < regions.length && (needMax || needMin); q++) {
        const g = regions[q]!;
        if (g.x0 < rc.left || g.x0 >= rc.left + rc.width || g.y0 < rc.top || g.y0 >= rc.top + rc.height)
          continue;
        if (needMax && g.depth === maxDepth) ((v.st[b + S.covers_max] = 1), (needMax = false));
        if (needMin && g.depth === minDepth) ((v.st[b + S.covers_min] = 1), (needMin = false));
      }
    }
  }
  return minDepth;
}

const screenSize = (screen: Screen) => Math.ceil(screen.width) * Math.ceil(screen.height);
