// The per-thread call timeline (AndroScope §VI-1, Fig. 13a) at any number of calls: level of detail by SQL
// aggregation, not by drawing every call. For a time window and a plot width, DuckDB returns a bounded
// number of rows per thread and depth (a lane):
//   - when few calls are visible (at most maxCalls), every one of them, cut to the window ("call" rows);
//   - otherwise the window [t0, t1) is cut into B equal buckets per lane, B = min(width / bucketPx,
//     maxRects / lanes) (lanes: every thread's deepest visible depth + 1, so the whole plot stays within what
//     SVG draws quickly); a call with (exit - enter) * B >= t1 - t0 (at least a bucket wide) stays one by one
//     (in one lane calls do not overlap: at most about B of them), shorter ones are counted per bucket
//     ("bucket" rows: how many, how much time they cover, the longest one's method, ties to the smaller id).
//     A short call goes to bucket floor((start - t0) * B / (t1 - t0)) of its (cut) start; bucket b spans
//     t0 + floor(b (t1 - t0) / B) to t0 + floor((b + 1) (t1 - t0) / B).
// Thread ids, depths below 65,536 and 32-bit method ids (as method traces have) are packed into BIGINT keys.
// The cell builds the SQL and its bound parameters; the notebook runs it (cells never touch DuckDB).
import * as Plot from "@observablehq/plot";
import type { Table } from "apache-arrow";
import { requireColumns } from "../common/require-columns";
import { int32Values, int64Values } from "./call-columns";
import type { ProfileMethod } from "./method-profile";

export interface CallTimelineOptions {
  /** [t0, t1] ns on the calls' clock; null or absent: the whole trace */
  window?: readonly [number, number] | null;
  /** the plot's width in pixels */
  widthPx: number;
  /** pixels per bucket; default 2 */
  bucketPx?: number;
  /** buckets per lane are cut so that lanes x buckets stays below this; default 20,000 */
  maxRects?: number;
  /** draw every call when at most this many are visible; default 3,000 (Plot draws SVG) */
  maxCalls?: number;
  /** the run whose calls to show; default every row of the table (load one run) */
  runId?: string | null;
  /** only these threads; default all */
  threadIds?: readonly number[] | null;
  /** only calls this deep or shallower (0 = outermost); default all */
  maxDepth?: number | null;
}

export interface CallTimelineQuery {
  /** SQL over the `calls` table with `?` placeholders */
  sql: string;
  params: unknown[];
  /** the SQL split at its placeholders, for the notebook's sql builtin: sql(q.parts, ...q.params) */
  parts: string[];
  /** buckets per lane at most (fewer when there are many lanes) */
  maxBuckets: number;
}

/** The level-of-detail query for one window and width (rows: kind, thread_id, depth, start, end, calls, busy, method_id, call_id). */
export function callTimelineQuery(options: CallTimelineOptions): CallTimelineQuery {
  const width = options.widthPx;
  if (!(Number.isFinite(width) && width >= 1)) throw new Error(`invalid widthPx: ${String(width)} (expected a width in pixels >= 1)`);
  const bucketPx = options.bucketPx ?? 2;
  if (!(bucketPx > 0)) throw new Error(`invalid bucketPx: ${String(bucketPx)} (expected > 0)`);
  const maxCalls = options.maxCalls ?? 3000;
  if (!(Number.isInteger(maxCalls) && maxCalls >= 0)) throw new Error(`invalid maxCalls: ${String(maxCalls)} (expected an integer >= 0)`);
  const w = options.window ?? null;
  if (w && !(Number.isFinite(Number(w[0])) && Number.isFinite(Number(w[1])) && Number(w[0]) <= Number(w[1])))
    throw new Error(`invalid window: [${w[0]}, ${w[1]}] (expected [t0, t1] ns with t0 <= t1)`);
  const threads = options.threadIds ?? null;
  if (threads && !(threads.length > 0 && threads.every((t) => Number.isInteger(t)))) throw new Error(`invalid threadIds: [${threads.join(", ")}] (expected integers)`);
  const maxRects = options.maxRects ?? 20_000;
  if (!(Number.isInteger(maxRects) && maxRects >= 1)) throw new Error(`invalid maxRects: ${String(maxRects)} (expected an integer >= 1)`);
  // At most 65,535 buckets keeps (s - t0) * B within BIGINT for traces up to 39 hours.
  const maxBuckets = Math.min(65_535, Math.max(1, Math.floor(width / bucketPx)));
  // Whole nanoseconds: bucket bounds and cut ends are exact integers.
  const [t0, t1] = w ? [Math.floor(Number(w[0])), Math.ceil(Number(w[1]))] : [null, null];

  // Filters are written only for the options given, so DuckDB pushes constant comparisons into the scan.
  if (options.maxDepth != null && !(Number.isInteger(options.maxDepth) && options.maxDepth >= 0 && options.maxDepth < 65_536))
    throw new Error(`invalid maxDepth: ${String(options.maxDepth)} (expected an integer from 0 to 65535)`);
  const sql: string[] = [];
  const params: unknown[] = [];
  const text = (t: string) => void sql.push(t);
  const bind = (v: unknown, type: string) => void (sql.push(`?::${type}`), params.push(v));
  const filters = () => {
    if (options.runId != null) text(" AND run_id = "), bind(options.runId, "VARCHAR");
    if (threads) {
      text(" AND thread_id IN (");
      threads.forEach((t, k) => (k && text(", "), bind(t, "INTEGER")));
      text(")");
    }
    if (options.maxDepth != null) text(" AND depth <= "), bind(options.maxDepth, "INTEGER");
  };
  // The window: given, or the trace's extent.
  if (w) text("WITH ext AS (SELECT "), bind(t0, "BIGINT"), text(" AS t0, "), bind(t1, "BIGINT"), text(" AS t1),\n");
  else text("WITH ext AS (SELECT min(enter) AS t0, max(exit) AS t1 FROM calls WHERE TRUE"), filters(), text("),\n");
  // Inlined where used (not materialized); CASE, not greatest/least, which DuckDB-WASM runs 20x slower.
  text("shown AS NOT MATERIALIZED (\n  SELECT c.thread_id, c.depth, c.method_id, c.call_id, CASE WHEN c.enter < x.t0 THEN x.t0 ELSE c.enter END AS s,\n");
  text("         CASE WHEN c.exit > x.t1 THEN x.t1 ELSE c.exit END AS e\n  FROM calls c, ext x\n  WHERE TRUE");
  filters();
  if (w) text(" AND c.enter < "), bind(t1, "BIGINT"), text(" AND c.exit >= "), bind(t0, "BIGINT");
  text(`
    AND c.enter < x.t1 AND (c.exit > x.t0 OR (c.exit = c.enter AND c.enter >= x.t0))
),
grid AS (
  SELECT x.t0, x.t1 - x.t0 AS len, p.n,
         greatest(1, least(`);
  bind(maxBuckets, "BIGINT"), text(", "), bind(maxRects, "BIGINT");
  text(` // greatest(p.lanes, 1)))::BIGINT AS b_count
  FROM ext x, (SELECT coalesce(sum(n), 0) AS n, coalesce(sum(deepest), 0) AS lanes
               FROM (SELECT count(*) AS n, max(depth) + 1 AS deepest FROM shown GROUP BY thread_id)) p
),
-- the longest short call's method, ties to the smaller id: duration and id packed into one BIGINT
-- (method ids are 32-bit in method traces; durations in units that keep the product below 2^63)
packing AS (SELECT greatest(1, (len // b_count) // 2147483648 + 1) AS unit FROM grid)
SELECT 'call' AS kind, thread_id, depth, s AS start, e AS "end", 1 AS calls, e - s AS busy, method_id, call_id
FROM shown, grid g
WHERE g.n <= `);
  bind(maxCalls, "BIGINT");
  text(` OR (e - s) * g.b_count >= g.len
UNION ALL
SELECT 'bucket', (k // 4294967296)::INTEGER, (k // 65536 % 65536)::INTEGER, g.t0 + (k % 65536 * g.len) // g.b_count,
       g.t0 + ((k % 65536 + 1) * g.len) // g.b_count, calls, busy, 4294967295 - longest % 4294967296, NULL
FROM (
  SELECT thread_id::BIGINT * 4294967296 + depth * 65536 + (s - g.t0) * g.b_count // g.len AS k,
         count(*)::INTEGER AS calls, sum(e - s)::BIGINT AS busy, max((e - s) // u.unit * 4294967296 + (4294967295 - method_id)) AS longest
  FROM shown, grid g, packing u
  WHERE g.n > `);
  bind(maxCalls, "BIGINT");
  text(` AND (e - s) * g.b_count < g.len
  GROUP BY k
) x, grid g
ORDER BY thread_id, depth, start, kind`);
  const parts = sql.join("").split("?");
  return { sql: parts.join("?"), params, parts, maxBuckets };
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
