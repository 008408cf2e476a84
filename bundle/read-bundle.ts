// Reads a run bundle from any byte source (a folder, dropped files, URLs): manifest first, then each
// table on its own, so one bad table is reported while the others still load.
import { RecordBatchReader, Table, tableFromIPC, type RecordBatch, type Schema } from "apache-arrow";
import { crc32, crc32Hex } from "./crc32";
import { BundleError, parseManifest, type Manifest } from "./manifest";
import { makeBundleTable, withMissingNullColumns } from "./table-builder";
import type { TableName } from "./schema";
import { validateTable } from "./validate";

export interface BundleSource {
  /** how to name this bundle in messages (a folder path, URL or dropped folder name) */
  label: string;
  read(file: string): Promise<Uint8Array>;
  /** the file's bytes as they arrive (big tables go to DuckDB while still downloading); else it is read whole */
  stream?(file: string): AsyncIterable<Uint8Array>;
  /** where a file of the bundle lies, for an engine to read in place (a packed run.duckdb) */
  locate?(file: string): DatabaseFile;
}

/** Where a run's database file is: a URL (browser), a dropped File (browser), or a path (Node). */
export type DatabaseFile = { url: string } | { blob: Blob } | { path: string };

export interface LoadedBundle {
  manifest: Manifest;
  /** every table that decoded and validated, including runs (from the manifest) */
  tables: Map<TableName, Table>;
  /** tables that failed or loaded only partly; the message names file, table and column */
  errors: BundleError[];
}

const ARROW_MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

export async function readBundle(source: BundleSource): Promise<LoadedBundle> {
  const manifestBytes = await source.read("manifest.json").catch((e: Error) => {
    throw Object.assign(new BundleError(`${source.label}/manifest.json`, `cannot read (${e.message})`), {
      cause: e,
    });
  });
  const manifest = parseManifest(new TextDecoder().decode(manifestBytes), `${source.label}/manifest.json`);
  const tables = new Map<TableName, Table>();
  const errors: BundleError[] = [];
  tables.set("runs", runsTable(manifest));
  for (const [name, entry] of Object.entries(manifest.tables)) {
    const file = `${source.label}/${entry.file}`;
    try {
      const bytes = await source.read(entry.file).catch((e: Error) => {
        throw new BundleError(file, `cannot read (${e.message})`, name);
      });
      const { table, error } = decodeArrowFile(bytes, file, name);
      validateTable(table, name, file);
      tables.set(name as TableName, withMissingNullColumns(name as TableName, table));
      // One message per fault: a cut or undecodable file is reported as such, not also as a wrong checksum.
      const checksum = error ? null : checksumError(entry.crc32, crc32(bytes), file, name);
      if (error) errors.push(error);
      else if (checksum) errors.push(checksum);
      else if (table.numRows !== entry.rows)
        errors.push(
          new BundleError(
            file,
            `table ${name}: manifest says ${entry.rows} rows, file has ${table.numRows}`,
            name,
          ),
        );
    } catch (e) {
      errors.push(e instanceof BundleError ? e : new BundleError(file, (e as Error).message, name));
    }
  }
  return { manifest, tables, errors };
}

/** The error for a file whose CRC-32 is not the manifest's; none when they agree or the manifest has none. */
export function checksumError(
  expected: string | undefined,
  actual: number,
  file: string,
  table: string,
): BundleError | null {
  if (expected === undefined || expected === crc32Hex(actual)) return null;
  return new BundleError(
    file,
    `table ${table}: checksum mismatch: the manifest says CRC-32 ${expected}, the file has ${crc32Hex(actual)} (the file was changed or damaged after it was written)`,
    table,
  );
}

/**
 * Decodes an Arrow IPC stream (what the writer emits, `.arrows`) or IPC file (`.arrow`). A truncated
 * stream keeps the record batches that arrived whole and reports where it broke.
 */
export function decodeArrowFile(
  bytes: Uint8Array,
  file: string,
  table: string,
): { table: Table; error?: BundleError } {
  const isFileFormat = bytes.length >= 6 && ARROW_MAGIC.every((b, i) => bytes[i] === b);
  if (isFileFormat) {
    const end = bytes.length;
    if (end < 14 || !ARROW_MAGIC.every((b, i) => bytes[end - 6 + i] === b))
      throw new BundleError(file, `table ${table}: truncated Arrow file (${end} bytes, no footer)`, table);
    try {
      return { table: tableFromIPC(bytes) };
    } catch (e) {
      throw new BundleError(file, `table ${table}: corrupt Arrow file (${(e as Error).message})`, table);
    }
  }
  if (bytes.length < 8 || !(bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff))
    throw new BundleError(
      file,
      `table ${table}: not Arrow IPC (neither ARROW1 file magic nor a stream continuation marker at offset 0)`,
      table,
    );
  const batches: RecordBatch[] = [];
  let schema: Schema | undefined;
  let failure: string | undefined;
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    schema = reader.schema;
    for (const batch of reader) batches.push(batch);
  } catch (e) {
    failure = (e as Error).message;
  }
  if (!schema)
    throw new BundleError(
      file,
      `table ${table}: truncated Arrow stream (${bytes.length} bytes, no complete schema: ${failure ?? "none"})`,
      table,
    );
  const n = bytes.length;
  const hasEndMarker =
    failure === undefined && bytes[n - 8] === 0xff && bytes[n - 4] === 0 && bytes[n - 1] === 0;
  const result = batches.length ? new Table(batches) : new Table(schema);
  if (hasEndMarker) return { table: result };
  if (batches.length === 0)
    throw new BundleError(
      file,
      `table ${table}: truncated Arrow stream (${n} bytes, no complete record batch)`,
      table,
    );
  return {
    table: result,
    error: new BundleError(
      file,
      `table ${table}: truncated Arrow stream (${n} bytes; kept ${result.numRows} rows from ${batches.length} whole record batches${failure ? `; ${failure}` : ""})`,
      table,
    ),
  };
}

/** The runs table is the manifest, as one row. */
export function runsTable(m: Manifest): Table {
  const c = m.context;
  const one = <T>(v: T | undefined | null) => [v ?? null];
  return makeBundleTable(
    "runs",
    m.run_id,
    {
      app: [c.app],
      app_version: one(c.app_version),
      scenario: one(c.scenario),
      device_model: one(c.device_model),
      manufacturer: one(c.manufacturer),
      sdk_release: one(c.sdk_release),
      api_level: one(c.api_level),
      cpu_abi: one(c.cpu_abi),
      screen_width: one(c.screen_width),
      screen_height: one(c.screen_height),
      refresh_hz: one(c.refresh_hz),
      network: one(c.network),
      battery_level: one(c.battery_level),
      started_at: one(m.started_at),
      complete: [m.complete],
      synthetic: [m.synthetic],
      warnings: [m.warnings],
    },
    1,
  );
}
