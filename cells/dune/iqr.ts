// Interquartile-range outlier flags (DUNE §5.3.3): x < Q1 − OF·IQR is Outlier−, x > Q3 + OF·IQR is Outlier+.
//
// Quartile methods:
// - "hf6" (default): Hyndman–Fan type 6, position h = (n + 1)p on the sorted values, linear interpolation,
//   clamped to the first/last value. It is the method that reproduces the paper's worked example
//   (448, 453, 450, 457, 430, 270 → Q1 = 390, Q3 = 454).
// - "weka": what Weka 3.6's weka.filters.unsupervised.attribute.InterquartileRange computes
//   (computeThresholds, checked against Weka 3.6.14 itself, see test/cells/dune/iqr.test.ts):
//   half = ⌊n/2⌋, quarter = ⌊half/2⌋; if half is odd Q1 = x[quarter], Q3 = x[n−quarter−1], else the mean
//   of x[quarter], x[quarter+1] and of x[n−quarter−1], x[n−quarter] (0-based, sorted). On the paper's
//   example that is Q1 = 430, Q3 = 453.
//
// Edge cases (both methods), documented because Weka does not define them:
// - NaN values are missing: excluded from the quartiles, never flagged (flag 0), counted in `missing`.
//   (Weka refuses missing values: NoSupportForMissingValuesException.)
// - n = 0 (after exclusion): Q1 = Q3 = IQR = NaN and nothing is flagged.
// - n = 1: Q1 = Q3 = the value (Weka throws ArrayIndexOutOfBoundsException).
// - n = 2: "hf6" and "weka" both give Q1 = min, Q3 = max (what Weka's quartile formula gives; Weka itself throws
//   ArrayIndexOutOfBoundsException computing the median first).
// - all values equal: IQR = 0 and nothing is flagged, since the fences are strict inequalities.
// Weka's own default factors are OF = 3, EF = 6, and its Outlier attribute excludes extreme values;
// here OF defaults to 1.5 as the paper states (§5.3.3) and `flags` marks every value beyond the outlier
// fences, extreme or not; `extreme` (when extremeFactor is given) marks those beyond the extreme fences.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DUNE } from "./defaults";

export type QuartileMethod = "hf6" | "weka";

export interface IqrFlagsOptions {
  /** OF, the outlier factor; default DUNE.outlierFactor (defaults.ts, §5.3.3). */
  outlierFactor?: number;
  /** EF: when given, `extreme` flags values beyond Q1 − EF·IQR / Q3 + EF·IQR. Weka's usual value is 2·OF. */
  extremeFactor?: number;
  /** Quartile method; default DUNE.quartileMethod (the paper's worked example). */
  method?: QuartileMethod;
}

export interface IqrFlagsResult {
  /** the outlier factor and quartile method that made the fences */
  outlierFactor: number;
  method: QuartileMethod;
  q1: number;
  q3: number;
  iqr: number;
  /** −1 below Q1 − OF·IQR, +1 above Q3 + OF·IQR, 0 otherwise (and for NaN values). */
  flags: Int8Array;
  /** Same for the extreme fences; present only when extremeFactor was given. */
  extreme?: Int8Array;
  /** Fences actually used, for plots (NaN when n = 0). */
  lowerFence: number;
  upperFence: number;
  /** Number of NaN (missing) values excluded. */
  missing: number;
}

const METHODS: readonly QuartileMethod[] = ["hf6", "weka"];

/** The non-NaN values, copied (they get reordered by selection), and how many were NaN. */
function finiteCopy(values: ArrayLike<number>): { a: Float64Array; missing: number } {
  const out = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isNaN(v)) out[n++] = v;
  }
  return { a: out.subarray(0, n), missing: values.length - n };
}

// Quickselect (Hoare partition, median-of-three pivot): O(n) instead of a full sort, since 100,000-run
// clusters are flagged per metric and per UI event. Afterwards a[lo..k-1] <= a[k] <= a[k+1..hi].
function select(a: Float64Array, k: number, lo: number, hi: number): number {
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** The k-th smallest values (0-based) for ascending ks, each selection narrowing the next one's range. */
function orderStats(a: Float64Array, ks: number[]): Map<number, number> {
  const out = new Map<number, number>();
  let lo = 0;
  let prev = -2;
  for (const k of [...new Set(ks)].sort((p, q) => p - q)) {
    if (k === prev + 1) {
      // The next order statistic is the minimum of what lies above the previous one: one scan.
      let m = k;
      for (let i = k + 1; i < a.length; i++) if (a[i]! < a[m]!) m = i;
      const t = a[k]!;
      a[k] = a[m]!;
      a[m] = t;
      out.set(k, a[k]!);
    } else out.set(k, select(a, k, lo, a.length - 1));
    lo = k + 1;
    prev = k;
  }
  return out;
}

/** hf6: 1-based position h = (n + 1)p (Hyndman & Fan 1996, definition 6), clamped, interpolated. */
function hf6Positions(n: number, p: number): { lo: number; hi: number; frac: number } {
  const h = Math.min(Math.max((n + 1) * p, 1), n);
  const j = Math.floor(h);
  return { lo: j - 1, hi: Math.min(j, n - 1), frac: h - j };
}

function quartilesOf(a: Float64Array, method: QuartileMethod): { q1: number; q3: number } {
  const n = a.length;
  if (n === 0) return { q1: NaN, q3: NaN };
  if (method === "weka") {
    if (n === 1) return { q1: a[0]!, q3: a[0]! };
    const half = Math.floor(n / 2);
    const quarter = Math.floor(half / 2);
    if (half % 2 === 1) {
      const s = orderStats(a, [quarter, n - quarter - 1]);
      return { q1: s.get(quarter)!, q3: s.get(n - quarter - 1)! };
    }
    const s = orderStats(a, [quarter, quarter + 1, n - quarter - 1, n - quarter]);
    return {
      q1: (s.get(quarter)! + s.get(quarter + 1)!) / 2,
      q3: (s.get(n - quarter - 1)! + s.get(n - quarter)!) / 2,
    };
  }
  const p1 = hf6Positions(n, 0.25);
  const p3 = hf6Positions(n, 0.75);
  const s = orderStats(a, [p1.lo, p1.hi, p3.lo, p3.hi]);
  const at = (p: { lo: number; hi: number; frac: number }) =>
    p.frac === 0 ? s.get(p.lo)! : s.get(p.lo)! + p.frac * (s.get(p.hi)! - s.get(p.lo)!);
  return { q1: at(p1), q3: at(p3) };
}

function checkMethod(method: string): QuartileMethod {
  if (!METHODS.includes(method as QuartileMethod))
    throw new Error(`invalid quartile method: ${method} (expected hf6 or weka)`);
  return method as QuartileMethod;
}

/** Q1 and Q3 of the non-NaN values (NaN for an empty input). */
export function quartiles(
  values: ArrayLike<number>,
  method: QuartileMethod = DUNE.quartileMethod,
): { q1: number; q3: number } {
  return quartilesOf(finiteCopy(values).a, checkMethod(method));
}

/** Flags each value against the IQR fences of all the values given (the new run included, as in §5.3.3). */
export function iqrFlags(values: ArrayLike<number>, options: IqrFlagsOptions = {}): IqrFlagsResult {
  const of = options.outlierFactor ?? DUNE.outlierFactor;
  const method = checkMethod(options.method ?? DUNE.quartileMethod);
  if (!(of >= 0)) throw new Error(`invalid outlierFactor: ${of} (expected a number >= 0)`);
  const ef = options.extremeFactor;
  if (ef !== undefined && !(ef >= 0))
    throw new Error(`invalid extremeFactor: ${ef} (expected a number >= 0)`);
  const { a, missing } = finiteCopy(values);
  const { q1, q3 } = quartilesOf(a, method);
  const iqr = q3 - q1;
  const lowerFence = q1 - of * iqr; // §5.3.3 equation (1)
  const upperFence = q3 + of * iqr; // §5.3.3 equation (2)
  const flags = new Int8Array(values.length);
  const extreme = ef === undefined ? undefined : new Int8Array(values.length);
  const lowerExtreme = ef === undefined ? NaN : q1 - ef * iqr;
  const upperExtreme = ef === undefined ? NaN : q3 + ef * iqr;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // Comparisons with NaN are false, so missing values and an empty input flag nothing.
    if (v < lowerFence) flags[i] = -1;
    else if (v > upperFence) flags[i] = 1;
    if (extreme) {
      if (v < lowerExtreme) extreme[i] = -1;
      else if (v > upperExtreme) extreme[i] = 1;
    }
  }
  const result: IqrFlagsResult = {
    outlierFactor: of,
    method,
    q1,
    q3,
    iqr,
    flags,
    lowerFence,
    upperFence,
    missing,
  };
  if (extreme) result.extreme = extreme;
  return result;
}

/** A strip of the values with the quartiles and fences drawn (Figure 8 for one metric). */
export function iqrFlagsPlot(
  result: IqrFlagsResult,
  values: ArrayLike<number>,
  options: { label?: string } = {},
): ChartSpec {
  const rows = Array.from(values, (v, i) => ({
    v,
    flag: result.flags[i] === -1 ? "below" : result.flags[i] === 1 ? "above" : "inside",
  }));
  const lines = [
    { x: result.lowerFence, what: "Q1 − OF·IQR" },
    { x: result.q1, what: "Q1" },
    { x: result.q3, what: "Q3" },
    { x: result.upperFence, what: "Q3 + OF·IQR" },
  ].filter((l) => Number.isFinite(l.x));
  return chartSpec("iqrFlagsPlot", {
    mark: "dot",
    data: rows.filter((r) => !Number.isNaN(r.v)),
    x: "v",
    fill: "flag",
    options: { r: 4 },
    layout: {
      x: { label: options.label ?? "value" },
      color: { domain: ["below", "inside", "above"], range: ["#d62728", "#7f7f7f", "#2ca02c"], legend: true },
    },
    under: [
      { mark: "ruleX", data: lines, options: { x: "x", stroke: "#444", strokeDasharray: "4,3" } },
      { mark: "text", data: lines, options: { x: "x", text: "what", frameAnchor: "top", dy: -4 } },
    ],
  });
}
