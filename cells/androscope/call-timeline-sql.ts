// What the call timeline's queries share: the filters, SQL text whose `$name` values are bound as parameters
// (a value is never spliced into SQL: docs/architecture.md), and the grid level-of-detail rule's level for a
// window (call-timeline.ts says the rule).
export interface CallTimelineFilter {
  /** the run whose calls to show; default every row of the table (load one run) */
  runId?: string | null;
  /** only these threads; default all */
  threadIds?: readonly number[] | null;
  /** only calls this deep or shallower (0 = outermost); default all */
  maxDepth?: number | null;
}

export interface CallTimelineQuery {
  /** SQL with `?` placeholders */
  sql: string;
  params: unknown[];
  /** the SQL split at its placeholders, for the notebook's sql builtin: sql(q.parts, ...q.params) */
  parts: string[];
}

/** A value bound to a `$name`, with the type it is cast to (DuckDB infers none for a bare `?`). */
export type Bound = readonly [value: unknown, type: "BIGINT" | "INTEGER" | "VARCHAR"];

/** SQL text whose `$name`s become `?::TYPE` placeholders, each bound to its value, in order of appearance. */
export function boundQuery(text: string, values: Readonly<Record<string, Bound>>): CallTimelineQuery {
  const params: unknown[] = [];
  const sql = text.replace(/\$([A-Za-z_]\w*)/g, (_, name: string) => {
    const bound = values[name];
    if (!bound) throw new Error(`no value bound to $${name}`);
    params.push(bound[0]);
    return `?::${bound[1]}`;
  });
  return { sql, params, parts: sql.split("?") };
}

/** The filters given (only those, so DuckDB pushes constant comparisons into the scan), as ` AND ...` terms. */
export function filterSql(
  f: CallTimelineFilter,
  threads: readonly number[] | null,
  prefix = "",
): { sql: string; values: Record<string, Bound> } {
  const run = f.runId != null ? ` AND ${prefix}run_id = $run_id` : "";
  const lanes = laneFilterSql(f, threads, prefix);
  return {
    sql: run + lanes.sql,
    values: { ...lanes.values, ...(f.runId != null ? { run_id: [f.runId, "VARCHAR"] as const } : {}) },
  };
}

/** The thread and depth filters (a run's summary tables hold one run: no run_id). */
export function laneFilterSql(
  f: CallTimelineFilter,
  threads: readonly number[] | null,
  prefix = "",
): { sql: string; values: Record<string, Bound> } {
  const values: Record<string, Bound> = {};
  let sql = "";
  if (threads) {
    threads.forEach((t, k) => (values[`thread_${k}`] = [t, "INTEGER"]));
    sql += ` AND ${prefix}thread_id IN (${threads.map((_, k) => `$thread_${k}`).join(", ")})`;
  }
  if (f.maxDepth != null) {
    values.max_depth = [f.maxDepth, "INTEGER"];
    sql += ` AND ${prefix}depth <= $max_depth`;
  }
  return { sql, values };
}

export function checkFilter(f: CallTimelineFilter): readonly number[] | null {
  const threads = f.threadIds ?? null;
  if (threads && !(threads.length > 0 && threads.every((t) => Number.isInteger(t) && t >= 0 && t < 2 ** 30)))
    throw new Error(`invalid threadIds: [${threads.join(", ")}] (expected integers from 0 to 2^30 - 1)`);
  if (f.maxDepth != null && !(Number.isInteger(f.maxDepth) && f.maxDepth >= 0 && f.maxDepth < 65_536))
    throw new Error(`invalid maxDepth: ${String(f.maxDepth)} (expected an integer from 0 to 65535)`);
  return threads;
}

/** Buckets per lane: B = min(width / bucketPx, maxRects / lanes), at least 1, at most 65,535. */
export function bucketsPerLane(maxBuckets: number, maxRects: number, lanes: number): number {
  return Math.max(1, Math.min(maxBuckets, Math.floor(maxRects / Math.max(lanes, 1))));
}

/** The grid level for a window of len ns cut into at most B buckets: the smallest L >= 0 with 2^L * B >= len. */
export function gridLevel(len: number, buckets: number): number {
  // In integers: a float quotient can round k + 1/B down to k.
  const least = Number((BigInt(len) + BigInt(buckets) - 1n) / BigInt(buckets));
  let level = least <= 1 ? 0 : Math.max(0, Math.ceil(Math.log2(least)) - 1);
  while (2 ** level < least) level++;
  return level;
}

/** The longest call's duration and method packed into one HUGEINT, ties to the smaller id (method ids are 32-bit). */
export const longestKey = (duration: string, method: string) =>
  `(${duration})::HUGEINT * 4294967296 + (4294967295 - ${method})`;
export const longestMethod = (key: string) => `(4294967295 - ${key} % 4294967296)::BIGINT`;
