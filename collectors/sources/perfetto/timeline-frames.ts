// The app's FrameTimeline surface frames as `frames` rows (docs/perfetto.md has the mapping), so the run overview,
// DUNE and the frames analyses read a Perfetto trace like a framestats dump.
import type { ColumnValues } from "../../../bundle/table-builder";
import { plainColumns } from "./column-tables";
import type { FrameTimelineRow, ProcessRow } from "./rows";

export interface TimelineFrames {
  /** frames columns by name (int64 as numbers), one entry per frame */
  columns: Record<string, ColumnValues>;
  count: number;
  /** actual surface frames left out: no FrameEnd before the trace ended */
  unfinished: number;
  /** actual frames with no expected frame of the same token: judged against 16.67 ms from their own start */
  unpredicted: number;
}

const DEFAULT_DEADLINE = 16_670_000;

/** Present types that mean the frame reached the screen late or never (Perfetto PresentType). */
export function isJankyPresent(presentType: string | null): boolean {
  return presentType === "Late Present" || presentType === "Dropped Frame";
}

/** The process whose layers drew the most actual surface frames: the app the trace is about. */
export function mainAppPid(rows: readonly FrameTimelineRow[]): number | null {
  const counts = new Map<number, number>();
  for (const r of rows)
    if (r.scope === "surface" && r.timeline === "actual" && r.pid !== null)
      counts.set(r.pid, (counts.get(r.pid) ?? 0) + 1);
  let best: number | null = null;
  let most = 0;
  for (const [pid, n] of counts)
    if (n > most || (n === most && best !== null && pid < best)) {
      best = pid;
      most = n;
    }
  return best;
}

export function mainAppName(
  rows: readonly FrameTimelineRow[],
  processes: readonly ProcessRow[],
): string | null {
  const pid = mainAppPid(rows);
  if (pid === null) return null;
  return processes.find((p) => p.pid === pid)?.name ?? null;
}

/** Frames rows for the actual surface frames of `pid`, in start order. */
export function timelineFrames(rows: readonly FrameTimelineRow[], pid: number): TimelineFrames {
  const expected = new Map<number, FrameTimelineRow>();
  for (const r of rows)
    if (r.scope === "surface" && r.timeline === "expected" && r.pid === pid) expected.set(r.token, r);
  const actual = rows
    .filter((r) => r.scope === "surface" && r.timeline === "actual" && r.pid === pid)
    .sort((a, b) => a.ts - b.ts);
  const frames: FrameRow[] = [];
  let unfinished = 0;
  let unpredicted = 0;
  for (const a of actual) {
    if (a.dur === null) {
      unfinished++;
      continue;
    }
    const e = expected.get(a.token);
    if (!e || e.dur === null) unpredicted++;
    frames.push(frameRow(a, a.dur, e));
  }
  return { columns: plainColumns(frames, FRAME_COLUMNS), count: frames.length, unfinished, unpredicted };
}

type FrameRow = ReturnType<typeof frameRow>;

/** The frames columns filled from FrameTimeline, in bundle/schema.ts's order. */
const FRAME_COLUMNS: readonly (keyof FrameRow)[] = [
  "window",
  "frame_timeline_vsync_id",
  "intended_vsync",
  "vsync",
  "frame_deadline",
  "frame_completed",
  "duration",
  "deadline",
  "jank",
  "suspect",
  "source",
];

/** One frames row from an actual surface frame that ended (after `dur`) and its expected frame, when there is one. */
function frameRow(a: FrameTimelineRow, dur: number, e: FrameTimelineRow | undefined) {
  // IntendedVsync is the expected start; FrameDeadline the expected end (SurfaceFlinger's prediction).
  const start = e ? e.ts : a.ts;
  const end = a.ts + dur;
  const duration = end - start;
  return {
    window: a.layer_name,
    frame_timeline_vsync_id: a.token,
    intended_vsync: start,
    vsync: a.ts,
    frame_deadline: e && e.dur !== null ? e.ts + e.dur : null,
    frame_completed: end,
    duration,
    deadline: e && e.dur !== null ? e.dur : DEFAULT_DEADLINE,
    jank: isJankyPresent(a.present_type),
    suspect: duration < 0 ? "negative duration" : duration > 10e9 ? "duration over 10 s" : null,
    source: "perfetto",
  };
}
