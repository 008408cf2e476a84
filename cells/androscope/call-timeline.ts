// The per-thread call timeline (AndroScope §VI-1, Fig. 13a) at any number of calls: level of detail by SQL
// aggregation, not by drawing every call. For a time window [t0, t1) and a plot width, DuckDB returns a
// bounded number of rows per thread and depth (a lane). B = min(width / bucketPx, maxRects / lanes) buckets
// per lane (lanes: every thread's deepest depth + 1 in the run, so the whole plot stays within what SVG draws
// quickly), and time is cut into a fixed grid of cells 2^L ns wide, L the smallest level with 2^L * B >= t1 - t0
// (at most B + 1 cells of a lane in view, each at least bucketPx wide; panning never regroups a cell):
//   - a visible call at least a cell long, exit - enter >= 2^L, is drawn as itself, cut to the window (in one
//     lane calls do not overlap: at most about B of them);
//   - shorter ones are grouped by the cell their cut start falls in, floor(max(enter, t0) / 2^L); a cell
//     holding one call draws that call ("call" row), so individual calls appear wherever few are visible; a
//     cell holding more is one "bucket" row spanning the cell cut to the window: how many calls, the time they
//     cover (cut to the window), the longest one's method (by cut duration, ties to the smaller id).
// Visible: enter < t1 and exit > t0, or a zero-length call with t0 <= enter < t1.
// Cells on a power-of-two grid let a run's summary (call-timeline-summary.ts, built once) answer any window
// from cells counted in advance; without one, the same rule runs over the calls table. Thread ids below 2^30,
// depths below 65,536 and 32-bit method ids (as method traces have) are packed into BIGINT keys.
// The cell builds the SQL and its bound parameters; the notebook runs it (cells never touch DuckDB).
// Passing the window and the lanes (or the summary) makes every term of the query a constant; DuckDB-WASM
// then runs it about twice as fast as with them computed inside.
import type { Table } from "apache-arrow";
import { int32, int64, readColumns } from "../../bundle/read-columns";
import { summaryLanes, summaryWindowQuery, type CallTimelineSummary } from "./call-timeline-summary";
import {
  bucketsPerLane,
  checkFilter,
  gridLevel,
  longestKey,
  longestMethod,
  boundQuery,
  filterSql,
  type CallTimelineFilter,
  type CallTimelineQuery,
} from "./call-timeline-sql";
import { timeWindow } from "../common/time-window";

export type { CallTimelineFilter, CallTimelineQuery } from "./call-timeline-sql";

export interface CallTimelineOptions extends CallTimelineFilter {
  /** [t0, t1] ns on the calls' clock; null or absent: the whole trace */
  window?: readonly [number, number] | null;
  /** the plot's width in pixels */
  widthPx: number;
  /** pixels per bucket at least; default 2 */
  bucketPx?: number;
  /** buckets per lane are cut so that lanes x buckets stays below this; default 8,000 (callTimelineSource, drawing on a canvas, asks for 20,000) */
  maxRects?: number;
  /** the lanes of the calls shown (callTimelineExtentQuery's `lanes`); default computed in the query, or from the summary */
  lanes?: number | null;
  /** the run's summary (callTimelineSummary): the query reads its tables instead of `calls`; same rows */
  summary?: CallTimelineSummary | null;
}

/** The window and grid of a query whose every term is known here. */
export interface TimelineGrid {
  t0: number;
  t1: number;
  /** cell width 2^level ns */
  level: number;
}

/** One row for the run's calls (filtered as given): t0 (first entry), t1 (last exit), lanes. */
export function callTimelineExtentQuery(filter: CallTimelineFilter = {}): CallTimelineQuery {
  const f = filterSql(filter, checkFilter(filter));
  return boundQuery(
    `SELECT min(lo) AS t0, max(hi) AS t1, coalesce(sum(deepest), 0)::INTEGER AS lanes
FROM (SELECT min(enter) AS lo, max(exit) AS hi, max(depth) + 1 AS deepest FROM calls WHERE TRUE${f.sql} GROUP BY thread_id)`,
    f.values,
  );
}

/** The level-of-detail query for one window and width (rows: kind, thread_id, depth, start, end, calls, busy, method_id, call_id). */
export function callTimelineQuery(options: CallTimelineOptions): CallTimelineQuery {
  const width = options.widthPx;
  if (!(Number.isFinite(width) && width >= 1))
    throw new Error(`invalid widthPx: ${String(width)} (expected a width in pixels >= 1)`);
  const bucketPx = options.bucketPx ?? 2;
  if (!(bucketPx > 0)) throw new Error(`invalid bucketPx: ${String(bucketPx)} (expected > 0)`);
  const w = timeWindow(options.window);
  const threads = checkFilter(options);
  const maxRects = options.maxRects ?? 8_000;
  if (!(Number.isInteger(maxRects) && maxRects >= 1))
    throw new Error(`invalid maxRects: ${String(maxRects)} (expected an integer >= 1)`);
  let lanes = options.lanes ?? null;
  if (lanes !== null && !(Number.isInteger(lanes) && lanes >= 0))
    throw new Error(`invalid lanes: ${String(lanes)} (expected an integer >= 0)`);
  // At most 65,535 buckets: a cell's offset in the window fits the 17 bits the grouping key keeps for it.
  const maxBuckets = Math.min(65_535, Math.max(1, Math.floor(width / bucketPx)));
  const summary = options.summary ?? null;
  let window = w ? ([Math.floor(Number(w[0])), Math.ceil(Number(w[1]))] as const) : null;
  if (summary) {
    if (options.runId != null && options.runId !== summary.runId)
      throw new Error(`the summary is of run ${summary.runId}, not ${options.runId}`);
    const selected = summaryLanes(summary, options, threads);
    lanes ??= selected.lanes;
    // Nothing selected: an empty window, which shows nothing.
    window ??= selected.extent ?? [0, 0];
  }
  const grid =
    window && lanes !== null
      ? {
          t0: window[0],
          t1: window[1],
          level: gridLevel(window[1] - window[0], bucketsPerLane(maxBuckets, maxRects, lanes)),
        }
      : null;
  if (summary && grid) {
    if (grid.level >= summary.minLevel) return summaryWindowQuery(summary, grid, options, threads);
    // Below the summary's finest cells few calls are in view: read them from the run's sorted copy.
    return directQuery(
      { table: summary.tables.calls, byLevel: true },
      { ...options, runId: null },
      threads,
      grid,
      { maxBuckets, maxRects, lanes: lanes!, window },
    );
  }
  return directQuery({ table: "calls", byLevel: false }, options, threads, grid, {
    maxBuckets,
    maxRects,
    lanes,
    window,
  });
}

interface Source {
  table: string;
  /** the table has duration_level (floor(log2(exit - enter)), sorted by it): wide or short by level */
  byLevel: boolean;
}

/** The grid's terms in the query: bound values when known here, else the columns of the `grid` CTE. */
const KNOWN_GRID = { t0: "$t0", t1: "$t1", level: "$level", w: "$w", c0: "$c0", join: "" };
const GRID_CTE = { t0: "g.t0", t1: "g.t1", level: "g.l", w: "g.w", c0: "g.c0", join: ", grid g" };
type GridTerms = typeof KNOWN_GRID;

/**
 * The grid computed in the query: B buckets per lane from the lanes and sizes, then the smallest level L
 * with 2^L * B >= t1 - t0; the window and lanes are bound when given, else taken from the calls.
 */
const gridCte = (window: string, lanes: string) => `grid AS (
  SELECT t0, t1, l, 1::BIGINT << l AS w, t0 >> l AS c0
  FROM (SELECT t0, t1, (SELECT min(r.l) FROM range(0, 63) r(l) WHERE (1::BIGINT << r.l) >= (t1 - t0 + b - 1) // b) AS l
    FROM (SELECT t0, t1, CASE WHEN m < 1 THEN 1 ELSE m END AS b
      FROM (SELECT t0, t1, CASE WHEN lanes > 1 THEN $max_rects // lanes ELSE $max_rects END AS r0,
                   CASE WHEN r0 < $max_buckets THEN r0 ELSE $max_buckets END AS m
        FROM (SELECT ${window}, ${lanes} AS lanes))))
),
`;

/**
 * The rule over the calls themselves: calls at least a cell long as they are, shorter ones grouped by the cell
 * their cut start falls in (a short visible call entered after t0 - 2^L). CASE, not greatest/least, which
 * DuckDB-WASM runs 20x slower; exit >= t0 is implied by visibility, but alone it is a range DuckDB checks
 * against each block's min/max.
 */
const directSql = (src: Source, g: GridTerms, filters: string) => {
  const cell = `(${g.c0} + k % 131072) * ${g.w}`;
  const wide = src.byLevel ? `duration_level >= ${g.level}` : `exit - enter >= ${g.w}`;
  const short = src.byLevel ? `duration_level < ${g.level}` : `exit - enter < ${g.w}`;
  return `shown AS NOT MATERIALIZED (
  SELECT thread_id, depth, method_id, call_id, enter, exit${src.byLevel ? ", duration_level" : ""},
         CASE WHEN enter < ${g.t0} THEN ${g.t0} ELSE enter END AS s,
         CASE WHEN exit > ${g.t1} THEN ${g.t1} ELSE exit END AS e
  FROM ${src.table}${g.join}
  WHERE TRUE${filters} AND enter < ${g.t1} AND exit >= ${g.t0} AND (exit > ${g.t0} OR enter >= ${g.t0})
)
SELECT 'call' AS kind, thread_id, depth, s AS start, e AS "end", 1 AS calls, e - s AS busy, method_id, call_id
FROM shown${g.join} WHERE ${wide}
UNION ALL
SELECT CASE WHEN calls = 1 THEN 'call' ELSE 'bucket' END, (k // 8589934592)::INTEGER, (k // 131072 % 65536)::INTEGER,
       CASE WHEN calls = 1 THEN s1 WHEN ${cell} < ${g.t0} THEN ${g.t0} ELSE ${cell} END,
       CASE WHEN calls = 1 THEN e1 WHEN ${cell} + ${g.w} > ${g.t1} THEN ${g.t1} ELSE ${cell} + ${g.w} END,
       calls, busy, ${longestMethod("longest")}, CASE WHEN calls = 1 THEN first END
FROM (
  SELECT (thread_id::BIGINT * 65536 + depth) * 131072 + (s >> ${g.level}) - ${g.c0} AS k, count(*)::INTEGER AS calls,
         sum(e - s)::BIGINT AS busy, max(${longestKey("e - s", "method_id")}) AS longest, min(s) AS s1, max(e) AS e1, min(call_id) AS first
  FROM shown${g.join} WHERE ${short} AND enter > ${g.t0} - ${g.w}
  GROUP BY k
)${g.join}
ORDER BY thread_id, depth, start, kind`;
};

/** The rule over the calls themselves; with `grid` null the window, lanes and level are computed in the query. */
function directQuery(
  src: Source,
  options: CallTimelineFilter,
  threads: readonly number[] | null,
  grid: TimelineGrid | null,
  sizes: {
    maxBuckets: number;
    maxRects: number;
    lanes: number | null;
    window: readonly [number, number] | null;
  },
): CallTimelineQuery {
  const f = filterSql(options, threads);
  if (grid) {
    const w = 2 ** grid.level;
    return boundQuery(`WITH ${directSql(src, KNOWN_GRID, f.sql)}`, {
      ...f.values,
      t0: [grid.t0, "BIGINT"],
      t1: [grid.t1, "BIGINT"],
      level: [grid.level, "BIGINT"],
      w: [w, "BIGINT"],
      c0: [Math.floor(grid.t0 / w), "BIGINT"],
    });
  }
  const window = sizes.window
    ? "$window_t0 AS t0, $window_t1 AS t1"
    : "(SELECT min(enter) FROM mine) AS t0, (SELECT max(exit) FROM mine) AS t1";
  const lanes =
    sizes.lanes !== null
      ? "$lanes"
      : "(SELECT sum(d) FROM (SELECT max(depth) + 1 AS d FROM mine GROUP BY thread_id))";
  const mine = `mine AS (SELECT thread_id, depth, enter, exit FROM ${src.table} WHERE TRUE${f.sql}),\n`;
  return boundQuery(`WITH ${mine}${gridCte(window, lanes)}${directSql(src, GRID_CTE, f.sql)}`, {
    ...f.values,
    max_rects: [sizes.maxRects, "BIGINT"],
    max_buckets: [sizes.maxBuckets, "BIGINT"],
    window_t0: [sizes.window?.[0], "BIGINT"],
    window_t1: [sizes.window?.[1], "BIGINT"],
    lanes: [sizes.lanes, "BIGINT"],
  });
}

/** The level-of-detail query's columns, read once (call_id is null on bucket rows). */
export function callTimelineRows(rows: Table) {
  const c = readColumns(rows, "call timeline rows", {
    thread_id: int32(),
    depth: int32(),
    start: int64(0),
    end: int64(0),
    calls: int32(),
    busy: int64(0),
    method_id: int64(0),
  });
  const kind = rows.getChild("kind")!;
  const callId = rows.getChild("call_id");
  const ids = callId ? (callId.toArray() as ArrayLike<number | bigint>) : null;
  return {
    n: rows.numRows,
    thread: c.thread_id,
    depth: c.depth,
    start: c.start,
    end: c.end,
    calls: c.calls,
    busy: c.busy,
    method: c.method_id,
    // A row of several calls is a bucket: the kind string (decoded per row, the slow part of ~20,000 rows per
    // zoom step) is read only for rows of one call.
    isCall: (i: number) => c.calls[i] === 1 && kind.get(i) === "call",
    callId: (i: number) => {
      const v = ids && c.calls[i] === 1 ? ids[i] : null;
      return v == null || callId!.isValid(i) === false ? null : Number(v);
    },
  };
}
