// The run overview's first chart (its data: workspace/app/overview-data.ts): frame durations over time, janky frames marked,
// UI events as rules, logcat's jank events (log_events: skipped frames, GC pauses, Davey!, ANR, slow looper
// messages) as orange rules, one facet per run.
import * as Plot from "@observablehq/plot";
import { JANK_COLOR, ON_TIME_COLOR } from "./chart-theme";

type Row = Record<string, unknown>;

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
        // each frame's start on the device's own clock too (a time since boot), beside the time from the run's first frame
        ...(data.frames[0]?.clock_s !== undefined
          ? { channels: { "on the device's clock (s)": "clock_s" } }
          : {}),
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
