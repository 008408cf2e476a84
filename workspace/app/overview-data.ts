// What the run overview draws, read from the loaded runs: every frame, or the slowest frame of each time slice
// for long runs (a packed run's slices read as packed), with UI events and logcat's jank events.
import { relationCount, tableExists, type SqlEngine } from "../db/engine";
import { overviewError } from "./overview-errors";
import {
  EVENTS_PACKED_SQL,
  EVENTS_SQL,
  FRAMES_BUCKETED_SQL,
  FRAMES_COUNTED_SQL,
  FRAMES_PACKED_COUNTED_SQL,
  FRAMES_PACKED_SQL,
  FRAMES_SQL,
  LOG_EVENTS_PACKED_SQL,
  LOG_EVENTS_SQL,
  OVERVIEW_MAX_DOTS,
  OVERVIEW_SLICES,
  PACKED_OVERVIEW,
} from "../../bundle/overview-sql";

type Row = Record<string, unknown>;

export async function overviewChartData(
  engine: SqlEngine,
  hasEvents: boolean,
  options: { maxDots?: number; slices?: number } = {},
) {
  // a missing table is named plainly, not as DuckDB's "Did you mean pg_namespace?" (overview-errors.ts)
  return chartData(engine, hasEvents, options).catch((e: unknown) => {
    throw overviewError(e);
  });
}

async function chartData(
  engine: SqlEngine,
  hasEvents: boolean,
  { maxDots = OVERVIEW_MAX_DOTS, slices = OVERVIEW_SLICES }: { maxDots?: number; slices?: number },
) {
  const packed = (await relationCount(engine, PACKED_OVERVIEW)) > 0;
  // A packed run's frames are counted from its file's metadata and slices (FRAMES_PACKED_COUNTED_SQL), never scanned.
  const counted = (
    await engine.query(packed ? FRAMES_PACKED_COUNTED_SQL : FRAMES_COUNTED_SQL)
  ).toArray()[0] as { total: bigint | number; suspect: bigint | number };
  const total = Number(counted.total);
  const suspect = Number(counted.suspect);
  const bucketed = total > maxDots;
  const frameTable = !bucketed
    ? await engine.query(FRAMES_SQL)
    : packed && slices === OVERVIEW_SLICES
      ? await engine.query(FRAMES_PACKED_SQL, [slices, slices])
      : await engine.query(FRAMES_BUCKETED_SQL, [slices, slices]);
  const frames = frameTable.toArray().map((r: Row) => ({ ...r })) as Row[];
  const events = hasEvents
    ? ((await engine.query(packed ? EVENTS_PACKED_SQL : EVENTS_SQL))
        .toArray()
        .map((r: Row) => ({ ...r })) as Row[])
    : [];
  const logEvents = (await tableExists(engine, "log_events"))
    ? ((await engine.query(packed ? LOG_EVENTS_PACKED_SQL : LOG_EVENTS_SQL))
        .toArray()
        .map((r: Row) => ({ ...r })) as Row[])
    : [];
  return { frames, events, logEvents, bucketed, totalFrames: total, suspectFrames: suspect };
}
