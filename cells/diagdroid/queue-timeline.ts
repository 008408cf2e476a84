// Per-execution-unit timeline of queued vs running spans (DiagDroid §4.1, Figure 4): every task on the units
// a chosen group's tasks ran on, the group's own tasks drawn solid and the others faded, so one sees who it
// waited behind. Unfinished spans run to the trace end.
import type { Table } from "apache-arrow";
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { queueData, type QueueMetricsOptions } from "./queue-metrics";

export interface QueueTimelineOptions extends QueueMetricsOptions {
  /** the chosen group's contexts (GroupReport.contextIds); default every task */
  contextIds?: readonly number[];
  /** at most this many spans, the longest queues first; default 5,000 (Plot draws SVG) */
  maxTasks?: number;
}

export interface TimelineSpan {
  executor: string;
  taskId: string;
  phase: "queued" | "running";
  /** ms since the first scheduled task */
  start: number;
  end: number;
  chosen: boolean;
  open: boolean;
}

export function queueTimeline(tasks: Table, options: QueueTimelineOptions = {}): TimelineSpan[] {
  const q = queueData(tasks, options);
  const chosenContexts = options.contextIds ? new Set(options.contextIds) : null;
  const chosen = (i: number) => !chosenContexts || chosenContexts.has(q.contextId[i]!);
  const units = new Set<number>();
  for (let i = 0; i < q.n; i++) if (chosen(i)) units.add(q.unit[i]!);
  let t0 = Infinity;
  for (let i = 0; i < q.n; i++) if (units.has(q.unit[i]!) && q.scheduled[i]! < t0) t0 = q.scheduled[i]!;
  const rows = [...Array(q.n).keys()].filter((i) => units.has(q.unit[i]!));
  rows.sort((a, b) => q.queueMs[b]! - q.queueMs[a]!);
  const spans: TimelineSpan[] = [];
  for (const i of rows.slice(0, options.maxTasks ?? 5000)) {
    const ms = (x: number) => (x - t0) / 1e6;
    const started = Number.isNaN(q.started[i]!) ? q.traceEnd : q.started[i]!;
    const base = { executor: q.unitNames[q.unit[i]!]!, taskId: String(q.taskId[i]), chosen: chosen(i) };
    if (started > q.scheduled[i]!)
      spans.push({
        ...base,
        phase: "queued",
        start: ms(q.scheduled[i]!),
        end: ms(started),
        open: q.state[i] === 2,
      });
    if (q.state[i] !== 2) {
      const ended = Number.isNaN(q.ended[i]!) ? q.traceEnd : q.ended[i]!;
      spans.push({ ...base, phase: "running", start: ms(started), end: ms(ended), open: q.state[i] === 1 });
    }
  }
  return spans;
}

export function queueTimelinePlot(spans: readonly TimelineSpan[]): ChartSpec {
  const rows = spans.map((d) => ({
    ...d,
    opacity: d.chosen ? 0.85 : 0.25,
    tip: `task ${d.taskId} ${d.phase}${d.open ? " (until trace end)" : ""}: ${(d.end - d.start).toFixed(1)} ms`,
  }));
  return chartSpec("queueTimelinePlot", {
    mark: "barX",
    data: rows,
    y: "executor",
    fill: "phase",
    options: { x1: "start", x2: "end", fillOpacity: "opacity", insetTop: 2, insetBottom: 2, title: "tip" },
    layout: {
      marginLeft: 140,
      x: { label: "ms since first task scheduled" },
      y: { label: null },
      color: { domain: ["queued", "running"], range: ["#ff7f0e", "#1f77b4"], legend: true },
    },
  });
}
