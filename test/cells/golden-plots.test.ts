// Each cell's default chart on a small hand-made input, against its golden SVG (test/golden-svg.ts).
import type * as Plot from "@observablehq/plot";
import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../bundle/table-builder";
import { callTree, callTreePlot } from "../../cells/androscope/call-tree";
import { callSegments, callSegmentsPlot } from "../../cells/androscope/segments";
import { callTimelinePlot } from "../../cells/androscope/call-timeline";
import {
  counterSeries,
  counterSeriesPlot,
  heapSeries,
  heapSeriesPlot,
} from "../../cells/androscope/counter-series";
import { methodProfile, methodProfilePlot } from "../../cells/androscope/method-profile";
import {
  anomalousGroups,
  anomalousGroupsPlot,
  delayDistribution,
  delayDistributionPlot,
  queueTimeline,
  queueTimelinePlot,
} from "../../cells/diagdroid/index";
import { overdrawDepthPlot, overdrawRegions } from "../../cells/draw/overdraw-depth";
import { preprocessRenderOps } from "../../cells/draw/render-trace";
import { renderingEfficiency, renderingEfficiencyPlot } from "../../cells/draw/rendering-efficiency";
import { correlationGraphPlot } from "../../cells/draw/correlation-graph";
import { rootCausePlot, rootCauses } from "../../cells/draw/root-cause";
import { userInteractions } from "../../cells/draw/user-interactions";
import {
  apriori,
  aprioriPlot,
  deviationLabels,
  deviationLabelsPlot,
  eventPrecisionRecall,
  eventPrecisionRecallPlot,
  frameMetrics,
  frameMetricsPlot,
  iqrFlags,
  iqrFlagsPlot,
  similarityWeights,
  similarityWeightsPlot,
} from "../../cells/dune/index";
import { goldenSvgMismatch } from "../golden-svg";
import { callsTable, flatten, HAND_THREADS } from "./androscope/call-table";
import { tasksTable, type T } from "./diagdroid/tasks-fixture";
import { renderOps, type OpRow } from "./draw/render-ops-fixture";

const ns = (ms: number) => BigInt(Math.round(ms * 1e6));
const MS = 1_000_000;

// DUNE: four frames (two over the 16.67 ms deadline) and a click; Figure 8's cluster; Figure 9's rules.
function dune(): Record<string, Plot.PlotOptions> {
  const dur = [10, 20, 16, 40].map(ns);
  const frames = makeBundleTable("frames", "r", {
    intended_vsync: [0, 16, 32, 48].map(ns),
    duration: dur,
    deadline: dur.map(() => 0n),
    jank: dur.map(() => false),
  });
  const events = makeBundleTable("ui_events", "r", { ts: [ns(20)], seq: [0], kind: ["click"] });
  const hist = [448, 453, 450, 457, 430].map((f) => ({
    context: {},
    metrics: { frames: f, smoothRatio: 0.9, meanFrameMs: 10 },
  }));
  const labels = deviationLabels(
    { context: {}, metrics: { frames: 270, smoothRatio: 0.9, meanFrameMs: 10 } },
    hist,
    {
      dimensions: [],
    },
  );
  const rules = apriori(
    [
      { sdk: "5.0.0", label: "Outlier-" },
      { sdk: "5.0.0", label: "Outlier-" },
      { sdk: "4.4", label: "N" },
    ],
    { minSupport: 0.3, minConfidence: 0.9, consequentAttribute: "label" },
  );
  const xs = [448, 453, 450, 457, 430, 270];
  return {
    "dune-frame-metrics": frameMetricsPlot(frameMetrics(frames, { uiEvents: events })),
    "dune-deviation-labels": deviationLabelsPlot(labels),
    "dune-apriori": aprioriPlot(rules),
    "dune-iqr-flags": iqrFlagsPlot(iqrFlags(xs), xs),
    "dune-similarity-weights": similarityWeightsPlot(
      similarityWeights({ a: "1" }, [{ a: "1" }, { a: "2" }], ["a"]),
    ),
    "dune-event-precision-recall": eventPrecisionRecallPlot([
      eventPrecisionRecall([3, 5], [3]),
      eventPrecisionRecall([3], [3, 7]),
    ]),
  };
}

// DiagDroid: Figure 5's case (an UpdateLawList task queued behind a slow LawSectionList task).
function diagdroid(): Record<string, Plot.PlotOptions> {
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
    "diagdroid-anomalous-groups": anomalousGroupsPlot(anomalousGroups(tasks, contexts)),
    "diagdroid-queue-timeline": queueTimelinePlot(queueTimeline(tasks, { contextIds: [1, 3] })),
    "diagdroid-delay-distribution": delayDistributionPlot(delayDistribution(tasks, after)),
  };
}

// DRAW: a 400x800 screen; a list whose second row is covered by an opaque dialog in frame 1.
function draw(): Record<string, Plot.PlotOptions> {
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
  const slow = slowGallery();
  const ui = userInteractions(slow.trace, slow.events, { screen });
  const causes = rootCauses(slow.trace, ui.interactions);
  return {
    "draw-overdraw-depth": overdrawDepthPlot(regions, { screen }),
    "draw-rendering-efficiency": renderingEfficiencyPlot(renderingEfficiency(trace, { screen })),
    "draw-correlation-graph": correlationGraphPlot(causes.graph, causes.scores),
    "draw-root-cause": rootCausePlot(causes),
  };
}

/** Case study 4 in small: 24 clicks, a list of two rows and a gallery whose draw is slow every other time. */
function slowGallery() {
  const rows: OpRow[] = [];
  const ts: bigint[] = [];
  let seed = 11;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 24; i++) {
    const t0 = i * 200 * MS;
    ts.push(BigInt(t0));
    const gallery = (i % 2 === 0 ? 6 + 3 * rand() : 0.4) * MS;
    rows.push({
      frame: i,
      view: 1,
      op: "draw",
      start: t0 + MS,
      dur: gallery + 2.5 * MS,
      rect: [0, 0, 400, 800],
      bg: true,
    });
    for (let k = 0; k < 2; k++)
      rows.push({
        frame: i,
        view: 10 + k,
        parent: 1,
        cls: "android.widget.TextView",
        op: "draw",
        start: t0 + (1.5 + 0.5 * k) * MS,
        dur: (0.3 + 0.2 * rand()) * MS,
        rect: [0, k * 100, 400, 100],
      });
    rows.push({
      frame: i,
      view: 99,
      parent: 1,
      cls: "com.example.TimeLineGallery",
      op: "draw",
      start: t0 + 2.5 * MS,
      dur: gallery,
      rect: [0, 400, 400, 300],
    });
  }
  const events = makeBundleTable("ui_events", "r1", {
    ts,
    seq: ts.map((_, i) => i),
    kind: ts.map(() => "click"),
  });
  return { trace: preprocessRenderOps(renderOps(rows)), events };
}

// AndroScope: the hand-worked calls (call-table.ts), two counters and two heaps.
function androscope(): Record<string, Plot.PlotOptions> {
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
  const rows = makeTimelineRows();
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
    "androscope-call-timeline": callTimelinePlot(rows, { methods, threads: [{ id: 1, name: "main" }] }),
  };
}

/** The call timeline query's rows for HAND_THREADS' thread 1 at a coarse grid: A and C as calls, B bucketed. */
function makeTimelineRows() {
  const r = [
    ["call", 1, 0, 0, 1000, 1, 1000, 1],
    ["bucket", 1, 1, 100, 125, 2, 15, 2],
    ["call", 1, 1, 300, 900, 1, 600, 3],
    ["bucket", 1, 2, 310, 312, 1, 2, 2],
  ] as const;
  return tableFromArrays({
    kind: r.map((x) => x[0]),
    thread_id: Int32Array.from(r, (x) => x[1]),
    depth: Int32Array.from(r, (x) => x[2]),
    start: BigInt64Array.from(r, (x) => BigInt(x[3] * 1000)),
    end: BigInt64Array.from(r, (x) => BigInt(x[4] * 1000)),
    calls: Int32Array.from(r, (x) => x[5]),
    busy: BigInt64Array.from(r, (x) => BigInt(x[6] * 1000)),
    method_id: BigInt64Array.from(r, (x) => BigInt(x[7])),
  });
}

describe("each cell's default chart matches its golden SVG", () => {
  const charts = { ...dune(), ...diagdroid(), ...draw(), ...androscope() };
  it.each(Object.keys(charts))("%s", (name) => {
    expect(goldenSvgMismatch(name, charts[name]!)).toBe("");
  });
});
