// Every analysis in cells/ is in reach from the palette: each function or constant a paper's index.ts
// exports is called by some palette entry as jb.<paper>.<name>, or is listed here as a helper with the reason it
// has no entry of its own. And the DiagDroid entry's two thresholds, moved from outside, change its report.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as jb from "../../../cells/index";
import { ANALYSES } from "../../../workspace/app/analysis-palette";
import { insertCell, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import { SAMPLES_DIR, runNotebookFile } from "../../../workspace/node/headless";

const COLUMN_READERS = "column readers for cells and notebooks' own code, not an analysis";
const TIMELINE_MATH = "zoom and pan of jb.timeline's window";
const TIMELINE_LOD = "the in-memory level of detail behind jb.timeline";
const HELPERS: Record<string, string> = {
  "androscope.CACHE_SCHEMA":
    "the timeline summary cache's schema version, used by callTimelineSummaryQueries",
  "androscope.callTimelineQuery":
    "one zoom level's query, run by callTimelineSource (the call timeline entries reach it through jb.timeline)",
  "androscope.callTimelineExtentQuery":
    "a run's extent and lanes without a summary: the timeline bench's direct path",
  "androscope.checkHpcColumns": "validates hpc_samples for counterSeries and attributeCounters",
  "androscope.exclusiveSegments": "each call's own running stretches, inside attributeCounters",
  "androscope.hpcColumns": "reads hpc_samples for counterSeries and attributeCounters",
  "androscope.shortMethodName":
    "a method's chart label (class without package, simple parameter types), in methodProfilePlot",
  "androscope.methodName": "formats one method of methodList",
  "androscope.summaryLanes": "part of callTimelineSummary (the lanes of the summary rows)",
  "androscope.summaryWindowQuery": "part of callTimelineQuery (the summary's cells in a window)",
  "common.PLAUSIBLE_FRAMES_SQL": "a SQL fragment for notebooks' own frame queries",
  "common.bigint64": COLUMN_READERS,
  "common.bool": COLUMN_READERS,
  "common.checkColumns": COLUMN_READERS,
  "common.float64": COLUMN_READERS,
  "common.int32": COLUMN_READERS,
  "common.int32AsFloat": COLUMN_READERS,
  "common.int64": COLUMN_READERS,
  "common.optional": COLUMN_READERS,
  "common.readColumns": COLUMN_READERS,
  "common.stringCodes": COLUMN_READERS,
  "common.utf8": COLUMN_READERS,
  "common.utf8List": COLUMN_READERS,
  "common.suspectRows": "which frames rows are implausible; frameMetrics applies it",
  "common.timeWindow": "validates a [start, end] window for the AndroScope cells that take one",
  "common.TIME_AXIS": "the x geometry the timeline and the charts linked under it share",
  "common.MIN_SPAN_NS": TIMELINE_MATH,
  "common.clampWindow": TIMELINE_MATH,
  "common.zoomWindow": TIMELINE_MATH,
  "common.panWindow": TIMELINE_MATH,
  "common.pixelOf": TIMELINE_MATH,
  "common.inWindow": TIMELINE_MATH,
  "common.timelineLod": TIMELINE_LOD,
  "common.timelineTracks": TIMELINE_LOD,
  "common.timelineExtent": TIMELINE_LOD,
  "androscope.callTimelineRows": "reads the call timeline query's rows for jb.timeline",
  "diagdroid.Heap": "the priority queue of the queue sweep",
  "diagdroid.TASK_STATES": "names of queueData's task states",
  "diagdroid.boundedEditDistance": "the banded edit distance contextGroups uses",
  "diagdroid.editDistance": "frame edit distance (§4.2), inside contextGroups",
  "diagdroid.editScratch": "scratch buffers for boundedEditDistance",
  "diagdroid.contextFrames": "reads the contexts table for anomalousGroups",
  "diagdroid.contextGroups": "context clustering, run by anomalousGroups with the entry's distance input",
  "diagdroid.queueData": "the typed columns queueMetrics, anomalousGroups and queueTimeline share",
  "diagdroid.readTaskColumns": "reads the tasks table for queueData",
  "diagdroid.sweepQueues": "the queue sweep behind queueData",
  "diagdroid.waitedBehindColumns": "waitedBehind over read columns, used by anomalousGroups",
  "draw.FEATURE_NAMES": "names of the interaction features",
  "draw.OPS": "render op names of the render_ops table",
  "draw.VIEW_STATS": "names of the per-view statistics behind the features",
  "draw.VISIBILITIES": "View visibility values of the render_ops table",
  "draw.clippedArea": "geometry inside frameCoverage",
  "draw.contributions": "one feature's contributions, inside rootCauses (Eq. 3)",
  "draw.correlationGraph": "the Bayesian network, learnt by rootCauses",
  "draw.countIn": "a counting helper of the interaction features",
  "draw.discretize": "equal-frequency bins, inside correlationGraph",
  "draw.frameDisplaySeconds": "how long each frame stayed on screen, inside renderingEfficiency",
  "draw.interactionOf": "one interaction's features, inside userInteractions",
  "draw.pearson": "correlation, inside correlationGraph",
  "draw.significanceScores": "Algorithm 1, run by rootCauses (its scores are in the root cause entry)",
  "draw.visiblePixels": "visible pixels of a frame, inside renderingEfficiency",
  "dune.METRIC_DIRECTION": "which way each metric regresses, for deviationLabels",
  "dune.apriori": "aprioriReport's rules alone (the context rules entry uses the report)",
  "dune.clusterMembers": "the members of a similarity cluster, inside deviationLabels",
  "dune.formatRule": "formats a rule for tables; aprioriPlot uses it",
  "dune.isMissingValue": "what counts as a missing context value",
  "dune.similarityWeights":
    "run by deviationLabels; the similarity entry draws its result (similarityWeightsPlot)",
  "dune.quartiles": "Q1 and Q3 alone, inside iqrFlags",
};

const called = new Set(
  ANALYSES.flatMap((a) =>
    a.cells.flatMap((c) => [...c.source.matchAll(/\bjb\.(\w+)\.(\w+)/g)].map((m) => `${m[1]}.${m[2]}`)),
  ),
);
const exported = Object.entries(jb).flatMap(([paper, m]) => Object.keys(m).map((name) => `${paper}.${name}`));

describe("the palette reaches every analysis in cells/", () => {
  it.each(exported)("%s has a palette entry or is a helper with a reason", (name) => {
    expect(called.has(name) || name in HELPERS, `${name}: no palette entry calls jb.${name}`).toBe(true);
  });
  it("lists no helper that an entry calls or that cells no longer export", () => {
    expect(Object.keys(HELPERS).filter((h) => called.has(h) || !exported.includes(h))).toEqual([]);
  });
  it("reaches each paper's headline analyses", () => {
    for (const name of [
      "draw.rootCauses",
      "draw.correlationGraphPlot",
      "draw.rootCausePlot",
      "diagdroid.delayDistributionPlot",
      "androscope.callSegments",
      "dune.eventPrecisionRecall",
    ])
      expect(called).toContain(name);
  });
});

describe("the DiagDroid entry's τ and context clustering distance", () => {
  async function report(set: Record<string, string>): Promise<string> {
    const entry = ANALYSES.find((a) => a.label.startsWith("DiagDroid: anomalous task groups"))!;
    let nb = parseNotebook("# palette\n");
    for (const c of entry.cells) nb = insertCell(nb, nb.blocks.length, c.kind, c.source, c.name);
    const path = join(await mkdtemp(join(tmpdir(), "jb-palette-dd-")), "palette.md");
    await writeFile(path, serializeNotebook(nb));
    const result = await runNotebookFile(path, { runs: [join(SAMPLES_DIR, "paper-cases-pixel-4a")], set });
    expect(result.states.filter((s) => s.status === "rejected")).toEqual([]);
    const text = result.states
      .flatMap((s) => s.displays)
      .find((d) => (d as { text?: string }).text?.includes("contexts:"));
    return (text as { text: string }).text;
  }
  const groups = (text: string) => [...text.matchAll(/^1\. contexts: (.*)$/gm)].map((m) => m[1]);

  // The sample's seven contexts (paper-cases ground truth): c0 HeadlineComposerAdapter.refresh and c2
  // LawListFragment.onListItemClick are 4 frames sharing only AsyncTask.execute; c1, c3, c4, c6 are 3 frames, c5 is
  // 4. Within 2 edits no two link; within 3 the two OpenLaw contexts do (3 substitutions), and every 3-frame stack
  // links to every other (3 substitutions), c5 to c1 through their shared Handler.sendMessageAtTime (1 deletion,
  // 2 substitutions); c0 and c2 are 4 edits from any 3-frame stack.
  it("at the paper's τ = 500 ms and distance 2: four groups, Transportr's filter queue first with 4 slow cases", async () => {
    const text = await report({});
    expect(groups(text)).toEqual(["c5", "c0", "c3", "c2"]);
    expect(text).toContain("4.   cases of queuing time ≥ 500ms: 4");
  });
  it("distance 3 merges the OpenLaw contexts and the 3-frame stacks: two groups", async () => {
    expect(groups(await report({ ddMaxDistance: "3" }))).toEqual(["c1, c3, c4, c5, c6", "c0, c2"]);
  });
  it("τ = 280 ms adds SyncService (Me 300 ms) and a fifth slow filter case", async () => {
    const text = await report({ tau: "280" });
    expect(groups(text)).toEqual(["c5", "c0", "c3", "c2", "c6"]);
    expect(text).toContain("4.   cases of queuing time ≥ 280ms: 5");
    expect(text).not.toContain("≥ 500ms");
  });
});
