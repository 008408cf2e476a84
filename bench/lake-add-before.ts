// lake add as it was before the run index (workspace/db/node/lake-add.ts at 601fefc), kept as
// bench/lake.bench.ts's peer: it lists every run folder of the run's tables and rewrites the app's whole
// run_summary file on each add.
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { bundlePath } from "../bundle/bundle-path";
import { checkLakeFolder } from "../bundle/lake-folder";
import { withLakeLock, type LakeLockOptions } from "../bundle/lake-lock";
import { parseManifest, type Manifest } from "../bundle/manifest";
import { loadBundleTables } from "../workspace/db/node/pack-bundle";
import { packStampError, packStampQueries, type StampRow } from "../bundle/pack-stamp";

/** Partition columns, outermost first: a lab's queries filter by app, then device, then Android version. */
const LAKE_PARTITIONS = ["app", "device_model", "api_level", "run_id"] as const;
const RUN_SUMMARY = "run_summary";

interface LakeAddResult {
  run_id: string;
  /** rows written per table (run_summary included) */
  tables: Record<string, number>;
  errors: string[];
}

/**
 * Adds each bundle to the lake. Idempotent per run: a run already in the lake has its partitions replaced, the
 * other runs are left alone. A packed bundle is read from its run.duckdb (once it is shown to be this run's),
 * else from its Arrow files. A folder that is neither empty nor a lake is refused; one writer at a time holds
 * the lake (lake-lock.ts), so concurrent adds each keep their run_summary row.
 */
export async function lakeAddBefore(
  lake: string,
  dirs: readonly string[],
  lock: LakeLockOptions = {},
): Promise<LakeAddResult[]> {
  await checkLakeFolder(lake);
  return withLakeLock(lake, () => addAll(lake, dirs), lock);
}

async function addAll(lake: string, dirs: readonly string[]): Promise<LakeAddResult[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  const results: LakeAddResult[] = [];
  try {
    for (const dir of dirs) results.push(await addRun(conn, lake, dir));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return results;
}

async function addRun(conn: DuckDBConnection, lake: string, dir: string): Promise<LakeAddResult> {
  const manifestPath = join(dir, "manifest.json");
  const manifest = parseManifest(await readFile(manifestPath, "utf8"), manifestPath);
  const errors: string[] = [];
  let source = "memory";
  if (manifest.database) {
    const db = await bundlePath(dir, manifest.database.file);
    await conn.run(`ATTACH ${literal(db)} AS src (READ_ONLY)`);
    source = "src";
    const refused = await ownership(conn, manifest, db).catch(async (e: Error) => {
      await conn.run("DETACH src");
      throw e;
    });
    if (refused) {
      await conn.run("DETACH src");
      throw new Error(`lake add refused ${refused}`);
    }
  } else await loadBundleTables(conn, "memory", dir, manifest, errors);
  try {
    const names = (
      await conn.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' ORDER BY 1",
        [source],
      )
    )
      .getRows()
      .map((r) => String(r[0]));
    const c = manifest.context;
    // A null partition value would make a `=NULL` folder that readers turn into the string "NULL".
    const part = {
      app: literal(c.app),
      device_model: literal(c.device_model ?? "unknown"),
      api_level: String(Number.isInteger(c.api_level) ? c.api_level : -1),
    };
    await removeRun(lake, names, manifest.run_id);
    const tables: Record<string, number> = {};
    for (const name of names) {
      const columns = (
        await conn.runAndReadAll(
          "SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND schema_name = 'main' AND table_name = ? ORDER BY column_index",
          [source, name],
        )
      )
        .getRows()
        .map((r) => String(r[0]))
        .filter((n) => !(n in part));
      const select = `SELECT ${columns.map(quote).join(", ")}, ${part.app} AS app, ${part.device_model} AS device_model, ${part.api_level}::INTEGER AS api_level FROM ${source}.main.${quote(name)}`;
      tables[name] = await copy(conn, select, join(lake, name));
    }
    tables[RUN_SUMMARY] = await writeSummary(
      conn,
      join(lake, RUN_SUMMARY, `app=${encodeURIComponent(c.app)}`),
      manifest.run_id,
      summarySql(source, names.includes("frames"), part),
    );
    return { run_id: manifest.run_id, tables, errors };
  } finally {
    if (source === "src") await conn.run("DETACH src");
    else for (const t of await tablesIn(conn, "memory")) await conn.run(`DROP TABLE memory.main.${quote(t)}`);
  }
}

/** Why the attached `src` is not this manifest's run (pack-stamp.ts), or null. */
async function ownership(conn: DuckDBConnection, manifest: Manifest, db: string): Promise<string | null> {
  const q = packStampQueries("src");
  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
  const hasStamp = Number((await rows(q.hasStamp))[0]?.n ?? 0) > 0;
  const stamp = hasStamp ? ((await rows(q.stamp)) as unknown as StampRow[]) : undefined;
  const runIds = (await rows(q.runs)).map((r) => String(r.run_id));
  return packStampError(manifest, stamp, runIds, db);
}

/** One row: the run's context (DUNE's attributes) and its frame figures; suspect frames are left out. */
function summarySql(
  source: string,
  hasFrames: boolean,
  part: { app: string; device_model: string; api_level: string },
) {
  const frames = hasFrames
    ? `(SELECT count(*)::BIGINT AS frames, count(*) FILTER (WHERE jank)::BIGINT AS janky_frames,
         count(*) FILTER (WHERE jank) / greatest(count(*), 1) AS jank_share,
         quantile_cont(duration, 0.5) / 1e6 AS p50_ms, quantile_cont(duration, 0.9) / 1e6 AS p90_ms,
         quantile_cont(duration, 0.95) / 1e6 AS p95_ms, quantile_cont(duration, 0.99) / 1e6 AS p99_ms,
         avg(duration) / 1e6 AS mean_ms
       FROM ${source}.main.frames WHERE suspect IS NULL)`
    : `(SELECT 0::BIGINT AS frames, 0::BIGINT AS janky_frames, NULL::DOUBLE AS jank_share, NULL::DOUBLE AS p50_ms,
         NULL::DOUBLE AS p90_ms, NULL::DOUBLE AS p95_ms, NULL::DOUBLE AS p99_ms, NULL::DOUBLE AS mean_ms)`;
  return `SELECT r.run_id, r.app_version, r.scenario, r.manufacturer, r.sdk_release, r.cpu_abi, r.screen_width,
      r.screen_height, r.refresh_hz, r.network, r.battery_level, r.started_at, r.complete, r.synthetic, f.*,
      ${part.app} AS app, ${part.device_model} AS device_model, ${part.api_level}::INTEGER AS api_level
    FROM ${source}.main.runs r, ${frames} f`;
}

/**
 * run_summary is one file per app, rewritten with the run's row replaced: a history query then opens one small
 * file, not one per run (10,000 per-run files took 13 s to open at load 10, bench/lake.bench.ts).
 */
async function writeSummary(
  conn: DuckDBConnection,
  dir: string,
  runId: string,
  row: string,
): Promise<number> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, "summary.parquet");
  const kept = await stat(file).then(
    () => `SELECT * FROM read_parquet(${literal(file)}) WHERE run_id <> ${literal(runId)} UNION ALL BY NAME `,
    () => "",
  );
  // the app is the folder's (a Hive partition), not a column of the file
  await conn.run(
    `COPY (${kept}SELECT * EXCLUDE (app) FROM (${row}) ORDER BY run_id) TO ${literal(`${file}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`,
  );
  await rename(`${file}.tmp`, file);
  return 1;
}

async function copy(conn: DuckDBConnection, select: string, to: string): Promise<number> {
  const result = await conn.runAndReadAll(
    `COPY (${select}) TO ${literal(to)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${LAKE_PARTITIONS.join(", ")}), OVERWRITE_OR_IGNORE)`,
  );
  return Number(result.getRows()[0]?.[0] ?? 0);
}

/** Deletes `<table>/app=*\/device_model=*\/api_level=*\/run_id=<id>` for every table (a re-add replaces the run). */
async function removeRun(lake: string, tables: readonly string[], runId: string): Promise<void> {
  const dirs = async (path: string) =>
    (await readdir(path, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory())
      .map((e) => join(path, e.name));
  for (const table of tables)
    for (const app of await dirs(join(lake, table)))
      for (const device of await dirs(app))
        for (const api of await dirs(device))
          for (const run of await dirs(api))
            // DuckDB percent-encodes partition values in folder names ("Pixel 2" is device_model=Pixel%202).
            if (decodeURIComponent(basename(run)) === `run_id=${runId}`)
              await rm(run, { recursive: true, force: true });
}

async function tablesIn(conn: DuckDBConnection, catalog: string): Promise<string[]> {
  return (
    await conn.runAndReadAll(
      "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main'",
      [catalog],
    )
  )
    .getRows()
    .map((r) => String(r[0]));
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
