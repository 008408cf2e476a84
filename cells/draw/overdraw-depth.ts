// Overdraw depth of one frame (DRAW §IV, Table I): how many draw operations cover each screen pixel.
//
// Exact and independent of the resolution: a sweep over the rectangles' top/bottom edges (y events) on
// compressed x coordinates. Between two consecutive y events nothing changes, so each slab contributes
// (slab height) × (length of x at depth d) to histogram[d]; the length at each depth is kept up to date
// incrementally as a rectangle enters or leaves. Cost O(n log n + Σ spanned x intervals + slabs × depth).
//
// Pixel model: a rectangle covers the integer pixels x with left ≤ x < left + width and y with
// top ≤ y < top + height, clipped to [0, screen.width) × [0, screen.height). Fractional coordinates are
// handled exactly (pixel x is covered iff ceil(left) ≤ x < ceil(left + width)). Zero, negative or
// non-finite sizes cover nothing.
import * as Plot from "@observablehq/plot";
import { chartSpec, type ChartSpec } from "../common/chart-spec";

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Screen {
  width: number;
  height: number;
}

export interface OverdrawDepthResult {
  /** histogram[d] = number of pixels drawn exactly d times, d = 0..max. */
  histogram: Float64Array;
  /** deepest pixel (0 when nothing was drawn). */
  max: number;
  /** mean depth over the pixels drawn at least once (0 when nothing was drawn). */
  mean: number;
}

/** A rectangle of constant depth (pixels [x0, x1) × [y0, y1)), as the sweep finds them. */
export interface DepthRegion {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  depth: number;
}

// Scratch buffers reused across calls: 10,000 frames per second of analysis must not allocate per frame.
let cap = 0;
let rx0 = new Int32Array(0);
let rx1 = new Int32Array(0);
let ry0 = new Int32Array(0);
let ry1 = new Int32Array(0);
let xs = new Int32Array(0);
let events = new Float64Array(0);
let counts = new Int32Array(0);
let lenAt = new Float64Array(0);
let ia = new Int32Array(0);
let ib = new Int32Array(0);
let widths = new Int32Array(0);

function ensure(n: number): void {
  if (n <= cap) return;
  cap = Math.max(n, cap * 2, 64);
  rx0 = new Int32Array(cap);
  rx1 = new Int32Array(cap);
  ry0 = new Int32Array(cap);
  ry1 = new Int32Array(cap);
  xs = new Int32Array(2 * cap);
  events = new Float64Array(2 * cap);
  counts = new Int32Array(2 * cap);
  lenAt = new Float64Array(cap + 2);
  ia = new Int32Array(cap);
  ib = new Int32Array(cap);
  widths = new Int32Array(2 * cap);
}

function screenSize(screen: Screen): [number, number] {
  const w = screen.width;
  const h = screen.height;
  if (!(w >= 0 && h >= 0 && Number.isFinite(w) && Number.isFinite(h)))
    throw new Error(`overdrawDepth: invalid screen size ${w}x${h}`);
  return [Math.ceil(w), Math.ceil(h)];
}

/** Clips rects into the scratch arrays; returns how many cover at least one pixel. */
function clip(rects: readonly Rect[], w: number, h: number): number {
  ensure(rects.length);
  let n = 0;
  for (const r of rects) {
    const x0 = Math.max(0, Math.ceil(r.left));
    const x1 = Math.min(w, Math.ceil(r.left + r.width));
    const y0 = Math.max(0, Math.ceil(r.top));
    const y1 = Math.min(h, Math.ceil(r.top + r.height));
    // NaN fails both comparisons, so non-finite rectangles drop out here.
    if (!(x1 > x0 && y1 > y0)) continue;
    rx0[n] = x0;
    rx1[n] = x1;
    ry0[n] = y0;
    ry1[n] = y1;
    n++;
  }
  return n;
}

/** Index of v in the sorted unique xs[0..m). */
function find(v: number, m: number): number {
  const X = xs;
  let lo = 0;
  let hi = m - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (X[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The sweep shared by overdrawDepth and overdrawRegions. Between y events the depths over the compressed
 * x intervals are constant: with `hist`, each such slab adds (height × length at depth d) to hist[d];
 * otherwise `onSlab(y0, y1, m)` is called (counts[0..m-1) and xs describe the slab).
 */
function sweep(
  n: number,
  hist: Float64Array | null,
  onSlab?: (y0: number, y1: number, m: number) => void,
): void {
  // Module-level scratch copied to locals: V8 keeps locals in registers, not reassignable module bindings.
  const X = xs,
    R0 = rx0,
    R1 = rx1,
    C = counts,
    L = lenAt,
    E = events;
  let m = 0;
  for (let i = 0; i < n; i++) {
    X[m++] = R0[i]!;
    X[m++] = R1[i]!;
  }
  const sorted = X.subarray(0, m).sort();
  let u = 0;
  for (let i = 0; i < m; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) X[u++] = sorted[i]!;
  m = u;
  // Rectangles as compressed x index ranges, and each interval's width.
  const a0 = ia,
    a1 = ib,
    wd = widths;
  for (let i = 0; i < n; i++) ((a0[i] = find(R0[i]!, m)), (a1[i] = find(R1[i]!, m)));
  for (let k = 0; k + 1 < m; k++) wd[k] = X[k + 1]! - X[k]!;
  // Event key: y·2n + 2i + (0 enter | 1 leave), exact in a double; leaving and entering at one y both
  // happen before the next slab, so their relative order does not matter.
  const stride = 2 * n;
  for (let i = 0; i < n; i++) {
    E[2 * i] = ry0[i]! * stride + 2 * i;
    E[2 * i + 1] = ry1[i]! * stride + 2 * i + 1;
  }
  const ev = E.subarray(0, 2 * n).sort();
  C.fill(0, 0, m);
  L.fill(0, 0, n + 2);
  let top = 0; // every depth above `top` has length 0
  let prevY = 0;
  for (let e = 0; e < 2 * n; e++) {
    const key = ev[e]!;
    const y = Math.floor(key / stride);
    const rest = key - y * stride;
    const i = rest >> 1;
    if (y > prevY && top > 0) {
      if (hist) {
        const dy = y - prevY;
        for (let d = 1; d <= top; d++) hist[d] = hist[d]! + L[d]! * dy;
      } else onSlab!(prevY, y, m);
    }
    prevY = y;
    const b = a1[i]!;
    if ((rest & 1) === 0) {
      for (let k = a0[i]!; k < b; k++) {
        const c = C[k]!,
          wk = wd[k]!;
        L[c] = L[c]! - wk;
        L[c + 1] = L[c + 1]! + wk;
        C[k] = c + 1;
      }
      // Entering raises depths by one, so only top + 1 can appear.
      if (L[top + 1]! > 0) top++;
    } else {
      for (let k = a0[i]!; k < b; k++) {
        const c = C[k]!,
          wk = wd[k]!;
        L[c] = L[c]! - wk;
        L[c - 1] = L[c - 1]! + wk;
        C[k] = c - 1;
      }
      while (top > 0 && L[top] === 0) top--;
    }
  }
}

/** Exact overdraw depth histogram of one frame's draw rectangles (DRAW §IV, Table I). */
export function overdrawDepth(rects: readonly Rect[], screen: Screen): OverdrawDepthResult {
  const [w, h] = screenSize(screen);
  const n = clip(rects, w, h);
  const hist = new Float64Array(n + 1);
  sweep(n, hist);
  let max = 0;
  let drawn = 0;
  let sum = 0;
  for (let d = 1; d <= n; d++) {
    const c = hist[d]!;
    if (c > 0) max = d;
    drawn += c;
    sum += d * c;
  }
  hist[0] = w * h - drawn;
  return { histogram: hist.slice(0, max + 1), max, mean: drawn > 0 ? sum / drawn : 0 };
}

/**
 * The screen partitioned into rectangles of constant depth ≥ 1 (depth-0 area is left out): adjacent
 * x intervals of equal depth are merged within each slab. For heat maps and for finding where the
 * deepest pixels are, without rasterising.
 */
export function overdrawRegions(rects: readonly Rect[], screen: Screen): DepthRegion[] {
  const [w, h] = screenSize(screen);
  const n = clip(rects, w, h);
  const out: DepthRegion[] = [];
  sweep(n, null, (y0, y1, m) => {
    let k = 0;
    while (k < m - 1) {
      const d = counts[k]!;
      let j = k + 1;
      while (j < m - 1 && counts[j] === d) j++;
      if (d > 0) out.push({ x0: xs[k]!, x1: xs[j]!, y0, y1, depth: d });
      k = j;
    }
  });
  return out;
}

export interface OverdrawDepthPlotOptions {
  screen: Screen;
  /** heat map colour scheme; default "ylorrd" (the Android overdraw debugger's warm ramp). */
  scheme?: Plot.ScaleOptions["scheme"];
}

/** Heat map of one frame's overdraw depth: one rectangle per constant-depth region, y pointing down. */
export function overdrawDepthPlot(
  regions: readonly DepthRegion[],
  options: OverdrawDepthPlotOptions,
): ChartSpec {
  const { screen, scheme = "ylorrd" } = options;
  return chartSpec("overdrawDepthPlot", {
    mark: "rect",
    data: regions.map((d) => ({ ...d, tip: `depth ${d.depth}` })),
    fill: "depth",
    options: { x1: "x0", x2: "x1", y1: "y0", y2: "y1", title: "tip" },
    width: 360,
    height: Math.round((360 * screen.height) / Math.max(1, screen.width)),
    layout: {
      x: { domain: [0, screen.width], label: "x (px)" },
      y: { domain: [screen.height, 0], label: "y (px)" },
      // Depths are small integers: an ordinal scale's swatch legend needs no canvas (a ramp does), so it shows headless too.
      color: { type: "ordinal", scheme, label: "overdraw depth (draws per pixel)", legend: true },
    },
    under: [{ mark: "frame" }],
  });
}
