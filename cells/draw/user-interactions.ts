// User interactions and their rendering features (DRAW §V-A, Tables I and II).
//
// An interaction starts at a ui_events row and ends at the end of the last rendering operation before
// the next input (§V-A). A frame belongs to the interaction in which its first operation starts; frames
// before the first input belong to none (counted in a warning). Metrics: rendering time = Σ self times of
// its operations (§III-B, so nothing counts twice), in ms; average frame rate = frames completed in
// [start, end] (frames table: intended_vsync + duration; else trace frames with a draw) / duration in s.
//
// Features: see interaction-features.ts (Tables I and II).
import type { Table } from "apache-arrow";
import { int32, int64, readColumns, utf8 } from "../../bundle/read-columns";
import { FEATURE_NAMES, interactionOf, VIEW_STATS, type Interaction } from "./interaction-features";
import type { Screen } from "./overdraw-depth";
import type { RenderTrace } from "./render-trace";

const NS = VIEW_STATS.length;

export interface UserInteractionsOptions {
  screen: Screen;
  /** the frames table, for the frame rate; without it trace frames with a draw are counted */
  frames?: Table;
}

export interface UserInteractionsResult {
  interactions: Interaction[];
  featureNames: readonly string[];
  warnings: string[];
}

export function userInteractions(
  t: RenderTrace,
  uiEvents: Table,
  options: UserInteractionsOptions,
): UserInteractionsResult {
  const {
    ts: tsRaw,
    seq: seqs,
    kind: kindVec,
  } = readColumns(uiEvents, "ui_events", { ts: int64(0), seq: int32(), kind: utf8() });
  const warnings: string[] = [];
  const events = Array.from({ length: uiEvents.numRows }, (_, i) => ({
    ts: tsRaw[i]!,
    seq: seqs[i]!,
    i,
  }));
  events.sort((a, b) => a.ts - b.ts || a.seq - b.seq);

  const completions = frameCompletions(options.frames);
  const frameStart = t.frames.map((fr) => t.start[fr.begin] ?? 0);
  const buckets: number[][] = events.map(() => []);
  let before = 0;
  for (let f = 0; f < t.frames.length; f++) {
    let lo = 0,
      hi = events.length; // last event with ts ≤ frame start
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid]!.ts <= frameStart[f]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) before++;
    else buckets[lo - 1]!.push(f);
  }
  if (before > 0) warnings.push(`render_ops: ${before} frames before the first input, in no interaction`);

  const slot = new Int32Array(t.views.length).fill(-1);
  // One pool for every interaction's per-view rows and stats (many small typed arrays are slow to allocate).
  let total = 0;
  for (const b of buckets) for (const f of b) total += t.frames[f]!.views.length;
  const pool = { rows: new Int32Array(total), stats: new Float64Array(total * NS), used: 0 };
  const context = { screen: options.screen, completions, slot, pool };
  const interactions = events.map((e, i) =>
    interactionOf(
      t,
      { seq: e.seq, kind: String(kindVec.get(e.i)), start: e.ts, frames: buckets[i]! },
      context,
    ),
  );
  return { interactions, featureNames: FEATURE_NAMES, warnings };
}

/** Completion times (ns, sorted) from the frames table, or null. */
function frameCompletions(frames?: Table): Float64Array | null {
  if (!frames) return null;
  const f = readColumns(frames, "frames", { intended_vsync: int64(0), duration: int64(0) });
  return f.intended_vsync.map((x, i) => x + f.duration[i]!).sort();
}
