// Shared by the triage notebook tests: the samples' ground truth, the notebook's row shapes, and the
// reference computations written out independently of cells/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SAMPLES_DIR } from "../../workspace/node/headless";

export interface Culprit {
  task_ids?: number[];
  context_frame?: string;
  view_id?: number;
  regressed?: boolean;
  event?: string;
  hidden_submenus?: { view_id: number; layout_file: string }[];
}
export interface Truth {
  cases: { case: string; culprit: Culprit }[];
  counts: Record<string, number>;
}
export const truth = (run: string): Truth =>
  JSON.parse(readFileSync(join(SAMPLES_DIR, run, "ground_truth.json"), "utf8"));

export interface GroupRow {
  group: number;
  rank: number;
  label: string;
  name: string;
  worstMs: number;
  mqMs: number;
  meMs: number;
  anomalousBy: string;
  tasks: number;
}
export interface TimelineRow {
  group: number;
  taskId: string;
  phase: "queued" | "running";
  start: number;
  end: number;
  ms: number;
}

export interface UpgradeRow {
  run: string;
  metric: string;
  value: number;
  q1: number;
  q3: number;
  lowerFence: number;
  upperFence: number;
  label: string;
  comparedWith: number;
}

/** Hyndman–Fan type 6 quartile, written out here as the reference (DUNE §5.3.3's worked example method). */
export function hf6(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length + 1) * p;
  if (h <= 1) return s[0]!;
  if (h >= s.length) return s[s.length - 1]!;
  const lo = Math.floor(h);
  return s[lo - 1]! + (h - lo) * (s[lo]! - s[lo - 1]!);
}

/** The notebook's group name for a context frame like `a.b.Class.method(File.java:1)`. */
export function appFrameOf(frame: string): string {
  return frame.replace(/\(.*$/, "").split(".").slice(-2).join(".");
}
