// The "insert analysis" palette: a ready, wired set of cells for each analysis in cells/, inserted where
// the user is. Each entry is a notebook snippet in palette/ (front matter: its title and the tables it reads,
// so it works on whatever runs are loaded), parsed with the notebook format itself; prose in it is a note.
import { parseNotebook, type CellKind } from "../notebook/format";
import callTimeline from "./palette/androscope-call-timeline.md?raw";
import callTree from "./palette/androscope-call-tree-of-a-method.md?raw";
import segments from "./palette/androscope-context-switch-segments.md?raw";
import countersHeap from "./palette/androscope-counters-heap-and-window-profile.md?raw";
import methodProfile from "./palette/androscope-method-profile.md?raw";
import anomalousGroups from "./palette/diagdroid-anomalous-task-groups.md?raw";
import delayDistributions from "./palette/diagdroid-delay-distributions-before-and-after.md?raw";
import queueMetrics from "./palette/diagdroid-queue-metrics-per-task.md?raw";
import queueTimeline from "./palette/diagdroid-queued-vs-running-timeline.md?raw";
import overdrawDepth from "./palette/draw-overdraw-depth.md?raw";
import renderingEfficiency from "./palette/draw-rendering-efficiency-ranking.md?raw";
import rootCause from "./palette/draw-root-cause.md?raw";
import gfxinfoLab from "./palette/dune-a-device-lab-from-gfxinfo-summaries.md?raw";
import contextRules from "./palette/dune-context-rules.md?raw";
import frameMetrics from "./palette/dune-frame-metrics-per-run.md?raw";
import iqrFlags from "./palette/dune-iqr-flags-of-frame-time-across-runs.md?raw";
import precisionRecall from "./palette/dune-per-event-precision-and-recall.md?raw";
import similarityWeights from "./palette/dune-similarity-weights-and-deviation.md?raw";

export interface PaletteEntry {
  label: string;
  /** tables the cells query; the palette greys out entries whose tables are not loaded */
  needs: string[];
  cells: { kind: CellKind; name?: string; source: string }[];
}

/** One snippet as an entry; `file` names it in errors. */
export function paletteEntry(text: string, file: string): PaletteEntry {
  const nb = parseNotebook(text);
  const label = nb.frontMatter?.title;
  const needs = nb.frontMatter?.fields.find(([key]) => key === "needs")?.[1].trim();
  if (!label || !needs?.startsWith("[") || !needs.endsWith("]"))
    throw new Error(`${file}: front matter needs title: and needs: [table, ...]`);
  const cells = nb.blocks.flatMap((b) =>
    // A cell's source keeps its last line terminator in the file; the palette inserts it without.
    b.type === "cell" ? [{ kind: b.kind, name: b.name, source: b.source.replace(/\r?\n$/, "") }] : [],
  );
  if (cells.length === 0) throw new Error(`${file}: no cells`);
  return {
    label,
    needs: needs
      .slice(1, -1)
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    cells: cells.map((c) => (c.name === undefined ? { kind: c.kind, source: c.source } : c)),
  };
}

export const ANALYSES: PaletteEntry[] = [
  [anomalousGroups, "diagdroid-anomalous-task-groups.md"],
  [queueTimeline, "diagdroid-queued-vs-running-timeline.md"],
  [queueMetrics, "diagdroid-queue-metrics-per-task.md"],
  [delayDistributions, "diagdroid-delay-distributions-before-and-after.md"],
  [frameMetrics, "dune-frame-metrics-per-run.md"],
  [iqrFlags, "dune-iqr-flags-of-frame-time-across-runs.md"],
  [similarityWeights, "dune-similarity-weights-and-deviation.md"],
  [precisionRecall, "dune-per-event-precision-and-recall.md"],
  [gfxinfoLab, "dune-a-device-lab-from-gfxinfo-summaries.md"],
  [contextRules, "dune-context-rules.md"],
  [renderingEfficiency, "draw-rendering-efficiency-ranking.md"],
  [overdrawDepth, "draw-overdraw-depth.md"],
  [rootCause, "draw-root-cause.md"],
  [methodProfile, "androscope-method-profile.md"],
  [callTree, "androscope-call-tree-of-a-method.md"],
  [callTimeline, "androscope-call-timeline.md"],
  [segments, "androscope-context-switch-segments.md"],
  [countersHeap, "androscope-counters-heap-and-window-profile.md"],
].map(([text, file]) => paletteEntry(text!, `workspace/app/palette/${file}`));
