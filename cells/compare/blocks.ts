// The blocks of the block bootstrap: each run cut at its UI events into buckets (DUNE §4's UI-event buckets:
// what the app did between one input and the next), so frames, tasks and draws that one interaction caused are
// resampled together. A run without UI events (a method trace, a Perfetto trace without input) is cut into
// equal time windows instead, and the rows say so.
import type { Table } from "apache-arrow";
import { int64, optional, readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import type { Sides } from "./sides";

/** One side's blocks, run after run. */
export interface SideBlocks {
  runs: readonly string[];
  /** per block: its run's index, start and end (ns) and bucket key ("click law_list_item", "window 3") */
  blockRun: Int32Array;
  start: Float64Array;
  end: Float64Array;
  key: string[];
  /** per run: its first block */
  offset: Int32Array;
  /** runs cut into time windows for want of UI events */
  windowed: string[];
}

export interface ComparisonBlocks {
  a: SideBlocks;
  b: SideBlocks;
}

/** Where a run's data starts and ends, ns. */
export type RunSpans = Map<string, [number, number]>;

/** Equal windows a run without UI events is cut into. */
export const WINDOWS = 10;
/** Shortest UI-event bucket, ns (one 60 Hz frame). */
export const MIN_BLOCK_NS = 16_666_667;
export const BEFORE_FIRST_EVENT = "before the first event";

/** Widens each run's span to cover [start, end] of every row of a table (end column optional). */
export function addSpans(
  spans: RunSpans,
  table: Table | undefined,
  startCol: string,
  endCol?: string,
): RunSpans {
  if (!table || table.numRows === 0) return spans;
  const c = readColumns(table, "spans", {
    run_id: utf8(),
    [startCol]: int64(),
    ...(endCol ? { [endCol]: optional(int64()) } : {}),
  });
  const runs: string[] = [];
  const code = stringCodes(c.run_id, runs);
  const start = c[startCol] as Float64Array;
  const end = (endCol ? c[endCol] : null) as Float64Array | null;
  for (let i = 0; i < code.length; i++) {
    const s = start[i]!;
    const e = end && Number.isFinite(end[i]!) ? Math.max(s, end[i]!) : s;
    if (!Number.isFinite(s)) continue;
    const run = runs[code[i]!]!;
    const span = spans.get(run);
    if (!span) spans.set(run, [s, e]);
    else {
      if (s < span[0]) span[0] = s;
      if (e > span[1]) span[1] = e;
    }
  }
  return spans;
}

function sideBlocks(
  runs: readonly string[],
  spans: RunSpans,
  events: Map<string, [number, string][]>,
): SideBlocks {
  const blockRun: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const key: string[] = [];
  const offset = new Int32Array(runs.length);
  const windowed: string[] = [];
  runs.forEach((run, r) => {
    offset[r] = start.length;
    const [s0, s1] = spans.get(run) ?? [0, 0];
    // events closer than MIN_BLOCK_NS to the previous one join its bucket: a bucket of no length has no time to
    // hold anything, and resampling it would divide an amount by nothing
    const evs: [number, string][] = [];
    for (const e of (events.get(run) ?? []).sort((x, y) => x[0] - y[0]))
      if (!evs.length || e[0] - evs[evs.length - 1]![0] >= MIN_BLOCK_NS) evs.push(e);
    const push = (s: number, e: number, k: string) => {
      blockRun.push(r);
      start.push(s);
      end.push(e);
      key.push(k);
    };
    if (evs.length) {
      const first = Math.min(s0, evs[0]![0]);
      if (evs[0]![0] - first >= MIN_BLOCK_NS) push(first, evs[0]![0], BEFORE_FIRST_EVENT);
      else evs[0]![0] = first;
      evs.forEach(([ts, k], i) => push(ts, i + 1 < evs.length ? evs[i + 1]![0] : Math.max(s1, ts), k));
    } else {
      windowed.push(run);
      const w = (s1 - s0) / WINDOWS;
      for (let i = 0; i < WINDOWS; i++)
        push(s0 + i * w, i + 1 === WINDOWS ? s1 : s0 + (i + 1) * w, `window ${i + 1}`);
    }
  });
  return {
    runs,
    blockRun: Int32Array.from(blockRun),
    start: Float64Array.from(start),
    end: Float64Array.from(end),
    key,
    offset,
    windowed,
  };
}

/** The blocks of both sides: UI-event buckets where a run has `ui_events` rows, else equal time windows. */
export function comparisonBlocks(sides: Sides, spans: RunSpans, uiEvents?: Table): ComparisonBlocks {
  const events = new Map<string, [number, string][]>();
  if (uiEvents && uiEvents.numRows) {
    const c = readColumns(uiEvents, "ui_events", {
      run_id: utf8(),
      ts: int64(),
      kind: utf8(),
      target: optional(utf8()),
    });
    const runs: string[] = [];
    const code = stringCodes(c.run_id, runs);
    for (let i = 0; i < code.length; i++) {
      const run = runs[code[i]!]!;
      const k = `${String(c.kind.get(i))} ${c.target?.get(i) ?? ""}`.trim();
      const list = events.get(run);
      if (list) list.push([c.ts[i]!, k]);
      else events.set(run, [[c.ts[i]!, k]]);
    }
  }
  return { a: sideBlocks(sides.a, spans, events), b: sideBlocks(sides.b, spans, events) };
}

/** The block holding time `ts` in run `r` of a side (the run's first or last when outside its span). */
export function blockAt(side: SideBlocks, r: number, ts: number): number {
  let lo = side.offset[r]!;
  let hi = r + 1 < side.offset.length ? side.offset[r + 1]! - 1 : side.blockRun.length - 1;
  if (hi < lo) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (side.start[mid]! <= ts) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Seconds each block lasts (a block of zero length counts one nanosecond, so no rate divides by zero). */
export const blockSeconds = (side: SideBlocks) =>
  Float64Array.from(side.start, (s, k) => Math.max(1, side.end[k]! - s) / 1e9);
