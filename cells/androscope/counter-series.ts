// The HPC and heap memory views (AndroScope §VI-2, Fig. 13a): counter and heap series over time, drawn on
// the timeline's time axis and cut to its selected window, so zooming the timeline moves every view together.
// Counters come as interval counts (simpleperf stat --interval: hpc_samples), so each sample is drawn as a
// step over its interval; IPC is derived per interval as instructions / cpu-cycles (§IV-1).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import type { Table } from "apache-arrow";
import { checkColumns, float64, int32, int64, optional, readColumns, utf8 } from "../../bundle/read-columns";
import { TIME_AXIS, timeWindow } from "../common/time-window";

export interface SeriesOptions {
  /** [t0, t1] ns on the calls' clock: only what falls in it; default everything */
  window?: readonly [number, number] | null;
  /** added to the samples' ts to put them on the calls' clock (ns since tracing began); default 0 */
  timeShiftNs?: number;
}

export interface CounterSeriesOptions extends SeriesOptions {
  /** keep one series per core (with --per-core); default false: cores summed per sample time */
  perCore?: boolean;
  /** the counters IPC is derived from; default simpleperf's names. Set to null for no IPC series. */
  ipc?: { instructions: string; cycles: string } | null;
}

export interface CounterInterval {
  counter: string;
  /** null when summed over cores (or recorded for all cores) */
  cpu: number | null;
  /** ns on the calls' clock: the interval (start, end] the count is for */
  start: number;
  end: number;
  value: number;
  /** value per ms of the interval (IPC: the ratio itself) */
  rate: number;
}

const HPC_COLUMNS = { ts: int64(0), counter: utf8(), value: float64(0), cpu: optional(int32(-1)) };

/** hpc_samples' columns checked, before a cell looks at its options. */
export const checkHpcColumns = (hpc: Table) => checkColumns(hpc, "hpc_samples", HPC_COLUMNS);

/** hpc_samples' columns, read once: times as numbers, cpu -1 where a sample is not per core. */
export function hpcColumns(hpc: Table) {
  const n = hpc.numRows;
  const c = readColumns(hpc, "hpc_samples", HPC_COLUMNS);
  return { n, ts: c.ts, cpu: c.cpu ?? new Int32Array(n).fill(-1), counterCol: c.counter, valueCol: c.value };
}

/** One row per counter sample (per core or summed), with its interval; plus an "IPC" series. */
export function counterSeries(hpc: Table, options: CounterSeriesOptions = {}): CounterInterval[] {
  const { n, ts, cpu, counterCol, valueCol } = hpcColumns(hpc);
  const window = timeWindow(options.window);
  const shift = options.timeShiftNs ?? 0;
  // Sum per (counter, core or all, ts).
  const sums = new Map<string, { counter: string; cpu: number | null; ts: number; value: number }>();
  for (let i = 0; i < n; i++) {
    const counter = String(counterCol.get(i));
    const core = options.perCore && cpu[i]! >= 0 ? cpu[i]! : null;
    const key = `${counter}\u0000${core}\u0000${ts[i]}`;
    const e = sums.get(key);
    const v = valueCol[i]!;
    if (e) e.value += v;
    else sums.set(key, { counter, cpu: core, ts: ts[i]! + shift, value: v });
  }
  const bySeries = new Map<string, { counter: string; cpu: number | null; ts: number; value: number }[]>();
  for (const s of sums.values()) {
    const key = `${s.counter}\u0000${s.cpu}`;
    const list = bySeries.get(key) ?? [];
    list.push(s);
    bySeries.set(key, list);
  }
  const out: CounterInterval[] = [];
  for (const list of bySeries.values()) {
    list.sort((a, b) => a.ts - b.ts);
    // The first interval is as long as the second (simpleperf prints equal intervals); a lone sample has none.
    const first = list.length > 1 ? list[1]!.ts - list[0]!.ts : NaN;
    list.forEach((s, k) => {
      const start = k === 0 ? s.ts - first : list[k - 1]!.ts;
      if (!(s.ts > start)) return;
      out.push({
        counter: s.counter,
        cpu: s.cpu,
        start,
        end: s.ts,
        value: s.value,
        rate: s.value / ((s.ts - start) / 1e6),
      });
    });
  }
  const ipc =
    options.ipc === undefined ? { instructions: "instructions", cycles: "cpu-cycles" } : options.ipc;
  if (ipc) out.push(...ipcSeries(out, ipc));
  return out
    .filter((r) => !window || (r.end > window[0] && r.start < window[1]))
    .sort((a, b) => a.counter.localeCompare(b.counter) || (a.cpu ?? -1) - (b.cpu ?? -1) || a.end - b.end);
}

/** instructions / cycles for every interval both series have (same core, same end). */
function ipcSeries(
  rows: CounterInterval[],
  names: { instructions: string; cycles: string },
): CounterInterval[] {
  const cycles = new Map(rows.filter((r) => r.counter === names.cycles).map((r) => [`${r.cpu}/${r.end}`, r]));
  const out: CounterInterval[] = [];
  for (const r of rows) {
    if (r.counter !== names.instructions) continue;
    const c = cycles.get(`${r.cpu}/${r.end}`);
    if (!c || c.value <= 0) continue;
    out.push({
      counter: "IPC",
      cpu: r.cpu,
      start: r.start,
      end: r.end,
      value: r.value / c.value,
      rate: r.value / c.value,
    });
  }
  return out;
}

export interface HeapPoint {
  kind: string;
  /** ns on the calls' clock */
  ts: number;
  bytes: number;
}

/** Heap samples by kind, in time order; with a window, those inside plus the nearest sample on each side (the line reaches the edges). */
export function heapSeries(heap: Table, options: SeriesOptions = {}): HeapPoint[] {
  const { ts, kind, value } = readColumns(heap, "heap_samples", {
    ts: int64(0),
    kind: utf8(),
    value: int64(0),
  });
  const window = timeWindow(options.window);
  const shift = options.timeShiftNs ?? 0;
  const byKind = new Map<string, HeapPoint[]>();
  for (let i = 0; i < heap.numRows; i++) {
    const k = String(kind.get(i));
    const list = byKind.get(k) ?? [];
    list.push({ kind: k, ts: ts[i]! + shift, bytes: value[i]! });
    byKind.set(k, list);
  }
  const out: HeapPoint[] = [];
  for (const [, list] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
    list.sort((a, b) => a.ts - b.ts);
    if (!window) {
      out.push(...list);
      continue;
    }
    const first = list.findIndex((p) => p.ts >= window[0]);
    const from = first < 0 ? list.length - 1 : Math.max(0, first - 1);
    let to = from;
    while (to < list.length && list[to]!.ts <= window[1]) to++;
    out.push(...list.slice(from, Math.min(list.length, to + 1)));
  }
  return out;
}

export interface SeriesPlotOptions {
  /** [t0, t1] ns: the x domain, the same as the timeline's */
  window?: readonly [number, number] | null;
  title?: string;
  width?: number;
}

/** A series chart's frame under the call timeline: same x axis (ms since tracing began), short, y from zero. */
function timelineFrame(options: SeriesPlotOptions, title: string, yLabel: string) {
  const w = options.window;
  return {
    title: options.title ?? title,
    width: options.width ?? TIME_AXIS.width,
    height: 160,
    layout: {
      // the timeline's margins: the same time at the same x as the call timeline above
      marginLeft: TIME_AXIS.left,
      marginRight: TIME_AXIS.right,
      x: {
        label: "time since tracing began (ms)",
        domain: w ? [Number(w[0]) / 1e6, Number(w[1]) / 1e6] : undefined,
        grid: true,
      },
      y: { label: yLabel, grid: true, zero: true },
    },
  };
}

/** One counter's intervals as steps (count per ms; IPC as is), on the timeline's axis (ms). */
export function counterSeriesPlot(
  rows: readonly CounterInterval[],
  counter: string,
  options: SeriesPlotOptions = {},
): ChartSpec {
  const mine = rows
    .filter((r) => r.counter === counter)
    .map((r) => ({
      ...r,
      x1: r.start / 1e6,
      x2: r.end / 1e6,
      core: r.cpu === null ? "all cores" : `cpu ${r.cpu}`,
      tip: `${r.counter}: ${r.value.toPrecision(4)} in ${((r.end - r.start) / 1e6).toFixed(2)} ms`,
    }));
  const frame = timelineFrame(
    options,
    counter === "IPC" ? "IPC (instructions / cpu-cycles) per interval" : `${counter} per ms`,
    counter === "IPC" ? "IPC" : `${counter} / ms`,
  );
  return chartSpec("counterSeriesPlot", {
    ...frame,
    mark: "rectY",
    data: mine,
    y: "rate",
    fill: "core",
    options: { x1: "x1", x2: "x2", fillOpacity: 0.6, clip: true, title: "tip" },
    layout: { ...frame.layout, color: { legend: new Set(mine.map((r) => r.core)).size > 1 } },
    over: [{ mark: "ruleY", data: [0] }],
  });
}

/** Heap in use by kind (MB) over time, on the timeline's axis (ms). */
export function heapSeriesPlot(points: readonly HeapPoint[], options: SeriesPlotOptions = {}): ChartSpec {
  const frame = timelineFrame(options, "Heap (MB)", "MB");
  return chartSpec("heapSeriesPlot", {
    ...frame,
    mark: "lineY",
    data: points.map((p) => ({ ...p, x: p.ts / 1e6, mb: p.bytes / 1048576 })),
    x: "x",
    y: "mb",
    stroke: "kind",
    options: { curve: "step-after", clip: true, tip: true },
    layout: { ...frame.layout, color: { legend: true } },
  });
}
