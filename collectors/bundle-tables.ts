// Turns what the collectors read (framestats records, agent data) into bundle tables through the schema.
import type { Table } from "apache-arrow";
import { bundleTableFromRows, makeBundleTable } from "../bundle/table-builder";
import { tableSpec, type TableName } from "../bundle/schema";
import { frameEnd, incompleteWhy, type FrameRecord } from "./sources/framestats";
import type { AgentData } from "./sources/agent-lines";

const FRAME_COLUMNS = new Set(tableSpec("frames").columns.map((c) => c.name));
const DEFAULT_DEADLINE_NS = 16_670_000n;

/** Which budget a frame is judged against: FrameDeadline - IntendedVsync, else one refresh period, else 16.67 ms. */
export function frameDeadline(values: Record<string, bigint>, refreshHz: number | null): bigint {
  const fd = values.frame_deadline;
  const iv = values.intended_vsync!;
  if (fd !== undefined && fd > iv) return fd - iv;
  if (refreshHz && refreshHz > 0) return BigInt(Math.round(1e9 / refreshHz));
  return DEFAULT_DEADLINE_NS;
}

/** Frames rows in intended_vsync order, every one kept: a frame dumped before it completed (FrameCompleted 0) gets
 * the duration it had reached, a lower bound, and is flagged suspect; rows without IntendedVsync are counted. */
export function framesTable(
  runId: string,
  frames: FrameRecord[],
  refreshHz: number | null,
): { table: Table; skipped: number; incomplete: number; unknownColumns: string[] } {
  const kept = frames.filter((f) => f.values.intended_vsync !== undefined);
  kept.sort((a, b) =>
    a.values.intended_vsync! < b.values.intended_vsync!
      ? -1
      : a.values.intended_vsync! > b.values.intended_vsync!
        ? 1
        : 0,
  );
  const unknown = new Set<string>();
  const columns: Record<string, (bigint | null)[]> = {};
  for (const f of kept) for (const k of Object.keys(f.values)) if (!FRAME_COLUMNS.has(k)) unknown.add(k);
  for (const name of FRAME_COLUMNS) {
    if (["run_id", "window", "duration", "deadline", "jank", "suspect", "source"].includes(name)) continue;
    if (!kept.some((f) => f.values[name] !== undefined)) continue;
    columns[name] = kept.map((f) => f.values[name] ?? null);
  }
  const duration = kept.map((f) => frameEnd(f.values).end - f.values.intended_vsync!);
  const suspect = kept.map((f) => f.suspect ?? incompleteWhy(f.values));
  const deadline = kept.map((f) => frameDeadline(f.values, refreshHz));
  const table = makeBundleTable(
    "frames",
    runId,
    {
      ...columns,
      window: kept.map((f) => f.window),
      suspect,
      duration,
      deadline,
      jank: duration.map((d, i) => d > deadline[i]!),
    },
    kept.length,
  );
  const incomplete = kept.filter((f) => incompleteWhy(f.values) !== null).length;
  return { table, skipped: frames.length - kept.length, incomplete, unknownColumns: [...unknown] };
}

/** tasks, contexts, render_ops and ui_events from the agent's lines; empty tables are left out. */
export function agentTables(runId: string, d: AgentData): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
  if (d.tasks.length) out.tasks = bundleTableFromRows("tasks", runId, d.tasks);
  if (d.contexts.size) {
    const ids = [...d.contexts.keys()].sort((a, b) => a - b);
    out.contexts = makeBundleTable(
      "contexts",
      runId,
      { context_id: ids, frames: ids.map((i) => d.contexts.get(i)!) },
      ids.length,
    );
  }
  if (d.renderOps.length) out.render_ops = bundleTableFromRows("render_ops", runId, d.renderOps);
  if (d.uiEvents.length)
    out.ui_events = bundleTableFromRows("ui_events", runId, d.uiEvents, { seq: (_, i) => i });
  return out;
}

/** Same frame seen in two polls: same window and every column equal, where a column still 0 (unset) in one
 * poll may have been filled in by the next (hwui sets GpuCompleted, DisplayPresentTime, ... when the
 * surface's stats arrive, after the frame was first dumped). */
function sameFrame(a: FrameRecord, b: FrameRecord): boolean {
  if (a.window !== b.window) return false;
  for (const k in a.values) {
    const x = a.values[k]!;
    const y = b.values[k];
    if (y !== undefined && x !== y && x !== 0n && y !== 0n) return false;
  }
  return true;
}

function mergeFrames(earlier: FrameRecord, later: FrameRecord): FrameRecord {
  const values = { ...earlier.values };
  for (const k in later.values)
    if (later.values[k] !== 0n || values[k] === undefined) values[k] = later.values[k]!;
  return { ...later, values };
}

/** Accumulates framestats polls: each frame exactly once. A frame is known by its whole identity (window and every
 * timestamp), never by IntendedVsync alone: one dump holds distinct frames sharing an IntendedVsync (two frames in
 * one vsync), so every row of one poll is kept, and a row of a later poll is the same frame only when it matches
 * one not yet matched in that poll. A poll that overlaps nothing seen before while the ring was full means lost frames. */
export class FrameDeduper {
  /** window + IntendedVsync -> the frames seen with it (usually one) */
  private byKey = new Map<string, FrameRecord[]>();
  private count = 0;
  private lastMax = new Map<string, bigint>();
  readonly warnings: string[] = [];
  duplicates = 0;
  constructor(readonly ringSize = 120) {}

  add(frames: FrameRecord[], pollLabel: string): number {
    const byWindow = new Map<string, FrameRecord[]>();
    for (const f of frames) {
      const w = f.window ?? "";
      let list = byWindow.get(w);
      if (!list) byWindow.set(w, (list = []));
      list.push(f);
    }
    let added = 0;
    for (const [w, list] of byWindow) {
      let overlap = false;
      let min: bigint | null = null;
      let max: bigint | null = null;
      // Frames this poll matched or added: never matched again within the same poll.
      const taken = new Set<FrameRecord>();
      const fresh: [string, FrameRecord][] = [];
      for (const f of list) {
        const iv = f.values.intended_vsync!;
        const key = `${w}\u0000${iv}`;
        if (min === null || iv < min) min = iv;
        if (max === null || iv > max) max = iv;
        const seen = this.byKey.get(key);
        const at = seen ? seen.findIndex((p) => !taken.has(p) && sameFrame(p, f)) : -1;
        if (seen && at >= 0) {
          overlap = true;
          this.duplicates++;
          const merged = mergeFrames(seen[at]!, f); // a later poll may have filled in late columns
          seen[at] = merged;
          taken.add(merged);
        } else fresh.push([key, f]);
      }
      for (const [key, f] of fresh) {
        let seen = this.byKey.get(key);
        if (!seen) this.byKey.set(key, (seen = []));
        seen.push(f);
        taken.add(f);
        this.count++;
        added++;
      }
      const prev = this.lastMax.get(w);
      // Adjacent frames (no more than ~1.5 frame intervals apart) are not a loss even without overlap.
      const ivs = list.map((f) => f.values.intended_vsync!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const steps = ivs
        .slice(1)
        .map((v, k) => v - ivs[k]!)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const typical = steps[steps.length >> 1] ?? 0n;
      if (
        prev !== undefined &&
        !overlap &&
        list.length >= this.ringSize &&
        min !== null &&
        min - prev > (typical * 3n) / 2n
      )
        this.warnings.push(
          `${pollLabel}: window ${w || "?"}: frames lost between polls (the ${this.ringSize}-frame window moved past ` +
            `${prev} ns before it was read; first frame seen again at ${min} ns); poll more often`,
        );
      if (max !== null && (prev === undefined || max > prev)) this.lastMax.set(w, max);
    }
    return added;
  }

  get size() {
    return this.count;
  }
  frames(): FrameRecord[] {
    return [...this.byKey.values()].flat();
  }
}
