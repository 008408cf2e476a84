// The run overview's queries (workspace/app/overview-data.ts runs them, charts/overview-chart.ts draws them): the
// frames, UI events and logcat jank events on one time axis, and the slices a packed run carries precomputed
// (workspace/db/node/pack-overview.ts writes them into its run.duckdb).

// Frames flagged suspect on import (impossible or unfinished times, frames.suspect) stay out of the chart.

export const FRAMES_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames WHERE suspect IS NULL GROUP BY run_id)
  SELECT f.run_id, (f.intended_vsync - t0.t0) / 1e9 AS t_s, f.duration / 1e6 AS duration_ms,
         f.deadline / 1e6 AS deadline_ms, f.jank, f.intended_vsync / 1e9 AS clock_s
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
 * frames (jb_overview.other_frames) are sliced (workspace/app/overview-data.ts). A 10M-row run's chart then scans
 * none of its frames (docs/scaling.md).
 */
export const PACKED_OVERVIEW = "jb_overview";
export const FRAMES_PACKED_SQL = `
  ${FRAMES_BUCKETED_SQL.replaceAll("FROM frames", `FROM ${PACKED_OVERVIEW}.other_frames`).replace(/ORDER BY run_id, t_s\s*$/, "")}
  UNION ALL
  SELECT run_id, t_s, duration_ms, deadline_ms, jank, frames, janky_frames FROM ${PACKED_OVERVIEW}.frames
  ORDER BY run_id, t_s`;
/**
 * Events on a packed run's time axis: its first plausible frame (EVENTS_SQL's t0) and first frame (LOG_EVENTS_SQL's)
 * are in jb_overview.spans; only the other runs' frames are scanned for theirs.
 */
export const EVENTS_PACKED_SQL = replaceOnce(
  EVENTS_SQL,
  "WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames WHERE suspect IS NULL GROUP BY run_id)",
  `WITH t0 AS (SELECT run_id, t0_plausible AS t0 FROM ${PACKED_OVERVIEW}.spans WHERE t0_plausible IS NOT NULL
              UNION ALL SELECT run_id, min(intended_vsync) FROM ${PACKED_OVERVIEW}.other_frames WHERE suspect IS NULL GROUP BY run_id)`,
);
export const LOG_EVENTS_PACKED_SQL = replaceOnce(
  LOG_EVENTS_SQL,
  "WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames GROUP BY run_id)",
  `WITH t0 AS (SELECT run_id, t0 FROM ${PACKED_OVERVIEW}.spans
              UNION ALL SELECT run_id, min(intended_vsync) FROM ${PACKED_OVERVIEW}.other_frames GROUP BY run_id)`,
);

/** `text` with `part` replaced; throws when `part` is not in it (a silent no-op left a scan of every frame). */
function replaceOnce(text: string, part: string, by: string): string {
  if (!text.includes(part)) throw new Error(`overview-sql: not found: ${part}`);
  return text.replace(part, by);
}

/** How many frames the chart has (total) and leaves out as suspect. */
export const FRAMES_COUNTED_SQL = `
  SELECT count(*) FILTER (WHERE suspect IS NULL)::BIGINT AS total, count(*) FILTER (WHERE suspect IS NOT NULL)::BIGINT AS suspect
  FROM frames`;

/**
 * The same with packed runs: their plausible frames are their slices' frames (every one is in a slice), the rest of
 * their rows (jb_overview.packed_rows: the attached tables' row counts, file metadata) are suspect; only the other
 * runs' frames are counted.
 */
export const FRAMES_PACKED_COUNTED_SQL = `
  WITH sliced AS (SELECT coalesce(sum(frames), 0)::BIGINT AS n FROM ${PACKED_OVERVIEW}.frames),
  other AS (${FRAMES_COUNTED_SQL.replace("FROM frames", `FROM ${PACKED_OVERVIEW}.other_frames`)})
  SELECT (sliced.n + other.total)::BIGINT AS total,
         ((SELECT n FROM ${PACKED_OVERVIEW}.packed_rows) - sliced.n + other.suspect)::BIGINT AS suspect
  FROM sliced, other`;
