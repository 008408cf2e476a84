// Before/after distribution of queuing and execution delays of two runs (DiagDroid §6.3, Figures 11–12):
// after a fix, the delays of the related tasks should move left.
import type { Table } from "apache-arrow";
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DIAGDROID } from "./defaults";
import { queueData } from "./queue-metrics";

export interface DelayDistributionOptions {
  /** run labels; default ["before", "after"] */
  labels?: readonly [string, string];
  /** only tasks of this task_class (the paper shows one task's delays); default all */
  taskClass?: string;
}

export interface DelayRow {
  run: string;
  kind: "queuing" | "execution";
  ms: number;
}

export function delayDistribution(
  before: Table,
  after: Table,
  options: DelayDistributionOptions = {},
): DelayRow[] {
  const labels = options.labels ?? ["before", "after"];
  const rows: DelayRow[] = [];
  [before, after].forEach((tasks, r) => {
    const q = queueData(tasks);
    const cls = options.taskClass !== undefined ? tasks.getChild("task_class") : null;
    if (options.taskClass !== undefined && !cls)
      throw new Error("delayDistribution: taskClass given but tasks has no task_class column");
    for (let i = 0; i < q.n; i++) {
      if (cls && cls.get(i) !== options.taskClass) continue;
      rows.push({ run: labels[r]!, kind: "queuing", ms: q.queueMs[i]! });
      if (!Number.isNaN(q.execMs[i]!)) rows.push({ run: labels[r]!, kind: "execution", ms: q.execMs[i]! });
    }
  });
  return rows;
}

/** Histograms of queuing and execution delays, before beside after, with the τ rule (Figures 11–12). */
export function delayDistributionPlot(
  rows: readonly DelayRow[],
  options: DelayDistributionOptions & { tauMs?: number } = {},
): ChartSpec {
  return chartSpec("delayDistributionPlot", {
    mark: "rectY",
    data: rows,
    x: "ms",
    fx: "run",
    fy: "kind",
    fill: "kind",
    binX: { y: "count" },
    layout: {
      x: { label: "delay (ms)", type: "symlog" },
      y: { label: "tasks", grid: true },
      fx: { domain: options.labels ?? [...new Set(rows.map((r) => r.run))], label: null },
      fy: { domain: ["queuing", "execution"], label: null },
    },
    over: [
      {
        mark: "ruleX",
        data: [options.tauMs ?? DIAGDROID.tauMs],
        options: { stroke: "#d62728", strokeDasharray: "4,3" },
      },
      { mark: "ruleY", data: [0] },
    ],
  });
}
