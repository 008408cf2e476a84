// anomalousGroups, the Markdown report and the plots on a small hand-built case modelled on Figure 5:
// an UpdateLawList task (two contexts that Figure 10 says are one group) queued on the serial executor behind
// a slow LawSectionList task.
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import {
  anomalousGroups,
  anomalousGroupsPlot,
  anomalyReport,
  delayDistribution,
  delayDistributionPlot,
  queueTimeline,
  queueTimelinePlot,
} from "../../../cells/diagdroid/index";
import type { PlotSpec } from "../../../charts/plot-spec";
import { chartOptions } from "../../golden-svg";
import { tasksTable, type T } from "./tasks-fixture";

const c1 = [
  "UpdateLawList.<init>",
  "AsyncTask.executeOnExecutor(Native Method)",
  "AsyncTask.execute(AsyncTask.java:534)",
  "LawListFragment.onCreate",
];
const c3 = [
  "UpdateLawList.<init>",
  "AsyncTask.executeOnExecutor(<Xposed>)",
  "AsyncTask.execute(AsyncTask.java:539)",
  "LawListFragment.onCreate",
];
const c2 = ["LawSectionList.<init>", "LawSectionList.load", "Loader.start", "LawListFragment.onStart"];
const c4 = ["Other.run", "Handler.post", "View.performClick", "View$PerformClick.run"];
const contexts = makeBundleTable("contexts", "r", { context_id: [1, 2, 3, 4], frames: [c1, c2, c3, c4] });
const rows: T[] = [
  { id: 1, ctx: 2, s: 0, b: 0, e: 2000 },
  { id: 2, ctx: 1, s: 10, b: 2000, e: 2100 },
  { id: 3, ctx: 3, s: 20, b: 2100, e: 2200 },
  { id: 4, ctx: 4, unit: "Handler@9", s: 0, b: 0, e: 10 },
];
const tasks = tasksTable(rows);

describe("anomalousGroups", () => {
  const reports = anomalousGroups(tasks, contexts);
  it("groups c1 and c3 (distance 2), finds two anomalous groups, ranked by max(Mq, Me)", () => {
    expect(reports.map((r) => [r.rank, r.group, r.contextIds, r.anomalousBy])).toEqual([
      [1, 0, [1, 3], ["queuing"]],
      [2, 1, [2], ["execution"]],
    ]);
  });
  it("Figure 5's numbers for the queued group", () => {
    const r = reports[0]!;
    expect(r).toMatchObject({
      tasks: 2,
      mqMs: 2080,
      meMs: 100,
      poolCapacity: 1,
      slowCases: 2,
      avgQueueLength: 1.5,
    });
    // Task 2 waited behind task 1 (2000 ms); task 3 behind tasks 1 and 2 (2000, 100 ms).
    expect(r.avgInQueueExecMs).toBeCloseTo(4100 / 3, 9);
    // per context too (Figure 6's lines 8-9): task 3 waited behind task 2, of context c1 (c3 none)
    expect(r.dependsOn).toEqual([
      {
        group: 1,
        contextIds: [2],
        waitedBehind: 2,
        execMaxMs: 2000,
        execAvgMs: 2000,
        byContext: [{ contextId: 2, waitedBehind: 2, execMaxMs: 2000, execAvgMs: 2000 }],
      },
      {
        group: 0,
        contextIds: [1, 3],
        waitedBehind: 1,
        execMaxMs: 100,
        execAvgMs: 100,
        byContext: [{ contextId: 1, waitedBehind: 1, execMaxMs: 100, execAvgMs: 100 }],
      },
    ]);
  });
  it("τ and maxDistance are options: with maxDistance 1, c1 and c3 are two groups", () => {
    expect(anomalousGroups(tasks, contexts, { maxDistance: 1 }).map((r) => r.contextIds)).toEqual([
      [3],
      [2],
      [1],
    ]);
    expect(anomalousGroups(tasks, contexts, { tauMs: 5000 })).toEqual([]);
  });
  it("a task whose context_id has no context is an error naming it", () => {
    const orphan = tasksTable([...rows, { id: 5, ctx: 42, s: 1, b: 1, e: 2 }]);
    expect(() => anomalousGroups(orphan, contexts)).toThrow(/1 context_id\(s\) with no row in contexts: 42/);
  });
  it("a context_id given twice with different frames is an error", () => {
    const twice = makeBundleTable("contexts", "r", { context_id: [1, 1], frames: [c1, c2] });
    expect(() => anomalousGroups(tasks, twice)).toThrow(
      /contexts row 1: context_id 1 appears twice with different frames/,
    );
  });
});

describe("anomalyReport", () => {
  it("prints Figure 5's lines 1–9 per anomalous group, the dependency per context (Figure 6), by issue", () => {
    const text = anomalyReport(anomalousGroups(tasks, contexts));
    const block = text.split("```")[1]!.trim().split("\n");
    expect(block).toEqual([
      "1. contexts: c1, c3",
      "2.   max queuing time: 2080.00ms   (max execution time: 100.00ms)",
      "3.   pool capacity: 1",
      "4.   cases of queuing time ≥ 500ms: 2",
      "5.     avg. queue length: 1.50",
      "6.     avg. execution time of the in-queue tasks: 1366.67ms",
      "7.   runtime dependency: c2, c1",
      "8.     execution time of c2    max: 2000.00ms    avg. 2000.00ms    (group 1, waited behind 2×)",
      "9.     execution time of c1    max: 100.00ms    avg. 100.00ms    (group 0, waited behind 1×)",
    ]);
    // the waiting group and the group it waited behind are one issue (Table 2 ranks issues), led by the waiter
    expect(text).toContain("## Issue 1 of 1: group 0 (contexts 1, 3), with group 1 it waited behind");
    expect(text).toContain("### Group 0 (rank 1 of the groups, contexts 1, 3)");
    expect(text).toContain("### Group 1 (rank 2 of the groups, contexts 2)");
    expect(text).toContain("  AsyncTask.executeOnExecutor(<Xposed>)");
    expect(text).toContain("4.   cases of queuing time ≥ 500ms: 0");
  });
  it("prints the τ the groups were judged against when none is passed (it once said 500)", () => {
    const groups = anomalousGroups(tasks, contexts, { tauMs: 1500 });
    expect(groups.every((g) => g.tauMs === 1500)).toBe(true);
    const text = anomalyReport(groups);
    expect(text).toContain("cases of queuing time ≥ 1500ms");
    expect(text).not.toContain("≥ 500ms");
    expect(anomalyReport([], { tauMs: 300 })).toContain("≤ 300ms");
  });
  it("says when nothing is anomalous", () => {
    expect(anomalyReport([])).toBe("No anomalous task group: every queuing and execution time is ≤ 500ms.\n");
  });
  it("names unfinished tasks", () => {
    const open = tasksTable([...rows, { id: 9, ctx: 1, s: 30, b: null, e: null }]);
    expect(anomalyReport(anomalousGroups(open, contexts))).toContain(
      "1 never started (queued until the trace end)",
    );
  });
});

const { document } = parseHTML("<!doctype html><html><body></body></html>");
const render = (chart: Plot.PlotOptions | PlotSpec) => {
  const node = Plot.plot({ ...chartOptions(chart), document } as Plot.PlotOptions) as unknown as Element;
  return node.tagName.toLowerCase() === "svg"
    ? node
    : [...node.children].filter((c) => c.tagName.toLowerCase() === "svg").pop()!;
};

describe("DiagDroid plots render", () => {
  it("ranked groups: one bar per metric per group", () => {
    const svg = render(anomalousGroupsPlot(anomalousGroups(tasks, contexts)));
    expect(svg.querySelectorAll("g[aria-label='bar'] rect").length).toBe(4);
  });
  it("timeline of the queued group: queued and running spans on its unit only", () => {
    const spans = queueTimeline(tasks, { contextIds: [1, 3] });
    expect(spans.map((s) => [s.taskId, s.phase, s.start, s.end, s.chosen])).toEqual([
      ["3", "queued", 20, 2100, true],
      ["3", "running", 2100, 2200, true],
      ["2", "queued", 10, 2000, true],
      ["2", "running", 2000, 2100, true],
      ["1", "running", 0, 2000, false],
    ]);
    expect(render(queueTimelinePlot(spans)).querySelectorAll("g[aria-label='bar'] rect").length).toBe(5);
  });
  it("before/after delay distributions (Figures 11–12)", () => {
    const after = tasksTable(rows.map((r) => ({ ...r, b: r.s, e: r.s + 100, unit: `pool${r.id}` })));
    const data = delayDistribution(tasks, after);
    expect(data.filter((d) => d.run === "after" && d.kind === "queuing").map((d) => d.ms)).toEqual([
      0, 0, 0, 0,
    ]);
    expect(data.filter((d) => d.run === "before" && d.kind === "queuing").map((d) => d.ms)).toEqual([
      0, 1990, 2080, 0,
    ]);
    // Each facet (run x kind) counts every one of the four tasks once: bar heights read back through y.
    const node = Plot.plot({
      ...chartOptions(delayDistributionPlot(data)),
      document,
    } as Plot.PlotOptions) as unknown as Element & {
      scale(name: string): { apply(x: number): number };
    };
    const y = node.scale("y");
    const perUnit = y.apply(0) - y.apply(1);
    const facets = [...node.querySelectorAll("g[aria-label='rect'] > g")].map((g) =>
      [...g.querySelectorAll("rect")].reduce((n, r) => n + Number(r.getAttribute("height")) / perUnit, 0),
    );
    expect(facets.map((n) => Math.round(n * 1000) / 1000)).toEqual([4, 4, 4, 4]);
  });
});
