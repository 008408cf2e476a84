// Times no trace can hold: one corrupt packet timestamp (a flipped high bit, 0x4000000000000000 ns = 146 years)
// turns a frame into a 146-year one. A trace covers minutes to hours, so a timestamp more than a day from the
// trace's median time, or a duration below zero or over a day, is impossible: the app's frames holding one are
// marked suspect (analyses skip them, docs/perfetto.md) and every table's count is a warning naming the value.
import type { Table, Vector } from "apache-arrow";
import type { ColumnValues } from "../../bundle/table-builder";

/** Further than this from the trace's median time, a timestamp is not this trace's. */
export const MAX_TRACE_SPAN_NS = 86_400e9;

const FRAME_TIMES = ["intended_vsync", "vsync", "frame_deadline", "frame_completed"] as const;

/** The median of up to 4,096 timestamps sampled evenly from each table's ts column (none: null). */
export function traceMedianTime(tables: Partial<Record<string, Table>>): number | null {
  const sample: number[] = [];
  for (const t of Object.values(tables)) {
    const ts = t?.getChild("ts");
    if (!ts || t!.numRows === 0) continue;
    const step = Math.max(1, Math.floor(t!.numRows / 4096));
    for (let i = 0; i < t!.numRows; i += step) {
      const v = ts.get(i);
      if (v !== null && v !== undefined) sample.push(Number(v));
    }
  }
  if (sample.length === 0) return null;
  sample.sort((a, b) => a - b);
  return sample[sample.length >> 1]!;
}

/** An int64 carried as a number, printed as the integer it holds (4611686018427387904, not 4611686018427388000). */
function exact(v: number): string {
  return Number.isInteger(v) ? BigInt(v).toString() : String(v);
}

// A margin far above the rounding of |v - median| near 2^63 ns (2,048 ns apart), so the buffer scan never passes a
// value the exact row test would flag.
const ROUNDING = 1e6;

/** True when every non-null value of `v` (int64, int32 or float64 buffers) lies in [lo, hi]; false when one does
 * not, or the column is of another type (the caller then reads it row by row). */
function noneOutside(v: Vector, lo: number, hi: number): boolean {
  for (const d of v.data) {
    const values: unknown = d.values;
    const valid = d.nullCount > 0 ? d.nullBitmap : null;
    const at = d.offset;
    const n = d.length;
    const ok = (i: number) => valid === null || (valid[(at + i) >> 3]! & (1 << ((at + i) & 7))) !== 0;
    if (values instanceof BigInt64Array) {
      // Each int64 as its two 32-bit halves: hi * 2^32 + lo rounds once, as Number(bigint) does.
      const w = new Int32Array(values.buffer, values.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const x = w[2 * i + 1]! * 4294967296 + (w[2 * i]! >>> 0);
        if ((x < lo || x > hi || x !== x) && ok(i)) return false;
      }
    } else if (values instanceof Float64Array || values instanceof Int32Array) {
      for (let i = 0; i < n; i++) {
        const x = values[i]!;
        if ((x < lo || x > hi || x !== x) && ok(i)) return false;
      }
    } else return false;
  }
  return true;
}

function impossibleTime(v: number, median: number): boolean {
  return Math.abs(v - median) > MAX_TRACE_SPAN_NS;
}

function impossibleDur(v: number): boolean {
  return v < 0 || v > MAX_TRACE_SPAN_NS;
}

function show(ns: number): string {
  const years = Math.abs(ns) / (365.25 * 86_400e9);
  return years >= 1 ? `${years.toFixed(0)} years` : `${(Math.abs(ns) / 86_400e9).toFixed(1)} days`;
}

/**
 * Marks the frames (columns as timelineFrames builds them) whose times are impossible suspect, and returns one
 * warning per table with such rows (frames, frame_timeline, slices, thread_states, counter_samples).
 */
export function flagImpossibleTimes(
  file: string,
  tables: Partial<Record<string, Table>>,
  frames: { columns: Record<string, ColumnValues>; count: number } | null,
): string[] {
  const median = traceMedianTime(tables);
  if (median === null) return [];
  const warnings: string[] = [];
  const say = (table: string, n: number, what: string) =>
    warnings.push(
      `${file}: ${table}: ${n} row${n === 1 ? "" : "s"} with an impossible time (${what}; a corrupt packet timestamp?)${table === "frames" ? ": marked suspect, left out of analyses" : ": kept as read, not to be trusted"}`,
    );
  for (const [name, t] of Object.entries(tables)) {
    if (!t || name === "frames") continue;
    const ts = t.getChild("ts");
    const dur = t.getChild("dur");
    if (!ts) continue;
    // Millions of rows and almost never a bad one: scan the column buffers first, read rows only when one is.
    if (
      noneOutside(ts, median - MAX_TRACE_SPAN_NS + ROUNDING, median + MAX_TRACE_SPAN_NS - ROUNDING) &&
      (!dur || noneOutside(dur, 0, MAX_TRACE_SPAN_NS))
    )
      continue;
    let n = 0;
    let first = "";
    for (let i = 0; i < t.numRows; i++) {
      const s = ts.get(i);
      const d = dur?.get(i);
      const badTs = s !== null && s !== undefined && impossibleTime(Number(s), median);
      const badDur = d !== null && d !== undefined && impossibleDur(Number(d));
      if (!badTs && !badDur) continue;
      if (n++ === 0)
        first = badTs
          ? `row ${i}: ts ${s} ns, ${show(Number(s) - median)} from the trace's median time`
          : `row ${i}: dur ${d} ns (${show(Number(d))})`;
    }
    if (n) say(name, n, `first ${first}`);
  }
  if (frames) {
    const suspect = frames.columns.suspect as (string | null)[];
    const fixed = suspect.slice();
    let n = 0;
    let first = "";
    for (let i = 0; i < frames.count; i++) {
      const why: string[] = [];
      for (const c of FRAME_TIMES) {
        const v = (frames.columns[c] as readonly (number | null)[] | undefined)?.[i];
        if (v !== null && v !== undefined && impossibleTime(v, median))
          why.push(`${c} ${exact(v)} ns is ${show(v - median)} from the trace's median time`);
      }
      const d = (frames.columns.duration as readonly (number | null)[] | undefined)?.[i];
      if (d !== null && d !== undefined && impossibleDur(d)) why.push(`duration ${show(d)}`);
      if (why.length === 0) continue;
      if (n++ === 0) first = `frame ${i}: ${why.join(", ")}`;
      const text = `impossible time: ${why.join(", ")}`;
      fixed[i] = fixed[i] ? `${fixed[i]}; ${text}` : text;
    }
    frames.columns.suspect = fixed;
    if (n) say("frames", n, `first ${first}`);
  }
  return warnings;
}
