// A run's call timeline summary, built once in DuckDB so that any window is answered from a few thousand rows
// (the rule: call-timeline.ts). Tables, named after the run:
//   <name>_calls  the run's calls with duration_level = floor(log2(exit - enter)) (-1 when zero-length),
//                 sorted by (duration_level, enter): a call is short at every level above its own, and a range
//                 of levels and entry times is a few blocks DuckDB finds from their min/max;
//   <name>_cells  per level L from min_level to max_level, lane and grid cell (enter >> L): the calls shorter
//                 than 2^L entering there (count, time, longest, first and last entry, last exit), sorted by
//                 (level, cell). Level L + 1 merges pairs of level-L cells and the calls of duration_level L.
// A window at level L reads the cells in view whose calls all lie inside it (drawn as they are), the calls of
// the few cells cut by t0 or t1 one by one (at most two cells per lane at each end), and the calls at least a
// cell long. Finer than min_level, where cells would hold under four calls on average, few calls are in any
// window and the query reads them from <name>_calls directly. From max_level up (2^L beyond every time and
// duration) every level's cells are the same, so max_level's answer.
import type { Table } from "apache-arrow";
import type { TimelineGrid } from "./call-timeline";
import {
  checkFilter,
  longestKey,
  longestMethod,
  boundQuery,
  filterSql,
  laneFilterSql,
  type CallTimelineFilter,
  type CallTimelineQuery,
} from "./call-timeline-sql";

export interface CallTimelineSummaryOptions {
  /** the run to summarise; default every row of `calls` (one run loaded) */
  runId?: string | null;
  /** the finest level stored; default the finest whose cells hold four calls or more on average */
  minLevel?: number | null;
  /** table name prefix; default derived from the run id */
  name?: string | null;
}

export interface SummaryLane {
  threadId: number;
  depth: number;
  calls: number;
  minEnter: number;
  maxEnter: number;
  maxExit: number;
}

export interface CallTimelineSummary {
  runId: string | null;
  tables: { calls: string; cells: string };
  minLevel: number;
  maxLevel: number;
  /** [first entry, last exit] ns of the run's calls; null when it has none */
  extent: readonly [number, number] | null;
  /** every (thread, depth) holding calls: the lanes and extent of any thread or depth filter */
  lanes: SummaryLane[];
}

function tableName(options: CallTimelineSummaryOptions): string {
  if (options.name != null) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(options.name))
      throw new Error(`invalid summary name: ${options.name} (expected letters, digits and _)`);
    return options.name;
  }
  const run = options.runId ?? "";
  // FNV-1a keeps runs whose ids differ only in punctuation apart.
  let hash = 0x811c9dc5;
  for (let i = 0; i < run.length; i++) hash = Math.imul(hash ^ run.charCodeAt(i), 0x01000193) >>> 0;
  return `${CACHE_SCHEMA}.ctl_${run
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 32)}_${hash.toString(16).padStart(8, "0")}`;
}

/** Derived tables live in their own schema, so the schema browser (main only) lists just the run's data. */
export const CACHE_SCHEMA = "jb_cache";

/**
 * The statements that build the run's summary, to run in order; the last returns its lanes (read them with
 * callTimelineSummary). CREATE OR REPLACE: running them again rebuilds it.
 */
export function callTimelineSummaryQueries(options: CallTimelineSummaryOptions = {}): CallTimelineQuery[] {
  const name = tableName(options);
  const minLevel = options.minLevel ?? null;
  if (minLevel !== null && !(Number.isInteger(minLevel) && minLevel >= 0 && minLevel <= 62))
    throw new Error(`invalid minLevel: ${String(minLevel)} (expected an integer from 0 to 62)`);
  const [calls, lanes, levels, cells] = ["calls", "lanes", "levels", "cells"].map((t) => `${name}_${t}`);
  const run = filterSql({ runId: options.runId }, null);
  // log2 of a double can round a duration just below 2^k up to k: checked against the shift.
  const copy = boundQuery(
    `CREATE OR REPLACE TABLE ${calls} AS
SELECT thread_id, depth, enter, exit, method_id, call_id,
       CASE WHEN exit <= enter THEN -1 WHEN (1::BIGINT << l) > exit - enter THEN l - 1 ELSE l END AS duration_level
FROM (SELECT *, CASE WHEN exit <= enter THEN 0 WHEN log2((exit - enter)::DOUBLE) >= 62 THEN 62 ELSE floor(log2((exit - enter)::DOUBLE))::INTEGER END AS l FROM calls WHERE TRUE${run.sql})
ORDER BY duration_level, enter`,
    run.values,
  );
  const perLane = boundQuery(
    `CREATE OR REPLACE TABLE ${lanes} AS
SELECT thread_id, depth, duration_level, count(*)::BIGINT AS calls, min(enter) AS min_enter, max(enter) AS max_enter, max(exit) AS max_exit
FROM ${calls} GROUP BY thread_id, depth, duration_level`,
    {},
  );
  // max_level: 2^L beyond every exit, |entry| and duration, so every call is short and in cell 0 or -1.
  // min_level: above the last level whose cells may average under four calls; cells per lane and level are
  // counted at most as the calls shorter than 2^L, or the cells between the lane's first and last such entry.
  const lowest =
    minLevel !== null
      ? "$min_level"
      : "coalesce((SELECT max(e.l) + 1 FROM estimate e, span WHERE e.cells > span.n // 4), 0)";
  const bounds = boundQuery(
    `CREATE OR REPLACE TABLE ${levels} AS
WITH span AS (SELECT coalesce(max(max_exit), 0) AS hi, coalesce(min(min_enter), 0) AS lo, coalesce(sum(calls), 0) AS n FROM ${lanes}),
top AS (SELECT coalesce(min(r.l), 62)::INTEGER AS max_level FROM range(0, 63) r(l), span
  WHERE (1::BIGINT << r.l) > span.hi - CASE WHEN span.lo < 0 THEN span.lo ELSE 0 END AND (1::BIGINT << r.l) >= -span.lo),
estimate AS (SELECT l, sum(CASE WHEN n < spanned THEN n ELSE spanned END) AS cells FROM (
  SELECT r.l, sum(h.calls) AS n, (max(h.max_enter) >> r.l) - (min(h.min_enter) >> r.l) + 1 AS spanned
  FROM range(0, 63) r(l) JOIN ${lanes} h ON h.duration_level < r.l GROUP BY r.l, h.thread_id, h.depth) GROUP BY l)
SELECT (CASE WHEN lo > max_level THEN max_level ELSE lo END)::INTEGER AS min_level, max_level FROM (SELECT ${lowest} AS lo, max_level FROM top)`,
    { min_level: [minLevel, "INTEGER"] },
  );
  const key = longestKey("exit - enter", "method_id");
  // A marker row per level keeps the recursion going through levels that hold no short call yet.
  const summary = boundQuery(
    `CREATE OR REPLACE TABLE ${cells} AS
WITH RECURSIVE lv(level, cell, thread_id, depth, calls, busy, longest, min_enter, max_enter, max_exit, first_call) AS (
  SELECT v.min_level, c.enter >> v.min_level, c.thread_id, c.depth, count(*)::INTEGER, sum(c.exit - c.enter)::BIGINT, max(${key}), min(c.enter), max(c.enter), max(c.exit), min(c.call_id)
  FROM ${calls} c, ${levels} v WHERE c.duration_level < v.min_level GROUP BY v.min_level, c.enter >> v.min_level, c.thread_id, c.depth
  UNION ALL SELECT min_level, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL FROM ${levels}
  UNION ALL
  SELECT level, cell, thread_id, depth, sum(calls)::INTEGER, sum(busy)::BIGINT, max(longest), min(min_enter), max(max_enter), max(max_exit), min(first_call)
  FROM (
    SELECT lv.level + 1 AS level, lv.cell >> 1 AS cell, thread_id, depth, calls, busy, longest, min_enter, max_enter, max_exit, first_call FROM lv, ${levels} v WHERE lv.level < v.max_level
    UNION ALL
    SELECT c.duration_level + 1, c.enter >> (c.duration_level + 1), c.thread_id, c.depth, 1, c.exit - c.enter, ${key}, c.enter, c.enter, c.exit, c.call_id
    FROM ${calls} c JOIN (SELECT DISTINCT level FROM lv) now ON c.duration_level = now.level, ${levels} v WHERE now.level < v.max_level
  ) GROUP BY level, cell, thread_id, depth
)
SELECT * FROM lv WHERE calls > 0 ORDER BY level, cell`,
    {},
  );
  const info = boundQuery(
    `SELECT '${name}' AS summary, $run_id AS run_id, v.min_level, v.max_level, h.thread_id, h.depth, h.calls, h.min_enter, h.max_enter, h.max_exit
FROM ${levels} v LEFT JOIN (SELECT thread_id, depth, sum(calls)::BIGINT AS calls, min(min_enter) AS min_enter, max(max_enter) AS max_enter, max(max_exit) AS max_exit
  FROM ${lanes} GROUP BY thread_id, depth) h ON TRUE
ORDER BY h.thread_id, h.depth`,
    { run_id: [options.runId ?? null, "VARCHAR"] },
  );
  const schema = boundQuery(`CREATE SCHEMA IF NOT EXISTS ${CACHE_SCHEMA}`, {});
  return [...(options.name == null ? [schema] : []), copy, perLane, bounds, summary, info];
}

/** The summary from the last build statement's rows. */
export function callTimelineSummary(rows: Table): CallTimelineSummary {
  const col = (name: string) => {
    const c = rows.getChild(name);
    if (!c)
      throw new Error(
        `missing column ${name} in the call timeline summary's rows (expected the last of callTimelineSummaryQueries)`,
      );
    return c;
  };
  if (rows.numRows === 0)
    throw new Error(
      "the call timeline summary's rows are empty (expected one row per lane, or one for an empty run)",
    );
  const name = String(col("summary").get(0));
  const runId = col("run_id").get(0);
  const lanes: SummaryLane[] = [];
  const [thread, depth, calls, minEnter, maxEnter, maxExit] = [
    "thread_id",
    "depth",
    "calls",
    "min_enter",
    "max_enter",
    "max_exit",
  ].map(col);
  for (let i = 0; i < rows.numRows; i++) {
    if (thread!.get(i) == null) continue;
    lanes.push({
      threadId: Number(thread!.get(i)),
      depth: Number(depth!.get(i)),
      calls: Number(calls!.get(i)),
      minEnter: Number(minEnter!.get(i)),
      maxEnter: Number(maxEnter!.get(i)),
      maxExit: Number(maxExit!.get(i)),
    });
  }
  return {
    runId: runId == null ? null : String(runId),
    tables: { calls: `${name}_calls`, cells: `${name}_cells` },
    minLevel: Number(col("min_level").get(0)),
    maxLevel: Number(col("max_level").get(0)),
    extent: extentOf(lanes),
    lanes,
  };
}

/** The lanes (every thread's deepest depth + 1) and extent of the calls a filter selects, as the direct query computes them. */
export function summaryLanes(
  summary: CallTimelineSummary,
  filter: CallTimelineFilter,
  threads: readonly number[] | null = checkFilter(filter),
) {
  const chosen = summary.lanes.filter(
    (l) =>
      (!threads || threads.includes(l.threadId)) && (filter.maxDepth == null || l.depth <= filter.maxDepth),
  );
  const deepest = new Map<number, number>();
  for (const l of chosen) deepest.set(l.threadId, Math.max(deepest.get(l.threadId) ?? 0, l.depth + 1));
  return { lanes: [...deepest.values()].reduce((a, b) => a + b, 0), extent: extentOf(chosen), chosen };
}

function extentOf(lanes: readonly SummaryLane[]): readonly [number, number] | null {
  if (!lanes.length) return null;
  return [
    lanes.reduce((m, l) => Math.min(m, l.minEnter), Infinity),
    lanes.reduce((m, l) => Math.max(m, l.maxExit), -Infinity),
  ];
}

/** The rule from the summary, for a grid at or above its min_level. */
export function summaryWindowQuery(
  summary: CallTimelineSummary,
  grid: TimelineGrid,
  filter: CallTimelineFilter,
  threads: readonly number[] | null,
): CallTimelineQuery {
  const { t0, t1, level } = grid;
  const width = 2 ** level;
  const c0 = Math.floor(t0 / width);
  const c1 = t1 > t0 ? Math.floor((t1 - 1) / width) : c0;
  const { chosen } = summaryLanes(summary, filter, threads);
  // Cells cut by t0 hold calls entering before it; cells cut by t1 calls ending after it or entering at it.
  const startCut = chosen.some((l) => l.minEnter < t0);
  const endCut = chosen.some((l) => l.maxExit > t1 || l.maxEnter >= t1);
  const endCell = Math.floor(t1 / width) - 1;
  const { calls, cells } = summary.tables;
  const lanes = laneFilterSql(filter, threads);
  const lanesOfC = laneFilterSql(filter, threads, "c.");
  // A cell whose calls all lie inside the window is drawn as it is.
  const whole = "min_enter >= $t0 AND max_exit <= $t1 AND max_enter < $t1";
  const or = (zones: string[]) => `(${zones.join(" OR ")})`;
  const cellZones = or([
    ...(startCut ? ["cell >= $c0 - 1 AND cell <= $c0"] : []),
    ...(endCut ? ["cell >= $e0 AND cell <= $c1"] : []),
  ]);
  // A short visible call entered after t0 - 2^L; those of cut cells lie in the first or last two cells. The
  // zones only narrow the scan: t0's cell can reach past t1 (a window inside one cell), so visibility is
  // checked in full, enter < t1 included (else a call entering after t1 is cut to a negative length).
  const enterZones = or([
    ...(startCut ? ["c.enter > $t0 - $w AND c.enter < ($c0 + 1) * $w"] : []),
    ...(endCut ? ["c.enter >= $e0 * $w AND c.enter < $t1"] : []),
  ]);
  const cut =
    startCut || endCut
      ? `cut AS NOT MATERIALIZED (
  SELECT c.thread_id, c.depth, c.method_id, c.call_id, CASE WHEN c.enter < $t0 THEN $t0 ELSE c.enter END AS s,
         CASE WHEN c.exit > $t1 THEN $t1 ELSE c.exit END AS e
  FROM ${calls} c SEMI JOIN (SELECT thread_id, depth, cell FROM ${cells} WHERE level = $stored_level AND ${cellZones} AND NOT (${whole})${lanes.sql}) x
    ON c.thread_id = x.thread_id AND c.depth = x.depth AND c.enter >> $level = x.cell
  WHERE c.duration_level < $level AND ${enterZones} AND c.enter < $t1 AND c.exit >= $t0 AND (c.exit > $t0 OR c.enter >= $t0)${lanesOfC.sql}
),
`
      : "";
  const cutCalls =
    startCut || endCut
      ? `
    UNION ALL
    SELECT thread_id, depth, s >> $level, 1, e - s, ${longestKey("e - s", "method_id")}, s, e, call_id FROM cut`
      : "";
  const text = `WITH ${cut}grouped AS (
  SELECT thread_id, depth, g, sum(calls)::INTEGER AS calls, sum(busy)::BIGINT AS busy, max(longest) AS longest, min(s1) AS s1, max(e1) AS e1, min(first_call) AS first_call
  FROM (
    SELECT thread_id, depth, cell AS g, calls, busy, longest, min_enter AS s1, max_exit AS e1, first_call FROM ${cells}
    WHERE level = $stored_level AND cell >= $c0 AND cell <= $c1 AND ${whole}${lanes.sql}${cutCalls}
  ) GROUP BY thread_id, depth, g
)
SELECT 'call' AS kind, thread_id, depth, s AS start, e AS "end", 1 AS calls, e - s AS busy, method_id, call_id
FROM (SELECT thread_id, depth, method_id, call_id, CASE WHEN enter < $t0 THEN $t0 ELSE enter END AS s, CASE WHEN exit > $t1 THEN $t1 ELSE exit END AS e
  FROM ${calls} WHERE duration_level >= $level AND enter < $t1 AND exit > $t0${lanes.sql})
UNION ALL
SELECT CASE WHEN calls = 1 THEN 'call' ELSE 'bucket' END, thread_id, depth,
       CASE WHEN calls = 1 THEN s1 WHEN g * $w < $t0 THEN $t0 ELSE g * $w END,
       CASE WHEN calls = 1 THEN e1 WHEN g * $w + $w > $t1 THEN $t1 ELSE g * $w + $w END,
       calls, busy, ${longestMethod("longest")}, CASE WHEN calls = 1 THEN first_call END
FROM grouped
ORDER BY thread_id, depth, start, kind`;
  const big = (v: number) => [v, "BIGINT"] as const;
  return boundQuery(text, {
    ...lanes.values,
    t0: big(t0),
    t1: big(t1),
    level: big(level),
    w: big(width),
    c0: big(c0),
    c1: big(c1),
    e0: big(endCell),
    // From max_level up every level's cells are the same: max_level's are read.
    stored_level: big(Math.min(level, summary.maxLevel)),
  });
}
