// The run overview's level-of-detail slices, computed once when a run is packed (docs/scaling.md): opening a
// packed 10M-row run then reads 1,200 rows instead of scanning its frames in DuckDB-WASM (measured: 12-19 s
// cold).
import type { DuckDBConnection } from "@duckdb/node-api";
import { FRAMES_BUCKETED_SQL, OVERVIEW_SLICES, PACKED_OVERVIEW } from "../../../bundle/overview-sql";

/**
 * Writes `<catalog>.jb_overview.spans` (run_id; t0: the first frame, t0_plausible: the first not suspect, the time
 * axes of log and UI events) and `.frames` (FRAMES_BUCKETED_SQL's rows) from its frames.
 */
export async function packOverview(conn: DuckDBConnection, catalog: string): Promise<void> {
  const schema = `${catalog}.${PACKED_OVERVIEW}`;
  await conn.run(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await conn.run(`USE ${catalog}`);
  try {
    await conn.run(
      `CREATE OR REPLACE TABLE ${schema}.spans AS SELECT run_id, min(intended_vsync) AS t0, min(intended_vsync) FILTER (WHERE suspect IS NULL) AS t0_plausible FROM main.frames GROUP BY run_id`,
    );
    await conn.run(`CREATE OR REPLACE TABLE ${schema}.frames AS ${FRAMES_BUCKETED_SQL}`, [
      OVERVIEW_SLICES,
      OVERVIEW_SLICES,
    ]);
  } finally {
    await conn.run("USE memory");
  }
}
