// The run overview's first chart (DESIGN.md use 1): frame durations over time, janky frames marked,
// UI events as rules, one facet per run.
import * as Plot from "@observablehq/plot";
import type { SqlEngine } from "../db/engine";

export const FRAMES_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames GROUP BY run_id)
  SELECT f.run_id, (f.intended_vsync - t0.t0) / 1e9 AS t_s, f.duration / 1e6 AS duration_ms,
         f.deadline / 1e6 AS deadline_ms, f.jank
  FROM frames f JOIN t0 USING (run_id)
  ORDER BY f.run_id, f.intended_vsync`;

export const EVENTS_SQL = `
  WITH t0 AS (SELECT run_id, min(intended_vsync) AS t0 FROM frames GROUP BY run_id)
  SELECT e.run_id, (e.ts - t0.t0) / 1e9 AS t_s, e.kind
  FROM ui_events e JOIN t0 USING (run_id)
  ORDER BY e.run_id, e.ts`;

type Row = Record<string, unknown>;

export async function overviewChartData(engine: SqlEngine, hasEvents: boolean) {
  const frames = (await engine.query(FRAMES_SQL)).toArray().map((r: Row) => ({ ...r })) as Row[];
  const events = hasEvents ? ((await engine.query(EVENTS_SQL)).toArray().map((r: Row) => ({ ...r })) as Row[]) : [];
  return { frames, events };
}

export function overviewChartOptions(data: { frames: Row[]; events: Row[] }, width = 960): Plot.PlotOptions {
  const runs = new Set(data.frames.map((f) => f.run_id));
  const facet = runs.size > 1 ? { fy: "run_id" } : {};
  return {
    width,
    height: runs.size > 1 ? Math.min(900, 140 * runs.size + 40) : 320,
    marginLeft: 50,
    marginRight: runs.size > 1 ? 140 : 20,
    x: { label: "time since first frame (s)" },
    y: { label: "frame duration (ms)", grid: true },
    color: { domain: ["smooth", "janky"], range: ["#5c7cfa", "#e03131"], legend: true },
    marks: [
      Plot.ruleX(data.events, { x: "t_s", ...facet, stroke: "#adb5bd", strokeDasharray: "2,3", title: "kind" }),
      Plot.lineY(data.frames, { x: "t_s", y: "deadline_ms", ...facet, stroke: "#495057", strokeWidth: 1, strokeOpacity: 0.6 }),
      Plot.dot(data.frames, {
        x: "t_s",
        y: "duration_ms",
        ...facet,
        r: 1.8,
        fill: (d: Row) => (d.jank ? "janky" : "smooth"),
        tip: true,
      }),
    ],
  };
}
