// The `jb` namespace notebooks see (cells/index.ts, one explicit list per paper): what a notebook may call is
// chosen, not whatever a file happens to export. A new export, or a helper leaking in, fails here by name.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as jb from "../../cells/index";
import { DIAGDROID } from "../../cells/diagdroid/defaults";
import { DRAW } from "../../cells/draw/defaults";
import { DUNE } from "../../cells/dune/defaults";

const COLUMN_READER = [
  "bigint64",
  "bool",
  "checkColumns",
  "float64",
  "int32",
  "int32AsFloat",
  "int64",
  "optional",
  "readColumns",
  "stringCodes",
  "utf8",
  "utf8List",
];

const EXPECTED: Record<keyof typeof jb, string[]> = {
  common: [...COLUMN_READER, "PLAUSIBLE_FRAMES_SQL", "TIME_AXIS"],
  dune: [
    "defaults",
    "frameMetrics",
    "frameMetricsPlot",
    "frameMetricsBySql",
    "FRAME_METRICS_MAX_ROWS",
    "toRunMetrics",
    "similarityWeights",
    "similarityWeightsPlot",
    "iqrFlags",
    "iqrFlagsPlot",
    "deviationLabels",
    "deviationLabelsPlot",
    "regressedEvents",
    "smallestFlaggingGroup",
    "aprioriReport",
    "aprioriPlot",
    "formatRule",
    "eventPrecisionRecall",
    "eventPrecisionRecallPlot",
  ],
  diagdroid: [
    "defaults",
    "queueMetrics",
    "waitedBehind",
    "anomalousGroups",
    "anomalousGroupsPlot",
    "anomalyIssues",
    "issueOf",
    "anomalyReport",
    "queueTimeline",
    "queueTimelinePlot",
    "delayDistribution",
    "delayDistributionPlot",
  ],
  draw: [
    "defaults",
    "preprocessRenderOps",
    "overdrawDepth",
    "overdrawDepthPlot",
    "overdrawRegions",
    "frameCoverage",
    "renderingEfficiency",
    "renderingEfficiencyPlot",
    "userInteractions",
    "FEATURE_NAMES",
    "correlationGraphPlot",
    "rootCauses",
    "rootCausePlot",
    "contributions",
  ],
  compare: [
    "compareRuns",
    "measureRuns",
    "judgeRuns",
    "COMPARE_ANALYSES",
    "compareMetric",
    "COMPARE_DEFAULTS",
    "whatChanged",
    "whatChangedPlot",
    "whatChangedListPlot",
    "regressions",
    "rankRows",
    "parseRunFilter",
    "matchesFilter",
    "checkSides",
    "mannWhitney",
    "cliffsDelta",
    "benjaminiHochberg",
    "bootstrapRuns",
    "bootstrapBlocks",
    "differentialProfile",
    "differentialFlamePlot",
    "differentialFlameRows",
  ],
  androscope: [
    "methodProfile",
    "methodProfilePlot",
    "methodList",
    "methodChoices",
    "threadList",
    "callTree",
    "callTreePlot",
    "attributeCounters",
    "callSegments",
    "callSegmentsPlot",
    "callTimelineSource",
    "callTimelineSummary",
    "callTimelineSummaryQueries",
    "counterSeries",
    "counterSeriesPlot",
    "heapSeries",
    "heapSeriesPlot",
  ],
};

/** The namespace as a plain object, read by paper name. */
const papers: Record<string, object> = { ...jb };
const sorted = (xs: readonly string[]) => [...xs].sort();

describe("the jb namespace", () => {
  it("has one namespace per paper, common and compare", () => {
    expect(sorted(Object.keys(papers))).toEqual(sorted(Object.keys(EXPECTED)));
  });

  it.each(Object.keys(EXPECTED) as (keyof typeof jb)[])("jb.%s holds exactly its chosen names", (paper) => {
    expect(sorted(Object.keys(papers[paper]!))).toEqual(sorted(EXPECTED[paper]));
  });

  it("gives each paper's defaults as the object its cells read", () => {
    expect(jb.dune.defaults).toBe(DUNE);
    expect(jb.diagdroid.defaults).toBe(DIAGDROID);
    expect(jb.draw.defaults).toBe(DRAW);
    expect(jb.diagdroid.defaults.tauMs).toBe(500); // §4.2
  });

  it("keeps internal helpers out (they stay importable from their own files)", () => {
    for (const [paper, helper] of [
      ["dune", "quartiles"],
      ["diagdroid", "editDistance"],
      ["draw", "pearson"],
      ["androscope", "callTimelineQuery"],
      ["common", "zoomWindow"],
    ] as const)
      expect(Object.keys(papers[paper]!), `jb.${paper}.${helper}`).not.toContain(helper);
  });

  it("is written name by name: no index.ts under cells/ re-exports a whole file", () => {
    const indexes = readdirSync("cells", { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith("index.ts") && f !== "index.ts")
      .map((f) => join("cells", f));
    expect(indexes.length).toBe(6);
    for (const f of indexes) expect(readFileSync(f, "utf8"), f).not.toMatch(/export \*/);
  });
});
