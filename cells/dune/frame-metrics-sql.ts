// DUNE's frame metrics (§5.1, §5.2.2; frame-metrics.ts) of runs too long to read whole (docs/scaling.md): past
// `maxRows` frames the rules, counts, sums and the two nearest-rank percentiles are computed by the engine, and
// only a few rows per run and bucket come back. The cell builds the SQL and the notebook's `sql` runs it, so the
// cell stays free of any engine. At or under `maxRows` the frames' columns are read and frameMetrics runs on them.
// Either way the same rules, counts and percentiles; the aggregated mean is the exact sum of the durations (ns)
// over the count, and a run's per-frame timeline is not read (null).
import type { Table } from "apache-arrow";
import { checkColumns, int64, optional, utf8 } from "../../bundle/read-columns";
import { DUNE } from "./defaults";
import {
  eventsByRun,
  frameMetrics,
  refreshRates,
  ruleSentence,
  type FrameMetricsOptions,
  type FrameStats,
  type JankRule,
  type RunFrameMetrics,
} from "./frame-metrics";

/** A notebook's `sql` tagged template: `${x}` are bound parameters. */
export type SqlTag = (strings: TemplateStringsArray, ...values: unknown[]) => Promise<Table>;

export interface FrameMetricsBySqlOptions extends FrameMetricsOptions {
  /** frames (over every run) past which the metrics are aggregated by the engine; default FRAME_METRICS_MAX_ROWS */
  maxRows?: number;
}

/** A run's metrics; `timeline` is null when they were aggregated by the engine. */
export type FrameMetricsSummary = Omit<RunFrameMetrics, "timeline"> & {
  timeline: RunFrameMetrics["timeline"] | null;
};

/** Half a million frames (2.3 hours at 60 Hz): six columns of them are tens of MB in the cells' heap. */
export const FRAME_METRICS_MAX_ROWS = 500_000;

const RULES: JankRule[] = ["frame_deadline", "frame_interval", "refresh_rate", "fixed"];
// Nearest rank (frame-metrics.ts): the ceil(p·n)-th smallest, p and the product in doubles as JavaScript has them.
const PERCENTILES = { p90FrameMs: 0.9, p99FrameMs: 0.99 } as const;

/** Runs `text` (with `?` placeholders) through the notebook's tag, binding `params` in order. */
function run(sql: SqlTag, text: string, params: unknown[] = []): Promise<Table> {
  const parts = text.split("?");
  if (parts.length !== params.length + 1)
    throw new Error("frameMetricsBySql: placeholders and parameters differ");
  return sql(Object.assign(parts, { raw: parts }) as unknown as TemplateStringsArray, ...params);
}

const num = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));

/**
 * DUNE's frame metrics of the `frames` table, per run (in run_id order), each with its per-event buckets when
 * `uiEvents` is given. Runs over `maxRows` frames in all are aggregated in SQL: what crosses to the caller is
 * O(runs × buckets), whatever the number of frames.
 */
export async function frameMetricsBySql(
  sql: SqlTag,
  options: FrameMetricsBySqlOptions = {},
): Promise<FrameMetricsSummary[]> {
  const schema = await run(sql, "SELECT * FROM frames LIMIT 0");
  checkColumns(schema, "frames", {
    run_id: utf8(),
    intended_vsync: int64(),
    duration: int64(),
    frame_deadline: optional(int64()),
    frame_interval: optional(int64()),
    ...(options.skipFlaggedFrames ? { flags: optional(int64()) } : {}),
  });
  const has = new Set(schema.schema.fields.map((f) => f.name));
  const total = num((await run(sql, "SELECT count(*) AS n FROM frames")).getChild("n")?.get(0));
  if (total <= (options.maxRows ?? FRAME_METRICS_MAX_ROWS)) {
    const wanted = ["run_id", "intended_vsync", "duration", "frame_deadline", "frame_interval", "suspect"];
    if (options.skipFlaggedFrames) wanted.push("flags");
    const cols = wanted.filter((c) => has.has(c)).join(", ");
    const frames = await run(sql, `SELECT ${cols} FROM frames`);
    return frameMetrics(frames, options).sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  }
  return aggregated(sql, has, options);
}

async function aggregated(
  sql: SqlTag,
  has: Set<string>,
  options: FrameMetricsBySqlOptions,
): Promise<FrameMetricsSummary[]> {
  const fixedMs = options.fixedDeadlineMs ?? DUNE.fixedDeadlineMs;
  const col = (name: string) => (has.has(name) ? `fr.${name}` : "NULL");
  const params: unknown[] = [];
  // Each run's last-resort deadline (ns) and whether it is one refresh period, as frameMetrics picks them.
  const byRun = [...refreshRates(options.runs)].map(([id, hz]) => [id, 1e9 / hz, true] as const);
  const fallback = options.refreshHz !== undefined && options.refreshHz > 0;
  const deadlines = byRun.length
    ? `SELECT * FROM (VALUES ${byRun.map(() => "(CAST(? AS VARCHAR), CAST(? AS DOUBLE), CAST(? AS BOOLEAN))").join(", ")}) t(run_id, ns, refresh)`
    : "SELECT NULL::VARCHAR AS run_id, NULL::DOUBLE AS ns, NULL::BOOLEAN AS refresh WHERE false";
  params.push(...byRun.flat());
  // Bucket k (1-based) opens at the k-th event by (ts, seq); frames at one ts go past every event at that ts.
  const events = [...eventsByRun(options.uiEvents)];
  const ev = events.flatMap(([id, list]) => {
    const last = new Map<number, number>();
    list.forEach((e, k) => last.set(e.ts, k + 1));
    return [...last].map(([ts, k]) => [id, ts, k] as const);
  });
  let ctes = `fb AS (${deadlines})`;
  let bucket = "0";
  let join = "";
  if (ev.length) {
    ctes += `, ev AS (SELECT * FROM (VALUES ${ev.map(() => "(CAST(? AS VARCHAR), CAST(? AS BIGINT), CAST(? AS INTEGER))").join(", ")}) t(run_id, ts, k))`;
    params.push(...ev.flat());
    bucket = "coalesce(ev.k, 0)";
    join = "ASOF LEFT JOIN ev ON fr.run_id = ev.run_id AND fr.intended_vsync >= ev.ts";
  }
  const fd = col("frame_deadline");
  const fi = col("frame_interval");
  const iv = "fr.intended_vsync";
  const suspect = options.includeSuspect ? "false" : `${col("suspect")} IS NOT NULL`;
  const flagged = options.skipFlaggedFrames ? `coalesce(${col("flags")} > 0, false)` : "false";
  // frame-metrics.ts's rule order: FrameDeadline past IntendedVsync, then FrameInterval, then the fallback.
  ctes += `, f AS (
    SELECT fr.run_id, fr.duration AS dur, ${bucket} AS bucket,
      CASE WHEN ${fd} > ${iv} THEN 0 WHEN ${fi} > 0 THEN 1 WHEN coalesce(fb.refresh, CAST(? AS BOOLEAN)) THEN 2 ELSE 3 END AS rule,
      CASE WHEN ${fd} > ${iv} THEN fr.duration > ${fd} - ${iv} WHEN ${fi} > 0 THEN fr.duration > ${fi}
           ELSE fr.duration > coalesce(fb.ns, CAST(? AS DOUBLE)) END AS jank,
      ${suspect} AS sus, NOT (${suspect}) AND ${flagged} AS flagged
    FROM frames fr LEFT JOIN fb ON fr.run_id = fb.run_id ${join})`;
  params.push(fallback, fallback ? 1e9 / options.refreshHz! : fixedMs * 1e6);
  const counts = await run(
    sql,
    `WITH ${ctes}
     SELECT run_id, bucket,
       CAST(count(*) FILTER (WHERE sus) AS DOUBLE) AS suspect_n,
       CAST(count(*) FILTER (WHERE flagged) AS DOUBLE) AS flagged_n,
       CAST(count(*) FILTER (WHERE NOT sus AND NOT flagged) AS DOUBLE) AS n,
       CAST(count(*) FILTER (WHERE NOT sus AND NOT flagged AND jank) AS DOUBLE) AS janky,
       ${RULES.map((_, k) => `CAST(count(*) FILTER (WHERE NOT sus AND NOT flagged AND rule = ${k}) AS DOUBLE) AS rule_${k}`).join(", ")},
       CAST(sum(dur) FILTER (WHERE NOT sus AND NOT flagged) AS DOUBLE) AS sum_ns
     FROM f GROUP BY run_id, bucket ORDER BY run_id, bucket`,
    params,
  );
  // The frames at each run's (and bucket's) two nearest ranks; bucket -1 stands for the whole run.
  const rank = (p: number, n: string) => `rn = greatest(1, ceil(CAST(${p} AS DOUBLE) * ${n}))`;
  const at = (partition: string, label: string) =>
    `SELECT run_id, ${label} AS bucket, rn, n, dur FROM (
       SELECT run_id, bucket, dur, row_number() OVER (PARTITION BY ${partition} ORDER BY dur) AS rn,
              count(*) OVER (PARTITION BY ${partition}) AS n
       FROM f WHERE NOT sus AND NOT flagged)
     WHERE ${Object.values(PERCENTILES)
       .map((p) => rank(p, "n"))
       .join(" OR ")}`;
  const ranked = await run(
    sql,
    `WITH ${ctes} ${at("run_id", "-1")}${ev.length ? ` UNION ALL ${at("run_id, bucket", "bucket")}` : ""}`,
    params,
  );
  return assemble(counts, ranked, events, fixedMs);
}

interface Sums {
  n: number;
  janky: number;
  sumNs: number;
}

function assemble(
  counts: Table,
  ranked: Table,
  events: [string, { ts: number; seq: number; kind: string }[]][],
  fixedMs: number,
): FrameMetricsSummary[] {
  const c = (name: string) => counts.getChild(name)!;
  // nearest-rank values by run and bucket: rank -> duration (ms)
  const values = new Map<string, Map<number, number>>();
  const r = (name: string) => ranked.getChild(name)!;
  for (let i = 0; i < ranked.numRows; i++) {
    const key = `${num(r("bucket").get(i))}\u0000${String(r("run_id").get(i))}`;
    if (!values.has(key)) values.set(key, new Map());
    values.get(key)!.set(num(r("rn").get(i)), num(r("dur").get(i)) / 1e6);
  }
  const stats = (s: Sums, key: string): FrameStats => {
    const at = (p: number) => values.get(key)?.get(Math.max(1, Math.ceil(p * s.n))) ?? NaN;
    return {
      frames: s.n,
      jankyFrames: s.janky,
      smoothRatio: s.n === 0 ? NaN : 1 - s.janky / s.n,
      meanFrameMs: s.n === 0 ? NaN : s.sumNs / s.n / 1e6,
      p90FrameMs: s.n === 0 ? NaN : at(PERCENTILES.p90FrameMs),
      p99FrameMs: s.n === 0 ? NaN : at(PERCENTILES.p99FrameMs),
    };
  };
  const evs = new Map(events);
  const runs = new Map<
    string,
    { rule: number[]; suspect: number; flagged: number; total: Sums; buckets: Map<number, Sums> }
  >();
  for (let i = 0; i < counts.numRows; i++) {
    const id = String(c("run_id").get(i));
    let run = runs.get(id);
    if (!run)
      runs.set(
        id,
        (run = {
          rule: [0, 0, 0, 0],
          suspect: 0,
          flagged: 0,
          total: { n: 0, janky: 0, sumNs: 0 },
          buckets: new Map(),
        }),
      );
    const b: Sums = {
      n: num(c("n").get(i)),
      janky: num(c("janky").get(i)),
      sumNs: num(c("sum_ns").get(i)) || 0,
    };
    run.buckets.set(num(c("bucket").get(i)), b);
    run.total.n += b.n;
    run.total.janky += b.janky;
    run.total.sumNs += b.sumNs;
    run.suspect += num(c("suspect_n").get(i));
    run.flagged += num(c("flagged_n").get(i));
    RULES.forEach((_, k) => (run.rule[k]! += num(c(`rule_${k}`).get(i))));
  }
  return [...runs].map(([runId, run]) => {
    const rule = Object.fromEntries(RULES.map((name, k) => [name, run.rule[k]!])) as Record<JankRule, number>;
    const list = evs.get(runId) ?? [];
    const total = stats(run.total, `-1\u0000${runId}`);
    return {
      runId,
      rule,
      flaggedSkipped: run.flagged,
      suspectSkipped: run.suspect,
      ruleText: ruleSentence(rule, fixedMs, run.flagged, run.suspect),
      fixedDeadlineMs: fixedMs,
      total,
      // without events, bucket 0 is the whole run (frameMetrics' one bucket)
      buckets: [null, ...list].map((event, k) => ({
        bucket: k,
        event,
        ...(list.length === 0
          ? total
          : stats(run.buckets.get(k) ?? { n: 0, janky: 0, sumNs: 0 }, `${k}\u0000${runId}`)),
      })),
      timeline: null,
    };
  });
}
