// `packBundle(dir)`: a run's tables as one DuckDB database file, run.duckdb, beside the Arrow files
// (docs/scaling.md, "The packed file"). The workspace attaches it read-only instead of ingesting the Arrow
// streams. Written by native DuckDB in a storage version the pinned DuckDB-WASM reads
// (docs/architecture.md, "Decisions").
import { open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { RecordBatchReader, type RecordBatch, type Schema } from "apache-arrow";
import { DUCKDB_TYPE } from "../../../bundle/duckdb-types";
import { BundleError, parseManifest, type DatabaseEntry, type Manifest } from "../../../bundle/manifest";
import { appendBatch } from "./pack-columns";
import { packOverview } from "./pack-overview";
import { runsTable } from "../../../bundle/read-bundle";
import { columnTypeOf, tableSpec, type ColumnType } from "../../../bundle/schema";
import {
  canonicalOrder,
  missingNullableColumns,
  nullsInRequiredColumn,
  validateSchema,
} from "../../../bundle/validate";

export const PACK_FILE = "run.duckdb";
/** DuckDB-WASM 1.32 (engine 1.4.3) reads files written in this storage version (docs/scaling.md). */
export const PACK_STORAGE_VERSION = "v1.2.0";

export interface PackResult {
  /** the manifest as rewritten, with its `database` entry */
  manifest: Manifest;
  /** path of the database file */
  file: string;
  /** what could not be packed (named by file, table, column, batch); the rest is packed */
  errors: string[];
}

/**
 * Writes `<dir>/run.duckdb` from the bundle's Arrow files and lists it in manifest.json with its row counts.
 * Packing again replaces it. A table that is cut short keeps its whole record batches; a table that cannot be
 * read is left out; either is named in the result's errors and in the manifest's `database.errors`.
 */
export async function packBundle(dir: string): Promise<PackResult> {
  const manifestPath = join(dir, "manifest.json");
  const manifest = parseManifest(await readFile(manifestPath, "utf8"), manifestPath);
  const target = join(dir, PACK_FILE);
  const tmp = `${target}.tmp`;
  await rm(tmp, { force: true });
  await rm(`${tmp}.wal`, { force: true });
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  const tables: Record<string, number> = {};
  const errors: string[] = [];
  let version = "";
  try {
    version = String((await conn.runAndReadAll("SELECT version()")).getRows()[0]![0]);
    await conn.run(`ATTACH ${sqlString(tmp)} AS pack (STORAGE_VERSION '${PACK_STORAGE_VERSION}')`);
    Object.assign(tables, await loadBundleTables(conn, "pack", dir, manifest, errors));
    if (tables.frames) await packOverview(conn, "pack");
    await conn.run("DETACH pack");
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  await rename(tmp, target);
  const database: DatabaseEntry = {
    file: PACK_FILE,
    storage_version: PACK_STORAGE_VERSION,
    written_by: `duckdb ${version}`,
    tables,
    ...(errors.length ? { errors } : {}),
  };
  const written: Manifest = { ...manifest, database };
  await writeFile(`${manifestPath}.tmp`, JSON.stringify(written, null, 2) + "\n");
  await rename(`${manifestPath}.tmp`, manifestPath);
  return { manifest: written, file: target, errors };
}

/**
 * Every table of the bundle (runs from the manifest, the others from their Arrow files) into `<catalog>.main`
 * of a native connection; returns their row counts. What cannot be read is pushed to `errors`, named.
 */
export async function loadBundleTables(
  conn: DuckDBConnection,
  catalog: string,
  dir: string,
  manifest: Manifest,
  errors: string[],
): Promise<Record<string, number>> {
  const tables: Record<string, number> = {};
  const runs = runsTable(manifest);
  tables.runs = await packTable(
    conn,
    catalog,
    "runs",
    runs.schema,
    runs.batches,
    join(dir, "manifest.json"),
    errors,
  );
  for (const [name, entry] of Object.entries(manifest.tables)) {
    const file = join(dir, entry.file);
    try {
      const rows = await packFile(conn, catalog, name, file, errors);
      tables[name] = rows;
      if (rows !== entry.rows && !errors.some((e) => e.startsWith(`${file}:`)))
        errors.push(`${file}: table ${name}: manifest says ${entry.rows} rows, file has ${rows}`);
    } catch (e) {
      errors.push(e instanceof BundleError ? e.message : `${file}: table ${name}: ${(e as Error).message}`);
    }
  }
  return tables;
}

/** Streams one Arrow IPC file (stream or file format) batch by batch: a 10M-row table is never whole in memory. */
async function packFile(
  conn: DuckDBConnection,
  catalog: string,
  name: string,
  file: string,
  errors: string[],
): Promise<number> {
  const handle = await open(file).catch((e: Error) => {
    throw new BundleError(file, `table ${name}: cannot read (${e.message})`, name);
  });
  try {
    const reader = await RecordBatchReader.from(handle);
    await reader.open();
    if (!reader.schema) throw new BundleError(file, `table ${name}: no Arrow schema`, name);
    let batches = 0;
    let failure: string | undefined;
    async function* read(): AsyncGenerator<RecordBatch> {
      try {
        for await (const batch of reader) {
          batches++;
          yield batch;
        }
      } catch (e) {
        failure = (e as Error).message;
      }
    }
    const rows = await packTable(conn, catalog, name, reader.schema, read(), file, errors);
    if (failure)
      errors.push(
        new BundleError(
          file,
          `table ${name}: cut or corrupt Arrow stream after ${batches} whole record batches (${rows} rows kept): ${failure}`,
          name,
        ).message,
      );
    return rows;
  } catch (e) {
    throw e instanceof BundleError
      ? e
      : new BundleError(file, `table ${name}: not a readable Arrow IPC file (${(e as Error).message})`, name);
  } finally {
    await handle.close();
  }
}

/**
 * Creates `<catalog>.main.<name>` with the columns DuckDB-WASM would make of this Arrow schema (the contract's order,
 * extra columns after, missing nullable columns last, as the streaming load does) and appends every batch.
 */
async function packTable(
  conn: DuckDBConnection,
  catalog: string,
  name: string,
  schema: Schema,
  batches: Iterable<RecordBatch> | AsyncIterable<RecordBatch>,
  file: string,
  errors: string[],
): Promise<number> {
  validateSchema(schema, name, file);
  const spec = tableSpec(name).columns;
  const present: { name: string; type: ColumnType }[] = [];
  for (const column of canonicalOrder(
    name,
    schema.fields.map((f) => f.name),
  )) {
    const type =
      spec.find((c) => c.name === column)?.type ??
      columnTypeOf(schema.fields.find((f) => f.name === column)!.type);
    if (type in DUCKDB_TYPE) present.push({ name: column, type: type as ColumnType });
    else
      errors.push(
        new BundleError(file, `table ${name}: extra column ${column} is ${type}, left out`, name, column)
          .message,
      );
  }
  const missing = missingNullableColumns(
    name,
    schema.fields.map((f) => f.name),
  );
  const columns = [...present, ...missing];
  const ddl = columns.map((c) => `${quote(c.name)} ${DUCKDB_TYPE[c.type]}`).join(", ");
  await conn.run(`CREATE OR REPLACE TABLE ${quote(catalog)}.main.${quote(name)} (${ddl})`);
  const appender = await conn.createAppender(name, "main", catalog);
  const required = spec.filter((c) => !c.nullable).map((c) => c.name);
  let rows = 0;
  let batchIndex = 0;
  for await (const batch of batches) {
    // A required column with nulls stops the table there: the batches before it are kept
    // (docs/architecture.md).
    const bad = required.find((c) => (batch.getChild(c)?.nullCount ?? 0) > 0);
    if (bad) {
      const nulls = batch.getChild(bad)!.nullCount;
      errors.push(
        nullsInRequiredColumn(
          name,
          file,
          bad,
          nulls,
          ` in record batch ${batchIndex} (rows ${rows}..${rows + batch.numRows - 1}); rows before it kept`,
        ).message,
      );
      break;
    }
    appendBatch(appender, columns, batch);
    rows += batch.numRows;
    batchIndex++;
  }
  appender.closeSync();
  return rows;
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
