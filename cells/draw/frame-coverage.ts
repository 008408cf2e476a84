// What each draw operation of a frame leaves visible (DRAW §IV): the pixels where it is the last painter.
//
// visiblePixels works on compressed coordinates, painting rectangles from the last drawn to the first:
// a cell already painted by a later rectangle is covered. Each row of cells keeps "next unpainted cell"
// pointers (path-compressed), so every cell is painted once: O(n log n + Σ rows spanned + cells).
//
// Which operations paint (frameCoverage): a draw operation of a view that is visible (itself and every
// ancestor drawn in the frame), and that either has a background or has no child drawn in the frame
// (a leaf paints its content). A container without a background only places its children (§VI-A: "a
// layout itself usually does not include any visible pixels"), so it paints nothing and covers nothing.
// A draw row replayed from its RenderNode (render_ops.replayed, docs/agent.md) paints like any other: the
// view is on screen in that frame even though none of its code ran.
import type { Rect, Screen } from "./overdraw-depth";
import type { RenderTrace } from "./render-trace";

/** Pixels of each rectangle not painted over by a later one (index order = drawing order), clipped. */
export function visiblePixels(rects: readonly Rect[], screen: Screen): Float64Array {
  const w = Math.ceil(screen.width);
  const h = Math.ceil(screen.height);
  const n = rects.length;
  const out = new Float64Array(n);
  if (scratchBox.length < 4 * n)
    ((scratchBox = new Int32Array(8 * n)),
      (scratchXs = new Int32Array(4 * n)),
      (scratchYs = new Int32Array(4 * n)));
  const box = scratchBox;
  const live: number[] = [];
  let m = 0;
  for (let i = 0; i < n; i++) {
    const r = rects[i]!;
    const x0 = Math.max(0, Math.ceil(r.left));
    const x1 = Math.min(w, Math.ceil(r.left + r.width));
    const y0 = Math.max(0, Math.ceil(r.top));
    const y1 = Math.min(h, Math.ceil(r.top + r.height));
    if (!(x1 > x0 && y1 > y0)) continue;
    box[4 * i] = x0;
    box[4 * i + 1] = x1;
    box[4 * i + 2] = y0;
    box[4 * i + 3] = y1;
    scratchXs[m] = x0;
    scratchXs[m + 1] = x1;
    scratchYs[m] = y0;
    scratchYs[m + 1] = y1;
    m += 2;
    live.push(i);
  }
  const xs = uniqueSorted(scratchXs.subarray(0, m));
  const ys = uniqueSorted(scratchYs.subarray(0, m));
  const nx = xs.length - 1;
  const ny = ys.length - 1;
  if (nx <= 0 || ny <= 0) return out;
  const at = (sorted: Int32Array, v: number): number => {
    let lo = 0,
      hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // next[row * (nx + 1) + c] = the first unpainted cell ≥ c in that row (nx = past the end).
  if (scratchNext.length < ny * (nx + 1)) scratchNext = new Int32Array(2 * ny * (nx + 1));
  const next = scratchNext;
  for (let r = 0; r < ny; r++) for (let c = 0; c <= nx; c++) next[r * (nx + 1) + c] = c;
  const findNext = (base: number, c: number): number => {
    let root = c;
    while (next[base + root]! !== root) root = next[base + root]!;
    while (next[base + c]! !== root) {
      const up = next[base + c]!;
      next[base + c] = root;
      c = up;
    }
    return root;
  };
  for (let k = live.length - 1; k >= 0; k--) {
    const i = live[k]!;
    const a = at(xs, box[4 * i]!);
    const b = at(xs, box[4 * i + 1]!);
    const c0 = at(ys, box[4 * i + 2]!);
    const c1 = at(ys, box[4 * i + 3]!);
    let area = 0;
    for (let r = c0; r < c1; r++) {
      const base = r * (nx + 1);
      const rowH = ys[r + 1]! - ys[r]!;
      for (let c = findNext(base, a); c < b; c = findNext(base, c + 1)) {
        area += (xs[c + 1]! - xs[c]!) * rowH;
        next[base + c] = c + 1;
      }
    }
    out[i] = area;
  }
  return out;
}

// Scratch for visiblePixels (grown as needed): a frame must not allocate per rectangle.
let scratchBox = new Int32Array(0);
let scratchXs = new Int32Array(0);
let scratchYs = new Int32Array(0);
let scratchNext = new Int32Array(0);

/** Sorts `s` in place and returns its unique prefix (a view of the same memory). */
function uniqueSorted(s: Int32Array): Int32Array {
  s.sort();
  let u = 0;
  for (let i = 0; i < s.length; i++) if (i === 0 || s[i] !== s[u - 1]) s[u++] = s[i]!;
  return s.subarray(0, u);
}

export interface FrameCoverage {
  /** trace rows of the painting draw operations, in drawing order */
  ops: Int32Array;
  rects: Rect[];
  /** clipped pixels each painting operation draws */
  drawn: Float64Array;
  /** pixels each painting operation leaves visible at the end of the frame */
  visible: Float64Array;
  /** views (trace view indices) of the frame that show a pixel: painters with a visible pixel and
   *  their ancestors. The others are invisible: not visible, off screen, zero area, fully covered, or
   *  a container without background none of whose descendants shows a pixel. */
  shown: Int32Array;
  invisibleViews: Int32Array;
}

// Per-view scratch (trace view index → local index), grown as needed and reset after each frame.
let localOf = new Int32Array(0);
let perView = new Int32Array(0);

/** The painting draw operations of trace.frames[f] and what each leaves visible. */
export function frameCoverage(t: RenderTrace, f: number, screen: Screen): FrameCoverage {
  const fr = t.frames[f]!;
  const nv = fr.views.length;
  if (localOf.length < t.views.length)
    localOf = new Int32Array(Math.max(t.views.length, 2 * localOf.length)).fill(-1);
  for (let i = 0; i < nv; i++) localOf[fr.views[i]!] = i;
  if (perView.length < 5 * (nv + 1)) perView = new Int32Array(10 * (nv + 1));
  // Per-view scratch, zeroed: parent's local index, has-a-child, own visibility, effective visibility, path.
  perView.fill(0, 0, 5 * (nv + 1));
  const parentLocal = perView.subarray(0, nv);
  const hasChild = perView.subarray(nv, 2 * nv);
  for (let i = 0; i < nv; i++) {
    const p = fr.parents[i]!;
    const pl = p >= 0 ? localOf[p]! : -1;
    parentLocal[i] = pl;
    if (pl >= 0) hasChild[pl] = 1;
  }
  // A view's visibility in this frame: that of its last operation; effective = all ancestors visible too.
  // Views are listed in first-operation order and parents operate first, so one pass usually settles it;
  // the loop resolves any order.
  const own = perView.subarray(2 * nv, 3 * nv);
  for (let k = fr.begin; k < fr.end; k++) own[localOf[t.view[k]!]!] = t.visibility[k]!;
  const eff = perView.subarray(3 * nv, 4 * nv).fill(-1);
  const path = perView.subarray(4 * nv, 5 * nv + 1);
  for (let i = 0; i < nv; i++) {
    let j = i,
      len = 0;
    while (j >= 0 && eff[j]! < 0 && len <= nv) ((path[len++] = j), (j = parentLocal[j]!));
    let v = j < 0 ? 1 : Math.max(0, eff[j]!);
    for (let q = len - 1; q >= 0; q--) eff[path[q]!] = v = own[path[q]!] === 0 && v === 1 ? 1 : 0;
  }

  const ops: number[] = [];
  const rects: Rect[] = [];
  for (let k = fr.begin; k < fr.end; k++) {
    if (t.op[k] !== 2) continue;
    const i = localOf[t.view[k]!]!;
    if (!eff[i] || !(t.hasBackground[k] || !hasChild[i])) continue;
    ops.push(k);
    rects.push({ left: t.left[k]!, top: t.top[k]!, width: t.width[k]!, height: t.height[k]! });
  }
  const visible = visiblePixels(rects, screen);
  const drawn = new Float64Array(rects.length);
  for (let j = 0; j < rects.length; j++) drawn[j] = clippedArea(rects[j]!, screen);

  const shows = hasChild.fill(0); // hasChild is no longer needed
  for (let j = 0; j < ops.length; j++) {
    if (visible[j]! <= 0) continue;
    for (let i = localOf[t.view[ops[j]!]!]!; i >= 0 && !shows[i]; i = parentLocal[i]!) shows[i] = 1;
  }
  const shown: number[] = [];
  const invisible: number[] = [];
  for (let i = 0; i < nv; i++) (shows[i] ? shown : invisible).push(fr.views[i]!);
  for (let i = 0; i < nv; i++) localOf[fr.views[i]!] = -1;
  return {
    ops: new Int32Array(ops),
    rects,
    drawn,
    visible,
    shown: new Int32Array(shown),
    invisibleViews: new Int32Array(invisible),
  };
}

export function clippedArea(r: Rect, screen: Screen): number {
  const w = Math.max(
    0,
    Math.min(Math.ceil(screen.width), Math.ceil(r.left + r.width)) - Math.max(0, Math.ceil(r.left)),
  );
  const h = Math.max(
    0,
    Math.min(Math.ceil(screen.height), Math.ceil(r.top + r.height)) - Math.max(0, Math.ceil(r.top)),
  );
  return Number.isFinite(w * h) ? w * h : 0;
}
