// A device lab's history (docs/scaling.md, "The lake"): runs added to a lake of Hive-partitioned Parquet,
// `<table>/app=.../device_model=.../api_level=.../run_id=.../*.parquet` (zstd), plus `run_summary/app=.../`, one row
// a run with the figures cross-run notebooks need (DUNE §3's context attributes, frame counts, jank share,
// percentiles). Written by native DuckDB (parquet is linked in; DuckDB-WASM links no Parquet:
// docs/architecture.md).
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { bundlePath } from "../../../bundle/bundle-path";
import { checkLakeFolder } from "../../../bundle/lake-folder";
import { withLakeLock, type LakeLockOptions } from "../../../bundle/lake-lock";
import { parseManifest, type Manifest } from "../../../bundle/manifest";
import { loadBundleTables } from "./pack-bundle";
import { packStampError, packStampQueries, type StampRow } from "../../../bundle/pack-stamp";
import {
  type AppEntry,
  ensureLakeIndex,
  hiveFolderValue,
  literal,
  readAppEntry,
  readRunEntry,
  rewriteSummaryFile,
  writeAppEntry,
  writeRunEntry,
} from "./lake-index";

/** Partition columns, outermost first: a lab's queries filter by app, then device, then Android version. */
export const LAKE_PARTITIONS = ["app", "device_model", "api_level", "run_id"] as const;
export const RUN_SUMMARY = "run_summary";
/** Runs per run_summary file: an add rewrites one such file, and a history query opens one per this many runs. */
export const SUMMARY_RUNS_PER_FILE = 2048;

export interface LakeAddOptions extends LakeLockOptions {
  /** runs per run_summary file (SUMMARY_RUNS_PER_FILE) */
  summaryRunsPerFile?: number;
}

export interface LakeAddResult {
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
export async function lakeAdd(
  lake: string,
  dirs: readonly string[],
  options: LakeAddOptions = {},
): Promise<LakeAddResult[]> {
  await checkLakeFolder(lake);
  return withLakeLock(
    lake,
    () => addAll(lake, dirs, options.summaryRunsPerFile ?? SUMMARY_RUNS_PER_FILE),
    options,
  );
}

async function addAll(lake: string, dirs: readonly string[], perFile: number): Promise<LakeAddResult[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  const results: LakeAddResult[] = [];
  try {
    await ensureLakeIndex(conn, lake);
    for (const dir of dirs) results.push(await addRun(conn, lake, dir, perFile));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return results;
}

async function addRun(
  conn: DuckDBConnection,
  lake: string,
  dir: string,
  perFile: number,
): Promise<LakeAddResult> {
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
    // A run added before: its partitions, found by their exact paths in the index, go first. The folders this add
    // will write are listed first too, so an add cut short is cleaned up by the next add of the run.
    const runId = manifest.run_id;
    const before = await readRunEntry(lake, runId);
    const values = [c.app, c.device_model ?? "unknown", part.api_level, runId];
    const planned = names.map((name) =>
      join(name, ...LAKE_PARTITIONS.map((key, i) => `${key}=${hiveFolderValue(values[i]!)}`)),
    );
    const listed = [...new Set([...(before?.partitions ?? []), ...planned])].sort();
    const summary = await summaryFile(lake, c.app, before?.summary, perFile);
    // the summary file it is about to write is named too (`pending`), for the same reason
    await writeRunEntry(lake, runId, { partitions: listed, summary: before?.summary, pending: summary.file });
    for (const folder of before?.partitions ?? [])
      await rm(join(lake, folder), { recursive: true, force: true });
    const partitions = new Set<string>();
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
      const written = await copy(conn, select, join(lake, name));
      tables[name] = written.rows;
      for (const file of written.files) partitions.add(relative(lake, dirname(file)));
    }
    const earlier = [before?.summary, before?.pending].filter((f): f is string => f !== undefined);
    await writeSummary(
      conn,
      lake,
      c.app,
      runId,
      earlier,
      summary,
      summarySql(source, names.includes("frames"), part),
    );
    await writeRunEntry(lake, runId, { partitions: [...partitions].sort(), summary: summary.file });
    tables[RUN_SUMMARY] = 1;
    return { run_id: runId, tables, errors };
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
 * The run's row goes into its app's run_summary file still filling (`run_summary/app=.../part-N.parquet`, at most
 * `perFile` runs each), rewritten whole: a history query opens one file per `perFile` runs (10,000 per-run files
 * took 13 s to open at load 10, bench/lake.bench.ts), and an add rewrites one small file, not the app's history.
 * A run whose row is in a file already keeps it there.
 */
async function summaryFile(lake: string, app: string, previous: string | undefined, perFile: number) {
  const filling = (await readAppEntry(lake, app)) ?? { segment: 0, rows: 0 };
  if (filling.rows >= perFile && previous !== fileOf(app, filling.segment))
    Object.assign(filling, { segment: filling.segment + 1, rows: 0 });
  return { file: fileOf(app, filling.segment), filling };
}

/** Writes the run's row into `target`, after taking it out of every file an earlier add may have left it in. */
async function writeSummary(
  conn: DuckDBConnection,
  lake: string,
  app: string,
  runId: string,
  earlier: readonly string[],
  target: { file: string; filling: AppEntry },
  row: string,
): Promise<void> {
  for (const file of new Set(earlier))
    if (file !== target.file) await rewriteSummaryFile(conn, join(lake, file), runId, null);
  await rewriteSummaryFile(conn, join(lake, target.file), runId, row);
  if (!earlier.includes(target.file)) target.filling.rows++;
  await writeAppEntry(lake, app, target.filling);
}

const fileOf = (app: string, segment: number) =>
  join(RUN_SUMMARY, `app=${encodeURIComponent(app)}`, `part-${String(segment).padStart(6, "0")}.parquet`);

/** Writes the partitions; the files DuckDB wrote say which folders are the run's (the index keeps them). */
async function copy(
  conn: DuckDBConnection,
  select: string,
  to: string,
): Promise<{ rows: number; files: string[] }> {
  const result = await conn.runAndReadAll(
    `COPY (${select}) TO ${literal(to)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${LAKE_PARTITIONS.join(", ")}), OVERWRITE_OR_IGNORE, RETURN_FILES)`,
  );
  const [count, files] = result.getRowsJS()[0] ?? [0, []];
  return { rows: Number(count), files: (files as unknown[]).map(String) };
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
