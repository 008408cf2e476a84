// A run's start on its own clock: the earliest moment of its frames or trace tables (ns CLOCK_MONOTONIC, a time
// since boot). Tables then show moments from it (charts/time-origins.ts). Logcat and gfxinfo's "stats since" are
// left out: a dump carries lines and counts from long before the run.
import { PACKED_OVERVIEW } from "../../bundle/overview-sql";
import { quoteIdent, relationCount, type SqlEngine } from "./engine";

export const ORIGIN_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ["frames", "intended_vsync"],
  ["frame_timeline", "ts"],
  ["slices", "ts"],
  ["thread_states", "ts"],
  ["counter_samples", "ts"],
  ["binder_transactions", "ts"],
];

/** The run's start, ns; null when it has none of those tables' rows. `tables`: the tables the run has rows in. */
export async function runOrigin(
  engine: SqlEngine,
  runId: string,
  tables: readonly string[],
): Promise<number | null> {
  let origin: number | null = null;
  for (const [table, column] of ORIGIN_COLUMNS) {
    if (!tables.includes(table)) continue;
    const packed = table === "frames" ? await packedStart(engine, runId) : null;
    const t =
      packed ??
      (await engine.query(
        `SELECT min(${quoteIdent(column)})::DOUBLE AS t0 FROM ${quoteIdent(table)} WHERE run_id = ?`,
        [runId],
      ));
    const v = t.getChild("t0")?.get(0) as number | null | undefined;
    if (v !== null && v !== undefined && (origin === null || v < origin)) origin = v;
  }
  return origin;
}

/**
 * A packed run's first frame from its file (jb_overview.spans: min(intended_vsync) of its frames, written by
 * workspace/db/node/pack-overview.ts), so opening a 100M-row run scans none of them; null for other runs.
 */
async function packedStart(engine: SqlEngine, runId: string) {
  if ((await relationCount(engine, PACKED_OVERVIEW, "spans")) === 0) return null;
  const t = await engine.query(
    `SELECT min(t0)::DOUBLE AS t0 FROM ${PACKED_OVERVIEW}.spans WHERE run_id = ?`,
    [runId],
  );
  return t.getChild("t0")?.get(0) == null ? null : t;
}
