// The whole comparison of two sides over the tables their runs have: blocks from the UI events, every
// analysis's measures, and the ranked list. Tables hold both sides' runs (a run_id column); render operations
// come one table per run (DRAW's preprocessing reads one run's view tree at a time).
import type { Table } from "apache-arrow";
import { addSpans, comparisonBlocks, type ComparisonBlocks, type RunSpans } from "./blocks";
import type { CompareOptions, CompareRow, Metric } from "./compare-metric";
import { diagdroidChanges } from "./diagdroid-changes";
import { drawChanges, type Screen } from "./draw-changes";
import { drawOverdrawChanges } from "./draw-overdraw-changes";
import { frameChanges, frameSummaryChanges } from "./frame-changes";
import type { FrameSummary } from "./frame-summary";
import { frameTimelineChanges } from "./frame-timeline-changes";
import { MetricBuilder } from "./metric-builder";
export type { MetricBuilder } from "./metric-builder";
import { checkSides, type Sides } from "./sides";
import { methodChanges, sliceChanges, threadStateChanges } from "./slice-changes";
import { whatChanged } from "./what-changed";

export interface CompareTables {
  frames?: Table;
  ui_events?: Table;
  tasks?: Table;
  contexts?: Table;
  /** render_ops, one table per run */
  render_ops?: ReadonlyMap<string, Table>;
  /** screen size per run (runs.screen_width × screen_height), for DRAW's visible pixels */
  screens?: ReadonlyMap<string, Screen>;
  /** the app (runs.app) of each run: a subject's amounts are compared over the runs of the apps it occurs in */
  apps?: ReadonlyMap<string, string>;
  slices?: Table;
  calls?: Table;
  methods?: Table;
  thread_states?: Table;
  frame_timeline?: Table;
  /** the UI-event buckets, when the loader cut them (then the tables' spans are not read here) */
  blocks?: ComparisonBlocks;
  /** the frames summarised per bucket by the engine (frame-summary.ts), read in place of `frames` */
  frame_summary?: FrameSummary;
}

export const COMPARE_ANALYSES = [
  "frames",
  "frame-timeline",
  "diagdroid",
  "draw",
  "slices",
  "methods",
  "thread-states",
] as const;
export type CompareAnalysis = (typeof COMPARE_ANALYSES)[number];

export interface CompareRunsOptions extends CompareOptions {
  /** the analyses to run; default all whose tables are there */
  analyses?: readonly CompareAnalysis[];
  /** extra rows with their own p (e.g. a differential profile's), adjusted and ranked with the rest */
  extra?: readonly CompareRow[];
  /**
   * Another analysis's measures, added with the same UI-event buckets and tested like the rest (the hook for the
   * differential profile: `builder.add(spec, run, ts, value)` per call, `builder.addAmount` for time per second)
   */
  extend?: (builder: MetricBuilder) => void;
}

export interface Comparison {
  sides: Sides;
  rows: CompareRow[];
  /** the measures behind the rows, by key (for whatChangedPlot) */
  metrics: Metric[];
  /** runs without UI events, cut into equal time windows for the block bootstrap */
  windowed: string[];
}

/** Where each run's data starts and ends, from every table it has. */
function spansOf(tables: CompareTables): RunSpans {
  const spans: RunSpans = new Map();
  addSpans(spans, tables.frames, "intended_vsync", "frame_completed");
  addSpans(spans, tables.tasks, "scheduled", "ended");
  addSpans(spans, tables.calls, "enter", "exit");
  addSpans(spans, tables.slices, "ts");
  addSpans(spans, tables.thread_states, "ts");
  addSpans(spans, tables.frame_timeline, "ts");
  for (const t of tables.render_ops?.values() ?? []) addSpans(spans, t, "start");
  return spans;
}

/** Every analysis's measures over the two sides, not yet tested: what no threshold changes. */
export interface Measured {
  sides: Sides;
  metrics: Metric[];
  /** runs without UI events, cut into equal time windows for the block bootstrap */
  windowed: string[];
}

/**
 * The measures of every analysis the tables allow, over the two sides' UI-event buckets. α, the minimum effect and
 * the assumed run-to-run variation do not change them: a notebook measures once and judges per threshold.
 */
export function measureRuns(
  tables: CompareTables,
  sides: Sides,
  options: Pick<CompareRunsOptions, "analyses" | "extend"> = {},
): Measured {
  checkSides(sides);
  const on = (a: CompareAnalysis) => !options.analyses || options.analyses.includes(a);
  const blocks = tables.blocks ?? comparisonBlocks(sides, spansOf(tables), tables.ui_events);
  const builder = new MetricBuilder(blocks, tables.apps);
  if (on("frames"))
    if (tables.frame_summary) frameSummaryChanges(tables.frame_summary, builder);
    else frameChanges(tables.frames, builder);
  if (on("frame-timeline")) frameTimelineChanges(tables.frame_timeline, builder);
  if (on("diagdroid")) diagdroidChanges(tables.tasks, tables.contexts, builder);
  if (on("draw") && tables.render_ops) drawChanges(tables.render_ops, tables.screens ?? new Map(), builder);
  if (on("draw") && tables.render_ops)
    drawOverdrawChanges(tables.render_ops, tables.screens ?? new Map(), builder);
  if (on("slices")) sliceChanges(tables.slices, builder);
  if (on("methods")) methodChanges(tables.calls, tables.methods, builder);
  if (on("thread-states")) threadStateChanges(tables.thread_states, builder);
  options.extend?.(builder);
  return { sides, metrics: builder.build(), windowed: [...blocks.a.windowed, ...blocks.b.windowed] };
}

/** The measured sides tested and ranked at these thresholds. */
export function judgeRuns(
  measured: Measured,
  options: CompareOptions & { extra?: readonly CompareRow[] } = {},
): Comparison {
  return { ...measured, rows: whatChanged(measured.metrics, options, options.extra) };
}

export function compareRuns(
  tables: CompareTables,
  sides: Sides,
  options: CompareRunsOptions = {},
): Comparison {
  return judgeRuns(measureRuns(tables, sides, options), options);
}
