// What the call timeline's queries share: the filters, a builder binding every value as a parameter, and the
// grid level-of-detail rule's level for a window (call-timeline.ts says the rule).
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

export class SqlBuilder {
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
  filters(f: CallTimelineFilter, threads: readonly number[] | null, prefix = ""): this {
    if (f.runId != null) this.sql(` AND ${prefix}run_id = `).bind(f.runId, "VARCHAR");
    return this.laneFilters(f, threads, prefix);
  }
  /** The thread and depth filters (a run's summary tables hold one run: no run_id). */
  laneFilters(f: CallTimelineFilter, threads: readonly number[] | null, prefix = ""): this {
    if (threads) {
      this.sql(` AND ${prefix}thread_id IN (`);
      threads.forEach((t, k) => (k && this.sql(", "), this.bind(t, "INTEGER")));
      this.sql(")");
    }
    if (f.maxDepth != null) this.sql(` AND ${prefix}depth <= `).bind(f.maxDepth, "INTEGER");
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
