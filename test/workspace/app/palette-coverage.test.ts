// Every analysis in cells/ is in reach from the palette: each function or constant a paper's index.ts
// exports is called by some palette entry as jb.<paper>.<name>, or is listed here as a helper with the reason it
// has no entry of its own (internal helpers are not in jb: test/cells/jb-namespace.test.ts). And the DiagDroid entry's two thresholds, moved from outside, change its report.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as jb from "../../../cells/index";
import { ANALYSES } from "../../../workspace/app/analysis-palette";
import { insertCell, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import { SAMPLES_DIR, runNotebookFile } from "../../../workspace/node/headless";

const DEFAULTS = "the paper's parameters, each written once: notebooks read them and the results carry them";
const COLUMN_READERS = "column readers for cells and notebooks' own code, not an analysis";
// A comparison has two sides, not one run: it is its own notebook, opened from the runs table's baseline and
// candidate marks (docs/compare.md), not a cell to insert into another notebook.
const COMPARE = "two sides, not one run's analysis: notebooks/compare.md, opened from the runs table's marks";
const COMPARE_SIDES = "how `jankbook compare` and the compare notebook pick their sides";
const COMPARE_STATISTICS = "the statistics under compareRuns";
const HELPERS: Record<string, string> = {
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
  "common.TIME_AXIS": "the x geometry the timeline and the charts linked under it share",
  "draw.FEATURE_NAMES": "names of the interaction features",
  "draw.contributions": "one feature's contributions, inside rootCauses (Eq. 3)",
  "dune.formatRule": "formats a rule for tables; aprioriPlot uses it",
  "dune.frameMetricsBySql":
    "frameMetrics with the counting done by the engine past FRAME_METRICS_MAX_ROWS frames (frames-overview.md); the palette's frame-metrics entry inserts frameMetrics",
  "dune.FRAME_METRICS_MAX_ROWS": "the frame count past which frameMetricsBySql counts in the engine",
  "dune.similarityWeights":
    "run by deviationLabels; the similarity entry draws its result (similarityWeightsPlot)",
  "diagdroid.defaults": DEFAULTS,
  "diagdroid.anomalyIssues": "run by anomalyReport: the anomalous-groups entry prints its issues",
  "diagdroid.issueOf": "which issue a group belongs to, for notebooks that link a group to its issue",
  "dune.smallestFlaggingGroup": "run by deviationLabels, which says when a group is too small to flag",
  "compare.compareRuns": COMPARE,
  "compare.measureRuns": COMPARE,
  "compare.judgeRuns": COMPARE,
  "compare.COMPARE_ANALYSES": COMPARE,
  "compare.compareMetric": COMPARE,
  "compare.COMPARE_DEFAULTS": COMPARE,
  "compare.whatChanged": COMPARE,
  "compare.whatChangedPlot": COMPARE,
  "compare.whatChangedListPlot": COMPARE,
  "compare.regressions": COMPARE,
  "compare.rankRows": COMPARE,
  "compare.differentialProfile": COMPARE,
  "compare.differentialFlamePlot": COMPARE,
  "compare.differentialFlameRows": COMPARE,
  "compare.parseRunFilter": COMPARE_SIDES,
  "compare.matchesFilter": COMPARE_SIDES,
  "compare.checkSides": COMPARE_SIDES,
  "compare.mannWhitney": COMPARE_STATISTICS,
  "compare.cliffsDelta": COMPARE_STATISTICS,
  "compare.benjaminiHochberg": COMPARE_STATISTICS,
  "compare.bootstrapRuns": COMPARE_STATISTICS,
  "compare.bootstrapBlocks": COMPARE_STATISTICS,
  "draw.defaults": DEFAULTS,
  "dune.defaults": DEFAULTS,
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
    // issue by issue: the filter queue (c5) with the group it waited behind (c2) is the first issue
    expect(groups(text)).toEqual(["c5", "c2", "c0", "c3"]);
    expect(text).toContain("4.   cases of queuing time ≥ 500ms: 4");
  });
  it("distance 3 merges the OpenLaw contexts and the 3-frame stacks: two groups", async () => {
    expect(groups(await report({ ddMaxDistance: "3" }))).toEqual(["c1, c3, c4, c5, c6", "c0, c2"]);
  });
  it("τ = 280 ms adds SyncService (Me 300 ms) and a fifth slow filter case", async () => {
    const text = await report({ tau: "280" });
    expect(groups(text)).toEqual(["c5", "c2", "c0", "c3", "c6"]);
    expect(text).toContain("4.   cases of queuing time ≥ 280ms: 5");
    expect(text).not.toContain("≥ 500ms");
  });
});
