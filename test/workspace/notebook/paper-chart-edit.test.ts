// Every paper chart is a spec the plot form can edit: its channels are columns the form offers, an edit
// wraps the chart call in a plot({...}) literal that, run again, draws the edited chart, and a second edit changes
// that literal.
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import * as jb from "../../../cells/index";
import type { ViewEfficiency } from "../../../cells/draw/rendering-efficiency";
import { columnsOf } from "../../../workspace/components/jb-plot-form";
import { editPlot, plotTargets } from "../../../charts/plot-edit";
import {
  CHANNELS,
  isPlotSpec,
  plot,
  plotRows,
  plotSpecToOptions,
  type PlotSpec,
} from "../../../charts/plot-spec";
import { tasksTable } from "../../cells/diagdroid/tasks-fixture";

const { document } = parseHTML("<!doctype html><html><body></body></html>");

// DiagDroid Figure 5's case: an UpdateLawList task queued 2 s behind a LawSectionList task.
const contexts = makeBundleTable("contexts", "r", {
  context_id: [1, 2],
  frames: [
    ["UpdateLawList.<init>", "LawListFragment.onCreate"],
    ["LawSectionList.<init>", "LawListFragment.onStart"],
  ],
});
const tasks = tasksTable([
  { id: 1, ctx: 2, s: 0, b: 0, e: 2000 },
  { id: 2, ctx: 1, s: 10, b: 2000, e: 2100 },
]);
const ranking = [
  { viewId: 7, viewClass: "android.widget.TextView", res: 0.5, xmlId: "title", layoutFile: "row.xml" },
  { viewId: 9, viewClass: "android.widget.ImageView", res: 40, xmlId: null, layoutFile: null },
] as unknown as ViewEfficiency[];
const xs = [448, 453, 450, 457, 430, 270];
const rows = [
  { device: "a", label: "Outlier-" },
  { device: "a", label: "Outlier-" },
  { device: "b", label: "N" },
];

// Results made by hand in the shape the cells return (the cells' own tests check how they are computed).
const frameRun = {
  runId: "r",
  total: { frames: 3, jankyFrames: 1 },
  ruleText: "fixed deadline 16.67 ms for 3 frames",
  timeline: {
    start: Float64Array.of(0, 16e6, 40e6),
    durationMs: Float64Array.of(10, 30, 12),
    deadlineMs: Float64Array.of(16.67, 16.67, 16.67),
    jank: Uint8Array.of(0, 1, 0),
  },
  buckets: [{ bucket: 1, event: { ts: 10e6, seq: 0, kind: "click" } }],
};
const graph = {
  root: "rendering_time",
  nodes: [{ id: "draw_time_avg", corr: 0.8 }],
  edges: [{ from: "rendering_time", to: "draw_time_avg", weight: 0.8 }],
  levels: { rendering_time: 0, draw_time_avg: 1 },
  learnt: [],
  bic: 0,
  bins: 3,
  maxParents: 3,
};
const scores = { rendering_time: { iv: 1, sig: 1 }, draw_time_avg: { iv: 0.8, sig: 0.8 } };
const rootCause = {
  metric: "rendering_time",
  ranking: [
    {
      viewId: 7,
      viewClass: "android.widget.GridView",
      xmlId: "gridview",
      layoutFile: null,
      rcs: 0.9,
      features: [{ feature: "draw_time_avg", share: 1 }],
    },
  ],
};
const segments = {
  cpus: "single",
  pieces: {
    call: Int32Array.of(0, 1),
    thread: Int32Array.of(1, 2),
    cpu: Int32Array.of(0, 0),
    start: Float64Array.of(0, 2e6),
    end: Float64Array.of(2e6, 5e6),
  },
};
const profile = [
  { name: "a.B.run", inclusive: 5e6, exclusive: 1e6 },
  { name: "a.B.decode", inclusive: 4e6, exclusive: 4e6 },
];

/** Each paper chart: the variables its cell code names, the code, and an edit of the mark and one channel. */
const CHARTS: [code: string, scope: Record<string, unknown>][] = [
  ["jb.diagdroid.anomalousGroupsPlot(groups)", { groups: jb.diagdroid.anomalousGroups(tasks, contexts) }],
  ["jb.diagdroid.queueTimelinePlot(spans)", { spans: jb.diagdroid.queueTimeline(tasks) }],
  ["jb.diagdroid.delayDistributionPlot(delays)", { delays: jb.diagdroid.delayDistribution(tasks, tasks) }],
  [
    "jb.dune.similarityWeightsPlot(w)",
    { w: jb.dune.similarityWeights({ d: "a" }, [{ d: "a" }, { d: "b" }], ["d"]) },
  ],
  ["jb.dune.iqrFlagsPlot(flags, xs)", { flags: jb.dune.iqrFlags(xs), xs }],
  ["jb.dune.eventPrecisionRecallPlot(pr)", { pr: [jb.dune.eventPrecisionRecall([1, 2], [2, 3])] }],
  ["jb.dune.aprioriPlot(report)", { report: jb.dune.aprioriReport(rows, { minSupport: 0.3 }) }],
  ["jb.draw.renderingEfficiencyPlot(ranking)", { ranking }],
  [
    "jb.draw.overdrawDepthPlot(regions, {screen})",
    {
      regions: jb.draw.overdrawRegions([{ left: 0, top: 0, width: 4, height: 2 }], { width: 4, height: 4 }),
      screen: { width: 4, height: 4 },
    },
  ],
  ["jb.dune.frameMetricsPlot(metrics)", { metrics: [frameRun] }],
  ["jb.draw.correlationGraphPlot(graph, scores)", { graph, scores }],
  ["jb.draw.rootCausePlot(result)", { result: rootCause }],
  ["jb.androscope.callSegmentsPlot(segments)", { segments }],
  ["jb.androscope.methodProfilePlot(profile)", { profile }],
  [
    "jb.dune.deviationLabelsPlot(labels)",
    {
      labels: jb.dune.deviationLabels(
        { context: {}, metrics: { frames: 270, smoothRatio: 0.4, meanFrameMs: 40 } },
        [448, 453, 450, 457, 430].map((frames) => ({
          context: {},
          metrics: { frames, smoothRatio: 0.9, meanFrameMs: 45 },
        })),
        { dimensions: [] },
      ),
    },
  ],
  [
    'jb.androscope.counterSeriesPlot(intervals, "IPC")',
    { intervals: [{ counter: "IPC", start: 0, end: 10e6, value: 5, rate: 0.5, cpu: null }] },
  ],
  [
    "jb.androscope.heapSeriesPlot(heap)",
    {
      heap: [
        { ts: 0, kind: "java_heap", bytes: 1048576 },
        { ts: 10e6, kind: "java_heap", bytes: 2097152 },
      ],
    },
  ],
];

/** Runs a cell's code the way the runtime does for these names, returning what it displayed. */
function run(code: string, scope: Record<string, unknown>): unknown[] {
  const shown: unknown[] = [];
  const display = (v: unknown) => (shown.push(v), v);
  const names = Object.keys(scope);
  new Function("jb", "plot", "display", ...names, code)(jb, plot, display, ...names.map((n) => scope[n]));
  return shown;
}

const svgOf = (spec: PlotSpec) => {
  const node = Plot.plot({ ...plotSpecToOptions(spec), document }) as unknown as Element;
  return node.tagName.toLowerCase() === "svg"
    ? node
    : [...node.children].filter((c) => c.tagName.toLowerCase() === "svg").pop()!;
};

describe.each(CHARTS)("%s", (call, scope) => {
  const code = `display(${call});`;
  const [chart] = run(code, scope) as PlotSpec[];

  it("is an editable spec whose channels are columns the form offers", () => {
    expect(isPlotSpec(chart)).toBe(true);
    const offered = columnsOf(chart!.data);
    const used = CHANNELS.filter((c) => chart![c]);
    expect(used.length).toBeGreaterThan(0);
    for (const c of used) expect(offered, `${c}: ${chart![c]}`).toContain(chart![c]);
    // Plain data, no functions: it survives the cell worker's structured clone.
    expect(structuredClone({ ...chart, data: [] })).toBeTruthy();
  });

  it("an edit wraps the call in a plot({...}) literal; run again, it draws the edited chart", () => {
    const target = plotTargets([chart])[0]!;
    const other = CHANNELS.find((c) => !chart![c] && c !== "fx" && c !== "fy")!;
    const column = columnsOf(chart!.data)[0]!;
    const edited = editPlot(code, target, { mark: "dot", [other]: column });
    expect(edited).toBe(`display(plot({...${call}, mark: "dot", ${other}: ${JSON.stringify(column)}}));`);
    const [again] = run(edited, scope) as PlotSpec[];
    expect({ ...again, mark: chart!.mark, [other]: undefined, __plotCall: undefined }).toEqual({
      ...chart,
      __plotCall: undefined,
    });
    expect([again!.mark, again![other]]).toEqual(["dot", column]);
    // The editable mark is now dots: as many circles as drawn rows (the iqr strip already was dots).
    const svg = svgOf(again!);
    const circles = svg.querySelectorAll("g[aria-label='dot'] circle").length;
    // One dot per row; binned (the delay histograms): one per non-empty bin, at most one per row.
    if (chart!.binX) expect(circles).toBeGreaterThan(0);
    else expect(circles).toBe(plotRows(again!).length);
    // A second edit lands in the literal; clearing a channel the spread brings writes null.
    const twice = editPlot(edited, plotTargets([again])[0]!, { [other]: null });
    expect(twice).toBe(`display(plot({...${call}, mark: "dot", ${other}: null}));`);
    expect((run(twice, scope)[0] as PlotSpec)[other]).toBeNull();
  });
});

describe("plotTargets", () => {
  it("counts plot({...}) literals and each chart function's calls apart", () => {
    const a = { __plotSpec: true, origin: "anomalousGroupsPlot" };
    const lit = { __plotSpec: true, __plotCall: true, origin: "anomalousGroupsPlot" };
    expect(plotTargets([a, "text", lit, a, { __plotSpec: true }])).toEqual([
      { origin: "anomalousGroupsPlot", call: 0 },
      undefined,
      { literal: 0 },
      { origin: "anomalousGroupsPlot", call: 1 },
      { literal: 1 },
    ]);
  });
  it("edits the second call of a chart function, skipping calls already wrapped and those in strings", () => {
    const code = [
      `// jb.draw.renderingEfficiencyPlot(a)`,
      `display(plot({...jb.draw.renderingEfficiencyPlot(a), mark: "dot"}));`,
      `display(jb.draw.renderingEfficiencyPlot(a, {top: 3}));`,
      `display(jb.draw.renderingEfficiencyPlot(b));`,
    ].join("\n");
    expect(editPlot(code, { origin: "renderingEfficiencyPlot", call: 1 }, { y: "rank" })).toBe(
      code.replace(
        "display(jb.draw.renderingEfficiencyPlot(b));",
        `display(plot({...jb.draw.renderingEfficiencyPlot(b), y: "rank"}));`,
      ),
    );
    expect(() => editPlot(code, { origin: "renderingEfficiencyPlot", call: 2 }, { y: "rank" })).toThrow(
      "no call #3 of renderingEfficiencyPlot(...) in this cell",
    );
  });
});
