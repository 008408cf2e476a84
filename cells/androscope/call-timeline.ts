// The per-thread call timeline (AndroScope §VI-1, Fig. 13a) at any number of calls: level of detail by SQL
// aggregation, not by drawing every call. For a time window [t0, t1) and a plot width, DuckDB returns a
// bounded number of rows per thread and depth (a lane). The window is cut into B equal buckets per lane,
// B = min(width / bucketPx, maxRects / lanes) (lanes: every thread's deepest depth + 1 in the run, so the
// whole plot stays within what SVG draws quickly):
//   - a call at least a bucket wide, (exit - enter) * B >= t1 - t0, is drawn as itself, cut to the window
//     (in one lane calls do not overlap: at most about B of them);
//   - shorter calls are grouped by the bucket their (cut) start falls in, floor((start - t0) * B / (t1 - t0));
//     a bucket holding one call draws that call ("call" row), so individual calls appear wherever few are
//     visible; a bucket holding more is one "bucket" row spanning t0 + floor(b (t1 - t0) / B) to
//     t0 + floor((b + 1) (t1 - t0) / B): how many calls, the time they cover, the longest one's method (ties
//     to the smaller id).
// Thread ids, depths below 65,536 and 32-bit method ids (as method traces have) are packed into BIGINT keys.
// The cell builds the SQL and its bound parameters; the notebook runs it (cells never touch DuckDB).
// Passing the window and the lanes (callTimelineExtentQuery, once per run) makes every term of the query a
// constant; DuckDB-WASM then runs it about twice as fast as with them computed inside.
import * as Plot from "@observablehq/plot";
import type { Table } from "apache-arrow";
import { requireColumns } from "../common/require-columns";
import { int32Values, int64Values } from "./call-columns";
import type { ProfileMethod } from "./method-profile";

export interface CallTimelineFilter {
  /** the run whose calls to show; default every row of the table (load one run) */
  runId?: string | null;
  /** only these threads; default all */
  threadIds?: readonly number[] | null;
  /** only calls this deep or shallower (0 = outermost); default all */
  maxDepth?: number | null;
}

export interface CallTimelineOptions extends CallTimelineFilter {
  /** [t0, t1] ns on the calls' clock; null or absent: the whole trace */
  window?: readonly [number, number] | null;
  /** the plot's width in pixels */
  widthPx: number;
  /** pixels per bucket; default 2 */
  bucketPx?: number;
  /** buckets per lane are cut so that lanes x buckets stays below this; default 8,000 (SVG rectangles Plot draws quickly) */
  maxRects?: number;
  /** the lanes of the calls shown (callTimelineExtentQuery's `lanes`); default computed in the query */
  lanes?: number | null;
}

export interface CallTimelineQuery {
  /** SQL over the `calls` table with `?` placeholders */
  sql: string;
  params: unknown[];
  /** the SQL split at its placeholders, for the notebook's sql builtin: sql(q.parts, ...q.params) */
  parts: string[];
}

class SqlBuilder {
  private text: string[] = [];
  readonly params: unknown[] = [];
  sql(t: string): this {
    this.text.push(t);
    return this;
  }
  bind(v: unknown, type: string): this {
    this.text.push(`?::${type}`);
    this.params.push(v);
    return this;
  }
  /** The filters of the options given only, so DuckDB pushes constant comparisons into the scan. */
  filters(f: CallTimelineFilter, threads: readonly number[] | null): this {
    if (f.runId != null) this.sql(" AND run_id = ").bind(f.runId, "VARCHAR");
    if (threads) {
      this.sql(" AND thread_id IN (");
      threads.forEach((t, k) => (k && this.sql(", "), this.bind(t, "INTEGER")));
      this.sql(")");
    }
    if (f.maxDepth != null) this.sql(" AND depth <= ").bind(f.maxDepth, "INTEGER");
    return this;
  }
  call(term: () => unknown): this {
    term();
    return this;
  }
  done(): CallTimelineQuery {
    const parts = this.text.join("").split("?");
    return { sql: parts.join("?"), params: this.params, parts };
  }
}

function checkFilter(f: CallTimelineFilter): readonly number[] | null {
  const threads = f.threadIds ?? null;
  if (threads && !(threads.length > 0 && threads.every((t) => Number.isInteger(t)))) throw new Error(`invalid threadIds: [${threads.join(", ")}] (expected integers)`);
  if (f.maxDepth != null && !(Number.isInteger(f.maxDepth) && f.maxDepth >= 0 && f.maxDepth < 65_536))
    throw new Error(`invalid maxDepth: ${String(f.maxDepth)} (expected an integer from 0 to 65535)`);
  return threads;
}

/** One row for the run's calls (filtered as given): t0 (first entry), t1 (last exit), lanes. */
export function callTimelineExtentQuery(filter: CallTimelineFilter = {}): CallTimelineQuery {
  const threads = checkFilter(filter);
  return new SqlBuilder()
    .sql("SELECT min(lo) AS t0, max(hi) AS t1, coalesce(sum(deepest), 0)::INTEGER AS lanes\nFROM (SELECT min(enter) AS lo, max(exit) AS hi, max(depth) + 1 AS deepest FROM calls WHERE TRUE")
    .filters(filter, threads)
    .sql(" GROUP BY thread_id)")
    .done();
}

/** The level-of-detail query for one window and width (rows: kind, thread_id, depth, start, end, calls, busy, method_id, call_id). */
export function callTimelineQuery(options: CallTimelineOptions): CallTimelineQuery {
  const width = options.widthPx;
  if (!(Number.isFinite(width) && width >= 1)) throw new Error(`invalid widthPx: ${String(width)} (expected a width in pixels >= 1)`);
  const bucketPx = options.bucketPx ?? 2;
  if (!(bucketPx > 0)) throw new Error(`invalid bucketPx: ${String(bucketPx)} (expected > 0)`);
  const w = options.window ?? null;
  if (w && !(Number.isFinite(Number(w[0])) && Number.isFinite(Number(w[1])) && Number(w[0]) <= Number(w[1])))
    throw new Error(`invalid window: [${w[0]}, ${w[1]}] (expected [t0, t1] ns with t0 <= t1)`);
  const threads = checkFilter(options);
  const maxRects = options.maxRects ?? 8_000;
  if (!(Number.isInteger(maxRects) && maxRects >= 1)) throw new Error(`invalid maxRects: ${String(maxRects)} (expected an integer >= 1)`);
  const lanes = options.lanes ?? null;
  if (lanes !== null && !(Number.isInteger(lanes) && lanes >= 0)) throw new Error(`invalid lanes: ${String(lanes)} (expected an integer >= 0)`);
  // At most 65,535 buckets keeps (s - t0) * B within BIGINT for traces up to 39 hours.
  const maxBuckets = Math.min(65_535, Math.max(1, Math.floor(width / bucketPx)));
  // Whole nanoseconds: bucket bounds and cut ends are exact integers.
  const [t0, t1] = w ? [Math.floor(Number(w[0])), Math.ceil(Number(w[1]))] : [0, 0];
  const q = new SqlBuilder();
  // Every term is a bound constant when known here, else a column of the one-row `grid`.
  const known = w !== null && lanes !== null;
  const B = known ? Math.max(1, Math.min(maxBuckets, Math.floor(maxRects / Math.max(lanes!, 1)))) : 0;
  const T0 = () => (known ? q.bind(t0, "BIGINT") : q.sql("g.t0"));
  const T1 = () => (known ? q.bind(t1, "BIGINT") : q.sql("g.t1"));
  const LEN = () => (known ? q.bind(t1 - t0, "BIGINT") : q.sql("g.len"));
  const NB = () => (known ? q.bind(B, "BIGINT") : q.sql("g.b_count"));
  const GRID = known ? "" : ", grid g";
  q.sql("WITH ");
  if (!known) {
    q.sql("mine AS (SELECT thread_id, depth, enter, exit FROM calls WHERE TRUE").filters(options, threads).sql("),\n");
    q.sql("grid AS (\n  SELECT t0, t1, t1 - t0 AS len, greatest(1, least(").bind(maxBuckets, "BIGINT").sql(", ").bind(maxRects, "BIGINT").sql(" // greatest(lanes, 1)))::BIGINT AS b_count\n");
    q.sql("  FROM (SELECT ");
    w ? q.bind(t0, "BIGINT") : q.sql("(SELECT min(enter) FROM mine)");
    q.sql(" AS t0, ");
    w ? q.bind(t1, "BIGINT") : q.sql("(SELECT max(exit) FROM mine)");
    q.sql(" AS t1, ");
    lanes !== null ? q.bind(lanes, "BIGINT") : q.sql("(SELECT sum(d) FROM (SELECT max(depth) + 1 AS d FROM mine GROUP BY thread_id))");
    q.sql(" AS lanes)\n),\n");
  }
  // CASE, not greatest/least, which DuckDB-WASM runs 20x slower.
  q.sql("shown AS NOT MATERIALIZED (\n  SELECT thread_id, depth, method_id, call_id, CASE WHEN enter < ").call(T0).sql(" THEN ").call(T0).sql(" ELSE enter END AS s,\n");
  q.sql("         CASE WHEN exit > ").call(T1).sql(" THEN ").call(T1).sql(" ELSE exit END AS e\n  FROM calls").sql(GRID).sql(" WHERE TRUE").filters(options, threads);
  q.sql(" AND enter < ").call(T1).sql(" AND (exit > ").call(T0).sql(" OR (exit = enter AND enter >= ").call(T0).sql("))\n)\n");
  q.sql(`SELECT 'call' AS kind, thread_id, depth, s AS start, e AS "end", 1 AS calls, e - s AS busy, method_id, call_id\nFROM shown`).sql(GRID).sql(" WHERE (e - s) * ").call(NB).sql(" >= ").call(LEN);
  q.sql("\nUNION ALL\nSELECT CASE WHEN calls = 1 THEN 'call' ELSE 'bucket' END, (k // 4294967296)::INTEGER, (k // 65536 % 65536)::INTEGER,\n");
  q.sql("       CASE WHEN calls = 1 THEN s1 ELSE ").call(T0).sql(" + (k % 65536 * ").call(LEN).sql(") // ").call(NB).sql(" END,\n");
  q.sql("       CASE WHEN calls = 1 THEN e1 ELSE ").call(T0).sql(" + ((k % 65536 + 1) * ").call(LEN).sql(") // ").call(NB).sql(" END,\n");
  q.sql("       calls, busy, 4294967295 - longest % 4294967296, CASE WHEN calls = 1 THEN first END\n");
  // The longest short call's method, ties to the smaller id: duration and id packed into one BIGINT (short
  // calls are under a bucket; durations in units that keep the product below 2^63).
  q.sql("FROM (\n  SELECT thread_id::BIGINT * 4294967296 + depth * 65536 + (s - ").call(T0).sql(") * ").call(NB).sql(" // ").call(LEN).sql(" AS k, count(*)::INTEGER AS calls,\n");
  q.sql("         sum(e - s)::BIGINT AS busy, max((e - s) // (").call(LEN).sql(" // ").call(NB).sql(" // 2147483648 + 1) * 4294967296 + (4294967295 - method_id)) AS longest,\n");
  q.sql("         min(s) AS s1, max(e) AS e1, min(call_id) AS first\n  FROM shown").sql(GRID).sql(" WHERE (e - s) * ").call(NB).sql(" < ").call(LEN).sql("\n  GROUP BY k\n)").sql(GRID);
  q.sql("\nORDER BY thread_id, depth, start, kind");
  return q.done();
}

export interface CallTimelinePlotOptions {
  methods?: readonly ProfileMethod[];
  threads?: readonly { id: number; name: string }[];
  /** [t0, t1] ns: the x domain (the window the rows were queried for) */
  window?: readonly [number, number] | null;
  title?: string;
  width?: number;
}

export interface TimelineRect {
  kind: "call" | "bucket";
  thread: string;
  depth: number;
  /** ms on the calls' clock */
  x1: number;
  x2: number;
  method: string;
  calls: number;
  /** share of the rectangle's span the calls cover (1 for a call) */
  occupancy: number;
  title: string;
}

/** The query's rows as rectangles, ms; names from the methods and threads tables when given. */
export function callTimelineRects(rows: Table, options: Pick<CallTimelinePlotOptions, "methods" | "threads"> = {}): TimelineRect[] {
  requireColumns(rows, { thread_id: "int32", depth: "int32", start: "int64", end: "int64", calls: "int32", busy: "int64", method_id: "int64" }, "call timeline rows");
  const n = rows.numRows;
  const kind = rows.getChild("kind")!;
  const thread = int32Values(rows.getChild("thread_id")!);
  const depth = int32Values(rows.getChild("depth")!);
  const start = int64Values(rows.getChild("start")!);
  const end = int64Values(rows.getChild("end")!);
  const calls = int32Values(rows.getChild("calls")!);
  const busy = int64Values(rows.getChild("busy")!);
  const method = int64Values(rows.getChild("method_id")!);
  const methodNames = new Map((options.methods ?? []).map((m) => [m.id, `${m.className}.${m.methodName}`]));
  const threadNames = new Map((options.threads ?? []).map((t) => [t.id, `${t.name} (${t.id})`]));
  const out: TimelineRect[] = [];
  for (let i = 0; i < n; i++) {
    const name = methodNames.get(method[i]!) ?? `0x${method[i]!.toString(16)}`;
    const span = end[i]! - start[i]!;
    const isCall = kind.get(i) === "call";
    out.push({
      kind: isCall ? "call" : "bucket",
      thread: threadNames.get(thread[i]!) ?? `thread ${thread[i]}`,
      depth: depth[i]!,
      x1: start[i]! / 1e6,
      x2: end[i]! / 1e6,
      method: name,
      calls: calls[i]!,
      occupancy: isCall ? 1 : span > 0 ? Math.min(1, busy[i]! / span) : 1,
      title: isCall
        ? `${name}\n${(span / 1e6).toFixed(3)} ms from ${(start[i]! / 1e6).toFixed(3)} ms, depth ${depth[i]}`
        : `${calls[i]} short calls, ${(busy[i]! / 1e6).toFixed(3)} ms busy, longest: ${name}`,
    });
  }
  return out;
}

/** One lane per thread, depth downwards; short calls as translucent buckets (opacity = time covered). */
export function callTimelinePlot(rows: Table, options: CallTimelinePlotOptions = {}): Plot.PlotOptions {
  const rects = callTimelineRects(rows, options);
  const threadOrder = [...new Set(rects.map((r) => r.thread))];
  const depth = Math.max(1, ...rects.map((r) => r.depth + 1));
  const w = options.window;
  return {
    title: options.title,
    width: options.width,
    height: 40 + threadOrder.length * (12 + 9 * depth),
    marginLeft: 130,
    x: { label: "time since tracing began (ms)", domain: w ? [Number(w[0]) / 1e6, Number(w[1]) / 1e6] : undefined, grid: true },
    y: { axis: null, domain: [depth, 0] },
    fy: { label: null, domain: threadOrder, axis: "left", tickSize: 0 },
    color: { type: "ordinal", scheme: "tableau10" },
    marks: [
      Plot.rect(rects, { x1: "x1", x2: "x2", y1: "depth", y2: (r: TimelineRect) => r.depth + 0.9, fy: "thread", fill: "method", fillOpacity: (r: TimelineRect) => 0.25 + 0.75 * r.occupancy, title: "title", clip: true }),
      Plot.frame({ stroke: "#ddd" }),
    ],
  };
}
