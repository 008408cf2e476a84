// The run overview's first chart (DESIGN.md use 1): frame durations over time, janky frames marked,
// UI events as rules, logcat's jank events (log_events: skipped frames, GC pauses, Davey!, ANR, slow looper
// messages) as orange rules, one facet per run.
import * as Plot from "@observablehq/plot";
import { tableExists, type SqlEngine } from "../db/engine";
import { JANK_COLOR, ON_TIME_COLOR } from "../notebook/chart-theme";
import { overviewError } from "./overview-errors";

// Frames flagged suspect on import (impossible or unfinished times, frames.suspect) stay out of the chart.

export const FRAMES_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames WHERE suspect IS NULL GROUP BY run_id)
  SELECT f.run_id, (f.intended_vsync - t0.t0) / 1e9 AS t_s, f.duration / 1e6 AS duration_ms,
         f.deadline / 1e6 AS deadline_ms, f.jank
  FROM frames f JOIN t0 USING (run_id) WHERE f.suspect IS NULL
  ORDER BY f.run_id, f.intended_vsync`;

export const EVENTS_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames WHERE suspect IS NULL GROUP BY run_id)
  SELECT e.run_id, (e.ts - t0.t0) / 1e9 AS t_s, e.kind
  FROM ui_events e JOIN t0 USING (run_id)
  ORDER BY e.run_id, e.ts`;

/** log_events with a CLOCK_MONOTONIC time, on the frames' time axis; the label says what and how long. */
export const LOG_EVENTS_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames GROUP BY run_id)
  SELECT e.run_id, (e.ts - t0.t0) / 1e9 AS t_s, e.kind,
         e.kind || coalesce(' ' || (e.dur / 1e6)::DECIMAL(12, 1) || ' ms', '') || coalesce(' x' || e.count, '')
           || coalesce(': ' || e.detail, '') AS label
  FROM log_events e JOIN t0 USING (run_id)
  WHERE e.ts IS NOT NULL
  ORDER BY e.run_id, e.ts`;

/** Above this many frames the chart shows the slowest frame of each time slice instead of every frame. */
export const OVERVIEW_MAX_DOTS = 40_000;

/**
 * Level of detail for long runs: each run's time span cut into `?` slices, one dot per slice for its slowest
 * frame (so no janky spike disappears), with how many frames and janky frames the slice holds.
 */
export const FRAMES_BUCKETED_SQL = `
  WITH span AS (SELECT run_id, min(intended_vsync) AS t0, greatest(max(intended_vsync) - min(intended_vsync), 1) AS len
                FROM frames WHERE suspect IS NULL GROUP BY run_id),
  sliced AS (SELECT f.run_id, least(floor((f.intended_vsync - s.t0) * ?::DOUBLE / s.len), ? - 1)::INTEGER AS slice,
                    f.intended_vsync - s.t0 AS dt, f.duration, f.deadline, f.jank
             FROM frames f JOIN span s USING (run_id) WHERE f.suspect IS NULL)
  SELECT run_id, arg_max(dt, duration) / 1e9 AS t_s, max(duration) / 1e6 AS duration_ms,
         arg_max(deadline, duration) / 1e6 AS deadline_ms, arg_max(jank, duration) AS jank,
         count(*)::INTEGER AS frames, count(*) FILTER (WHERE jank)::INTEGER AS janky_frames
  FROM sliced GROUP BY run_id, slice ORDER BY run_id, t_s`;

/** Slices per run of the overview; packed runs carry their slices precomputed at this count. */
export const OVERVIEW_SLICES = 1200;

/**
 * A packed run's overview, computed by `jankbook pack` with FRAMES_BUCKETED_SQL (schema jb_overview of its
 * run.duckdb, unioned over attached runs by workspace/db/run-views.ts): read as is, and only the other runs'
 * frames (jb_overview.other_frames) are sliced here. A 10M-row run's chart then scans none of its frames (issue 18).
 */
export const PACKED_OVERVIEW = "jb_overview";
const FRAMES_PACKED_SQL = `
  ${FRAMES_BUCKETED_SQL.replaceAll("FROM frames", `FROM ${PACKED_OVERVIEW}.other_frames`).replace(/ORDER BY run_id, t_s\s*$/, "")}
  UNION ALL
  SELECT run_id, t_s, duration_ms, deadline_ms, jank, frames, janky_frames FROM ${PACKED_OVERVIEW}.frames
  ORDER BY run_id, t_s`;
const EVENTS_PACKED_SQL = EVENTS_SQL.replace(
  "WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames GROUP BY run_id)",
  `WITH t0 AS (SELECT run_id, t0 FROM ${PACKED_OVERVIEW}.spans
              UNION ALL SELECT run_id, min(intended_vsync) FROM ${PACKED_OVERVIEW}.other_frames GROUP BY run_id)`,
);

type Row = Record<string, unknown>;

export async function overviewChartData(
  engine: SqlEngine,
  hasEvents: boolean,
  options: { maxDots?: number; slices?: number } = {},
) {
  return chartData(engine, hasEvents, options).catch((e: unknown) => {
    throw overviewError(e);
  });
}

async function chartData(
  engine: SqlEngine,
  hasEvents: boolean,
  { maxDots = OVERVIEW_MAX_DOTS, slices = OVERVIEW_SLICES }: { maxDots?: number; slices?: number },
) {
  const total = Number(
    (await engine.query("SELECT count(*)::BIGINT AS n FROM frames WHERE suspect IS NULL"))
      .getChild("n")!
      .get(0),
  );
  const suspect = Number(
    (await engine.query("SELECT count(*)::BIGINT AS n FROM frames WHERE suspect IS NOT NULL"))
      .getChild("n")!
      .get(0),
  );
  const bucketed = total > maxDots;
  const packed =
    Number(
      (
        await engine.query(
          "SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = ?",
          [PACKED_OVERVIEW],
        )
      )
        .getChild("n")!
        .get(0),
    ) > 0;
  const frameTable = !bucketed
    ? await engine.query(FRAMES_SQL)
    : packed && slices === OVERVIEW_SLICES
      ? await engine.query(FRAMES_PACKED_SQL, [slices, slices])
      : await engine.query(FRAMES_BUCKETED_SQL, [slices, slices]);
  const frames = frameTable.toArray().map((r: Row) => ({ ...r })) as Row[];
  const events = hasEvents
    ? ((await engine.query(packed ? EVENTS_PACKED_SQL : EVENTS_SQL))
        .toArray()
        .map((r: Row) => ({ ...r })) as Row[])
    : [];
  const logEvents = (await tableExists(engine, "log_events"))
    ? ((await engine.query(LOG_EVENTS_SQL)).toArray().map((r: Row) => ({ ...r })) as Row[])
    : [];
  return { frames, events, logEvents, bucketed, totalFrames: total, suspectFrames: suspect };
}

export function overviewChartOptions(
  data: { frames: Row[]; events: Row[]; logEvents?: Row[]; bucketed?: boolean },
  width = 960,
): Plot.PlotOptions {
  const runs = new Set(data.frames.map((f) => f.run_id));
  const facet = runs.size > 1 ? { fy: "run_id" } : {};
  return {
    width,
    height: runs.size > 1 ? Math.min(900, 140 * runs.size + 40) : 320,
    // margins: the chart theme sizes them to the run names (facets) and the frame times
    x: { label: "time since first frame (s)" },
    y: { label: data.bucketed ? "slowest frame per time slice (ms)" : "frame duration (ms)", grid: true },
    color: { domain: ["smooth", "janky"], range: [ON_TIME_COLOR, JANK_COLOR], legend: true },
    marks: [
      Plot.ruleX(data.events, {
        x: "t_s",
        ...facet,
        stroke: "#adb5bd",
        strokeDasharray: "2,3",
        title: "kind",
      }),
      Plot.ruleX(data.logEvents ?? [], {
        x: "t_s",
        ...facet,
        stroke: "#f08c00",
        strokeWidth: 1.5,
        strokeOpacity: 0.8,
        title: "label",
      }),
      Plot.lineY(data.frames, {
        x: "t_s",
        y: "deadline_ms",
        ...facet,
        stroke: "#495057",
        strokeWidth: 1,
        strokeOpacity: 0.6,
      }),
      Plot.dot(data.frames, {
        x: "t_s",
        y: "duration_ms",
        ...facet,
        r: 1.8,
        fill: (d: Row) => (d.jank ? "janky" : "smooth"),
        tip: true,
        ...(data.bucketed
          ? {
              title: (d: Row) =>
                `${d.frames} frames, ${d.janky_frames} janky; slowest ${Number(d.duration_ms).toFixed(1)} ms`,
            }
          : {}),
      }),
    ],
  };
}
