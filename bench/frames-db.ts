// Bench-only packed frames runs too big to write as Arrow first (100M rows: a 25 GB stream, ~10 min of pack):
// run.duckdb is made by `packBundle` from an empty frames stream (so its schema, runs table, stamp and storage
// version are pack's own), then the rows of frames-data.ts's framesTable go in by one SQL INSERT and
// jb_overview is written by pack's own packOverview. Only attachable: frames.arrows stays empty.
// test/bench/frames-db.test.ts checks the file holds what `pack` writes from the Arrow rows (docs/scaling.md).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { parseManifest } from "../bundle/manifest";
import { packBundle, PACK_FILE } from "../workspace/db/node/pack-bundle";
import { packOverview } from "../workspace/db/node/pack-overview";
import { writeFrames } from "./frames-data";

/**
 * Pack's appender commits every 204,800 rows (DuckDB's appender flush count: 100 vectors), each commit starting
 * new row groups (122,880 + 81,920 rows); inserting the same slices one statement each gives the same layout.
 */
export const APPENDER_FLUSH_ROWS = 204_800;

/** framesTable's rows for frames from..to-1 in SQL; JS's Math.round(t + work / 2) is t + (work + 1) // 2. */
export function framesInsertSql(catalog: string, runId: string, from: number, to: number): string {
  return `
  INSERT INTO ${catalog}.main.frames BY NAME
  WITH f AS (SELECT f, f * 16666667 AS t, 16666667 AS period,
                    4000000 + (f * 7919) % 9000000 + CASE WHEN f % 97 = 0 THEN 30000000 ELSE 0 END AS work
             FROM range(${from}, ${to}) r(f)),
  w AS (SELECT *, (work + 1) // 2 AS half FROM f)
  SELECT '${runId.replace(/'/g, "''")}' AS run_id, 0 AS flags, f AS frame_timeline_vsync_id, t AS intended_vsync,
         t AS vsync, 0 AS input_event_id, t + 100000 AS handle_input_start, t + 200000 AS animation_start,
         t + 400000 AS perform_traversals_start, t + half AS draw_start, t + period AS frame_deadline,
         t AS frame_start_time, period AS frame_interval, t + half + 50000 AS sync_queued,
         t + half + 70000 AS sync_start, t + half + 170000 AS issue_draw_commands_start,
         t + work - 200000 AS swap_buffers, t + work AS frame_completed, 30000 AS dequeue_buffer_duration,
         40000 AS queue_buffer_duration, t + work + 500000 AS gpu_completed,
         t + work + 600000 AS swap_buffers_completed, t + 2 * period AS display_present_time, work AS duration,
         period AS deadline, work > period AS jank
  FROM w ORDER BY f`;
}

/**
 * `<dir>` as a packed bundle of `n` frames (run id `runId`): manifest.json, an empty frames.arrows, run.duckdb.
 * `memoryMb` bounds native DuckDB (the INSERT spills to `<dir>/tmp` past it).
 */
export async function writePackedFramesBySql(
  dir: string,
  n: number,
  runId: string,
  memoryMb = 2048,
): Promise<void> {
  await writeFrames(dir, 0, runId);
  await packBundle(dir);
  const instance = await DuckDBInstance.create(":memory:", {
    memory_limit: `${memoryMb}MB`,
    threads: "2",
    temp_directory: join(dir, "tmp"),
  });
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH '${join(dir, PACK_FILE).replace(/'/g, "''")}' AS pack`);
    for (let from = 0; from < n; from += APPENDER_FLUSH_ROWS)
      await conn.run(framesInsertSql("pack", runId, from, Math.min(n, from + APPENDER_FLUSH_ROWS)));
    await packOverview(conn, "pack");
    await conn.run("DETACH pack");
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  rmSync(join(dir, "tmp"), { recursive: true, force: true });
  const path = join(dir, "manifest.json");
  const manifest = parseManifest(readFileSync(path, "utf8"), path);
  manifest.tables.frames!.rows = n;
  manifest.database!.tables.frames = n;
  writeFileSync(path, JSON.stringify(manifest, null, 2) + "\n");
}

/**
 * The packed run of `n` frames under `root` (`frames-<n>`), made once by a child process at the lowest CPU
 * priority. A finished one (its manifest lists n frames) is reused; if its jb_overview is not what packOverview
 * writes now (its columns differ from a fresh pack's), that is rewritten, or the run would be sliced live.
 * Returns the bundle's folder name.
 */
export async function packedFramesBySql(root: string, n: number): Promise<string> {
  const name = `frames-${n}`;
  const dir = join(root, name);
  const path = join(dir, "manifest.json");
  if (existsSync(path) && parseManifest(readFileSync(path, "utf8"), path).database?.tables.frames === n) {
    if ((await overviewColumns(dir)) !== (await packedOverviewColumns(root))) {
      process.stderr.write(`  ${dir}: jb_overview written by an older pack; rewriting it\n`);
      execFileSync("nice", ["-n", "19", "npx", "tsx", "bench/frames-db.ts", dir, "overview"], {
        stdio: "inherit",
      });
    }
    return name;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  execFileSync("nice", ["-n", "19", "npx", "tsx", "bench/frames-db.ts", dir, String(n)], {
    stdio: "inherit",
  });
  process.stderr.write(
    `  wrote ${n} frames into ${dir}/run.duckdb by SQL in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  return name;
}

/** The columns of jb_overview as pack writes them now (on a run of no frames, made and removed under `root`). */
async function packedOverviewColumns(root: string): Promise<string> {
  const dir = join(root, "frames-0");
  rmSync(dir, { recursive: true, force: true });
  try {
    await writeFrames(dir, 0, "empty");
    await packBundle(dir);
    await rewriteOverview(dir);
    return await overviewColumns(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The columns of `<dir>/run.duckdb`'s jb_overview tables, as one string. */
async function overviewColumns(dir: string): Promise<string> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH '${join(dir, PACK_FILE).replace(/'/g, "''")}' AS pack (READ_ONLY)`);
    const r = await conn.runAndReadAll(
      "SELECT string_agg(table_name || '.' || column_name || ' ' || data_type, ', ' ORDER BY table_name, column_index) AS c FROM duckdb_columns() WHERE database_name = 'pack' AND schema_name = 'jb_overview'",
    );
    return String(r.getRowObjectsJS()[0]?.c ?? "");
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** jb_overview of a packed run rewritten by pack's packOverview. */
async function rewriteOverview(dir: string): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:", { memory_limit: "2048MB", threads: "2" });
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH '${join(dir, PACK_FILE).replace(/'/g, "''")}' AS pack`);
    await packOverview(conn, "pack");
    await conn.run("DETACH pack");
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir, n] = process.argv.slice(2);
  if (n === "overview") await rewriteOverview(dir!);
  else await writePackedFramesBySql(dir!, Number(n), `bench-${Number(n) / 1e6}m-frames`);
}
