// Each cell's default chart on a small hand-made input, against its golden SVG (test/golden-svg.ts); the DUNE
// charts and DRAW's correlation graph and root causes are checked beside their other tests (plots.test.ts,
// root-cause.test.ts).
import type * as Plot from "@observablehq/plot";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../bundle/table-builder";
import { callTree, callTreePlot } from "../../cells/androscope/call-tree";
import { callSegments, callSegmentsPlot } from "../../cells/androscope/segments";
import {
  counterSeries,
  counterSeriesPlot,
  heapSeries,
  heapSeriesPlot,
} from "../../cells/androscope/counter-series";
import { methodProfile, methodProfilePlot } from "../../cells/androscope/method-profile";
import * as diagdroid from "../../cells/diagdroid/index";
import { overdrawDepthPlot, overdrawRegions } from "../../cells/draw/overdraw-depth";
import { preprocessRenderOps } from "../../cells/draw/render-trace";
import { renderingEfficiency, renderingEfficiencyPlot } from "../../cells/draw/rendering-efficiency";
import type { PlotSpec } from "../../charts/plot-spec";
import { goldenSvgMismatch } from "../golden-svg";
import { callsTable, flatten, HAND_THREADS } from "./androscope/call-table";
import { tasksTable, type T } from "./diagdroid/tasks-fixture";
import { renderOps } from "./draw/render-ops-fixture";

const MS = 1_000_000;

// DiagDroid: Figure 5's case (an UpdateLawList task queued behind a slow LawSectionList task).
function diagdroidCharts(): Record<string, Plot.PlotOptions | PlotSpec> {
  const c1 = ["UpdateLawList.<init>", "AsyncTask.execute(AsyncTask.java:534)", "LawListFragment.onCreate"];
  const c2 = ["LawSectionList.<init>", "LawSectionList.load", "LawListFragment.onStart"];
  const c3 = ["UpdateLawList.<init>", "AsyncTask.execute(AsyncTask.java:539)", "LawListFragment.onCreate"];
  const contexts = makeBundleTable("contexts", "r", { context_id: [1, 2, 3], frames: [c1, c2, c3] });
  const rows: T[] = [
    { id: 1, ctx: 2, s: 0, b: 0, e: 2000 },
    { id: 2, ctx: 1, s: 10, b: 2000, e: 2100 },
    { id: 3, ctx: 3, s: 20, b: 2100, e: 2200 },
  ];
  const tasks = tasksTable(rows);
  const after = tasksTable(rows.map((r) => ({ ...r, b: r.s, e: r.s + 100, unit: `pool${r.id}` })));
  return {
    "diagdroid-anomalous-groups": diagdroid.anomalousGroupsPlot(diagdroid.anomalousGroups(tasks, contexts)),
    "diagdroid-queue-timeline": diagdroid.queueTimelinePlot(
      diagdroid.queueTimeline(tasks, { contextIds: [1, 3] }),
    ),
    "diagdroid-delay-distribution": diagdroid.delayDistributionPlot(
      diagdroid.delayDistribution(tasks, after),
    ),
  };
}

// DRAW: a 400x800 screen; a list whose second row is covered by an opaque dialog in frame 1.
function drawCharts(): Record<string, Plot.PlotOptions | PlotSpec> {
  const screen = { width: 400, height: 800 };
  const regions = overdrawRegions(
    [
      { left: 0, top: 0, width: 400, height: 800 },
      { left: 0, top: 0, width: 200, height: 100 },
    ],
    screen,
  );
  const trace = preprocessRenderOps(
    renderOps([
      { frame: 0, view: 1, op: "draw", start: 0, dur: 4 * MS, rect: [0, 0, 400, 800], bg: true },
      { frame: 0, view: 2, parent: 1, op: "draw", start: MS, dur: MS, rect: [0, 0, 400, 100], bg: true },
      {
        frame: 0,
        view: 3,
        parent: 1,
        op: "draw",
        start: 2 * MS,
        dur: MS,
        rect: [0, 100, 400, 100],
        bg: true,
      },
      { frame: 1, view: 1, op: "draw", start: 20 * MS, dur: 6 * MS, rect: [0, 0, 400, 800], bg: true },
      {
        frame: 1,
        view: 3,
        parent: 1,
        op: "draw",
        start: 21 * MS,
        dur: 2 * MS,
        rect: [0, 100, 400, 100],
        bg: true,
      },
      {
        frame: 1,
        view: 4,
        parent: 1,
        op: "draw",
        start: 23 * MS,
        dur: 2 * MS,
        rect: [0, 0, 400, 400],
        bg: true,
      },
    ]),
  );
  return {
    "draw-overdraw-depth": overdrawDepthPlot(regions, { screen }),
    "draw-rendering-efficiency": renderingEfficiencyPlot(renderingEfficiency(trace, { screen })),
  };
}

// AndroScope: the hand-worked calls (call-table.ts), two counters and two heaps.
function androscopeCharts(): Record<string, Plot.PlotOptions | PlotSpec> {
  const calls = callsTable(HAND_THREADS, "t", 0.5);
  const methods = [1, 2, 3].map((id) => ({
    id,
    className: "p.C",
    methodName: "ABC"[id - 1]!,
    signature: "()V",
  }));
  const hpc = makeBundleTable("hpc_samples", "t", {
    ts: [0, 10, 20, 0, 10, 20].map((m) => BigInt(m * MS)),
    counter: ["cpu-cycles", "cpu-cycles", "cpu-cycles", "instructions", "instructions", "instructions"],
    value: Float64Array.from([0, 1000, 3000, 0, 500, 3000]),
  });
  const heap = makeBundleTable("heap_samples", "t", {
    ts: [0, 10, 20, 0, 30].map((m) => BigInt(m * MS)),
    kind: ["java_heap", "java_heap", "java_heap", "native_heap", "native_heap"],
    value: [1, 3, 2, 4, 5].map((mb) => BigInt(mb * 1048576)),
  });
  // One record per entry and exit of the hand-worked calls, on the wall clock: no CPU ids, one shared CPU.
  const records = flatten(HAND_THREADS).flatMap((c) => [
    { thread: c.thread, method: c.method, action: "enter", wall: c.enter },
    { thread: c.thread, method: c.method, action: "exit", wall: c.exit },
  ]);
  records.sort((a, b) => a.wall - b.wall);
  const events = makeBundleTable("method_events", "t", {
    thread_id: records.map((r) => r.thread),
    method_id: records.map((r) => BigInt(r.method)),
    action: records.map((r) => r.action),
    wall: records.map((r) => BigInt(r.wall)),
  });
  return {
    "androscope-call-tree": callTreePlot(callTree(calls, methods, 1)),
    "androscope-method-profile": methodProfilePlot(methodProfile(calls, methods)),
    "androscope-counter-series": counterSeriesPlot(counterSeries(hpc), "IPC"),
    "androscope-heap-series": heapSeriesPlot(heapSeries(heap)),
    "androscope-call-segments": callSegmentsPlot(callSegments(calls, events)),
  };
}

describe("each cell's default chart matches its golden SVG", () => {
  const charts = { ...diagdroidCharts(), ...drawCharts(), ...androscopeCharts() };
  it.each(Object.keys(charts))("%s", (name) => {
    expect(goldenSvgMismatch(name, charts[name]!)).toBe("");
  });
});
