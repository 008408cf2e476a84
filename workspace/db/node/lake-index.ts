// Where each run of a lake lies (docs/scaling.md, "The lake"): `lake add` reads one small file by its exact path
// to find what a re-added run replaces, instead of listing every run folder of every table, so an add costs
// the same in an empty lake and in one of 100,000 runs.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { LAKE_INDEX } from "../../../bundle/lake-folder";
import { TABLE_NAMES } from "../../../bundle/schema";

const RUN_SUMMARY = "run_summary";

/** A run's place in the lake, paths relative to it. */
export interface RunEntry {
  /** its partition folders, `<table>/app=.../device_model=.../api_level=.../run_id=...` */
  partitions: string[];
  /** the run_summary file holding its row */
  summary?: string;
  /** the run_summary file an add was about to write when this entry was written (an add cut short may have) */
  pending?: string;
}

/** An app's run_summary files: `part-<segment>.parquet` is the one still filling, with `rows` rows. */
export interface AppEntry {
  segment: number;
  rows: number;
}

// File names: percent-encoded like DuckDB's partition folders, so any run id or app name is one plain name.
const runPath = (lake: string, runId: string) =>
  join(lake, LAKE_INDEX, "runs", `${encodeURIComponent(runId)}.json`);
const appPath = (lake: string, app: string) =>
  join(lake, LAKE_INDEX, "apps", `${encodeURIComponent(app)}.json`);

export const readRunEntry = (lake: string, runId: string) => readJson<RunEntry>(runPath(lake, runId));
export const writeRunEntry = (lake: string, runId: string, entry: RunEntry) =>
  writeJson(runPath(lake, runId), entry);
export const readAppEntry = (lake: string, app: string) => readJson<AppEntry>(appPath(lake, app));
export const writeAppEntry = (lake: string, app: string, entry: AppEntry) =>
  writeJson(appPath(lake, app), entry);

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`${path}: unreadable lake index entry (${(e as Error).message})`);
  }
}

/** Written beside and renamed over, so a reader never sees half an entry. */
async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify(value) + "\n");
  await rename(`${path}.tmp`, path);
}

/**
 * Makes the index when the lake has none: nothing to find in a new lake; in one written before the index
 * existed, one listing of its run folders and summary files (once; every add after that reads exact paths).
 * Built aside and renamed into place, so a lake never has half an index.
 */
export async function ensureLakeIndex(conn: DuckDBConnection, lake: string): Promise<void> {
  const index = join(lake, LAKE_INDEX);
  if (
    await stat(index).then(
      () => true,
      () => false,
    )
  )
    return;
  const aside = `${index}.tmp`;
  await rm(aside, { recursive: true, force: true });
  await mkdir(join(aside, "runs"), { recursive: true });
  await mkdir(join(aside, "apps"), { recursive: true });
  const runs = new Map<string, RunEntry>();
  const entryOf = (id: string) => runs.get(id) ?? runs.set(id, { partitions: [] }).get(id)!;
  for (const table of TABLE_NAMES)
    for (const app of await folders(join(lake, table)))
      for (const device of await folders(app))
        for (const api of await folders(device))
          for (const run of await folders(api)) {
            // DuckDB percent-encodes partition values in folder names ("Pixel 2" is device_model=Pixel%202).
            const name = decodeURIComponent(run.slice(api.length + 1));
            if (name.startsWith("run_id=")) entryOf(name.slice(7)).partitions.push(relative(lake, run));
          }
  for (const app of await folders(join(lake, RUN_SUMMARY)))
    for (const file of (await readdir(app)).filter((f) => f.endsWith(".parquet"))) {
      const path = join(app, file);
      const ids = await conn.runAndReadAll(`SELECT DISTINCT run_id FROM read_parquet(${literal(path)})`);
      for (const [id] of ids.getRows()) entryOf(String(id)).summary = relative(lake, path);
    }
  for (const [id, entry] of runs)
    await writeFile(join(aside, "runs", `${encodeURIComponent(id)}.json`), JSON.stringify(entry) + "\n");
  await rename(aside, index);
}

async function folders(path: string): Promise<string[]> {
  return (await readdir(path, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory())
    .map((e) => join(path, e.name));
}

/**
 * Rewrites one run_summary file without `dropRunId`'s row and with `addRow`'s (a SELECT of one row, app
 * included), through a rename. The file holds at most one segment's runs, so this costs the same however big
 * the lake is.
 */
export async function rewriteSummaryFile(
  conn: DuckDBConnection,
  file: string,
  dropRunId: string,
  addRow: string | null,
): Promise<void> {
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  const parts = [
    exists ? `SELECT * FROM read_parquet(${literal(file)}) WHERE run_id <> ${literal(dropRunId)}` : null,
    // the app is the folder's (a Hive partition), not a column of the file
    addRow ? `SELECT * EXCLUDE (app) FROM (${addRow})` : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return;
  await mkdir(dirname(file), { recursive: true });
  await conn.run(
    `COPY (SELECT * FROM (${parts.join(" UNION ALL BY NAME ")}) ORDER BY run_id) TO ${literal(`${file}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`,
  );
  await rename(`${file}.tmp`, file);
}

/** A partition value as DuckDB names its folder: every byte but A-Z a-z 0-9 - _ . ~ percent-encoded (checked). */
export function hiveFolderValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
