// Plausibility checks on framestats rows (docs/framestats-gfxinfo.md): which rows are suspect and why, where
// an unfinished frame got to, timestamps far from their frame, and the Android 12+
// FrameInterval/FrameStartTime order (AOSP libs/hwui/FrameInfo.h indices vs FrameInfo.cpp names).
import type { FramestatsResult, FramestatsSection } from "./framestats";

/** Longer than this a frame cannot have taken: past the 5 s ANR timeout a frame is still plausible, minutes are a bad clock. */
export const MAX_PLAUSIBLE_FRAME_NS = 60_000_000_000n;
/** A refresh period is at most this long (10 Hz); a "FrameInterval" beyond it is a timestamp, not a period. */
const MAX_INTERVAL_NS = 100_000_000n;

function median(v: bigint[]): bigint {
  const s = [...v].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[s.length >> 1] ?? 0n;
}

/**
 * Android 12+ hwui names FrameInterval before FrameStartTime in its header (FrameInfo.cpp's name list) but writes
 * the values in FrameInfo.h's index order, FrameStartTime first. Told apart by the values: an interval is a
 * refresh period (at most 100 ms), a start time is a timestamp near IntendedVsync.
 */
export function fixIntervalOrder(section: FramestatsSection, where: string, notices: string[]) {
  const fi = section.columns.indexOf("FrameInterval");
  const fs = section.columns.indexOf("FrameStartTime");
  if (fi < 0 || fs < 0 || section.frames.length === 0) return;
  const rows = section.frames.filter(
    (f) => f.values.frame_interval !== undefined && f.values.frame_start_time !== undefined,
  );
  const interval = rows.map((f) => f.values.frame_interval!).filter((v) => v !== 0n);
  const start = rows.map((f) => f.values.frame_start_time!).filter((v) => v !== 0n);
  if (interval.length === 0 || start.length === 0) return;
  const mi = median(interval);
  const ms = median(start);
  if (!(mi > MAX_INTERVAL_NS && ms > 0n && ms <= MAX_INTERVAL_NS)) return;
  for (const f of rows) {
    const a = f.values.frame_interval!;
    f.values.frame_interval = f.values.frame_start_time!;
    f.values.frame_start_time = a;
  }
  notices.push(
    `${where}: FrameInterval holds timestamps (median ${(Number(mi) / 1e9).toFixed(3)} s) and FrameStartTime ` +
      `refresh periods (median ${(Number(ms) / 1e6).toFixed(3)} ms): the device printed them in the other order ` +
      `than its header says (AOSP FrameInfo.cpp names vs FrameInfo.h indices); read swapped for ${rows.length} rows`,
  );
}

export type SuspectKind = keyof FramestatsResult["suspect"];

/** Columns that are not timestamps of the frame: ids, flags, durations, the interval, Android 6-9's input sentinels. */
const NOT_TIMESTAMPS = new Set([
  "flags",
  "frame_timeline_vsync_id",
  "input_event_id",
  "frame_interval",
  "workload_target",
  "dequeue_buffer_duration",
  "queue_buffer_duration",
  "oldest_input_event",
  "newest_input_event",
]);

/** Timestamp columns set (non-zero) yet further than a frame can take from IntendedVsync: real devices print
 * stale DisplayPresentTime values, or sentinels; counted in a notice, the row is not suspect for it. */
export function farTimestamps(values: Record<string, bigint>): string[] {
  const iv = values.intended_vsync!;
  const out: string[] = [];
  for (const k in values) {
    const v = values[k]!;
    if (v === 0n || NOT_TIMESTAMPS.has(k) || k === "intended_vsync") continue;
    if (v - iv > MAX_PLAUSIBLE_FRAME_NS || iv - v > MAX_PLAUSIBLE_FRAME_NS) out.push(k);
  }
  return out;
}

/** Timestamps a frame passes through, latest first: where an unfinished frame got to (FrameInfo.h order). */
const PROGRESS = [
  "swap_buffers_completed",
  "swap_buffers",
  "issue_draw_commands_start",
  "sync_start",
  "sync_queued",
  "draw_start",
  "perform_traversals_start",
  "animation_start",
  "handle_input_start",
  "vsync",
];

/**
 * When the frame ended: FrameCompleted, or for a frame dumped before hwui set it (GpuCompleted and FrameCompleted
 * arrive with the surface's stats, after the frame is in the ring) the latest timestamp it reached, a lower bound.
 */
export function frameEnd(values: Record<string, bigint>): { end: bigint; column: string } {
  const fc = values.frame_completed;
  if (fc !== undefined && fc !== 0n) return { end: fc, column: "frame_completed" };
  const iv = values.intended_vsync!;
  for (const c of PROGRESS) {
    const v = values[c];
    if (v !== undefined && v >= iv) return { end: v, column: c };
  }
  return { end: iv, column: "intended_vsync" };
}

/** The frames.suspect text of a frame dumped before it completed (or whose FrameCompleted could not be kept). */
export function incompleteWhy(values: Record<string, bigint>): string | null {
  const { column } = frameEnd(values);
  if (column === "frame_completed") return null;
  const why =
    values.frame_completed === 0n ? "not completed when dumped (FrameCompleted 0)" : "no FrameCompleted";
  return `${why}: duration measured to ${column}, a lower bound`;
}

/** Why a row's times are impossible or unfinished, or null: IntendedVsync not a time, FrameCompleted unset, a
 * negative or over-a-minute duration. */
export function frameSuspect(values: Record<string, bigint>): { kind: SuspectKind; why: string } | null {
  const iv = values.intended_vsync!;
  if (iv <= 0n) return { kind: "notATime", why: `IntendedVsync ${iv} is not a time` };
  const incomplete = incompleteWhy(values);
  if (incomplete) return { kind: "incomplete", why: incomplete };
  const d = values.frame_completed! - iv;
  if (d < 0n)
    return {
      kind: "negative",
      why: `negative duration: FrameCompleted is ${(Number(-d) / 1e6).toFixed(3)} ms before IntendedVsync`,
    };
  if (d > MAX_PLAUSIBLE_FRAME_NS)
    return {
      kind: "tooLong",
      why: `duration ${(Number(d) / 1e9).toFixed(3)} s is longer than a frame can take`,
    };
  return null;
}
