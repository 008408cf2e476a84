// The SQL engine every consumer talks to: DuckDB-WASM in the browser's worker or in Node (headless runner,
// tests). One implementation per host; nothing else touches DuckDB (DESIGN.md, "Data flow").
import type { Table } from "apache-arrow";
import type { LoadedBundle } from "../../bundle/read-bundle";
import { tableSpec, type TableName } from "../../bundle/schema";
import { encodeStream } from "../../bundle/encode-stream";

export interface ColumnInfo {
  name: string;
  type: string;
}

export interface TableInfo {
  name: string;
  rows: number;
  columns: ColumnInfo[];
}

export interface SqlEngine {
  /** Runs one statement; `?` placeholders are bound from params in order (never spliced into the text). */
  query(sql: string, params?: readonly unknown[]): Promise<Table>;
  /**
   * Creates `table` from an Arrow IPC stream, or appends to it by column name when it exists. With
   * `append`, the caller vouches that the stream has exactly the table's columns (the next chunk of the
   * stream that created it), so rows go straight in.
   */
  insertArrowStream(table: string, ipcStream: Uint8Array, options?: { append?: boolean }): Promise<void>;
  /** Cancels the query in flight, if any (a re-run makes the stale one pointless). */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

/** Quotes an identifier for DuckDB. Identifiers cannot be bound, so this is the only splicing allowed. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function tableExists(engine: SqlEngine, name: string): Promise<boolean> {
  const t = await engine.query("SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_schema = 'main' AND table_name = ?", [name]);
  return Number(t.getChild("n")!.get(0)) > 0;
}

export async function listTables(engine: SqlEngine): Promise<TableInfo[]> {
  const cols = await engine.query(
    "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position",
  );
  const byTable = new Map<string, ColumnInfo[]>();
  for (const row of cols.toArray() as { table_name: string; column_name: string; data_type: string }[]) {
    const list = byTable.get(row.table_name) ?? [];
    list.push({ name: row.column_name, type: row.data_type });
    byTable.set(row.table_name, list);
  }
  const out: TableInfo[] = [];
  for (const [name, columns] of byTable) {
    const count = await engine.query(`SELECT count(*)::INTEGER AS n FROM ${quoteIdent(name)}`);
    out.push({ name, rows: Number(count.getChild("n")!.get(0)), columns });
  }
  return out;
}

export interface LoadReport {
  run_id: string;
  tables: { name: string; rows: number }[];
  errors: string[];
}

/**
 * Rows per insert. A big table goes in as several inserts so the main thread never encodes more than a
 * few tens of MB at once (no long task while 10M frames load: issue 8) and DuckDB's worker never holds
 * the whole stream beside the table it builds.
 */
export const LOAD_CHUNK_ROWS = 262_144;

/**
 * Registers every table of a loaded bundle, appending to tables other runs already created. Columns are
 * put in schema order first, so runs written by different jankbook versions line up by name.
 */
/** The run overview's tables go in first, so its chart can be drawn before the rest of the run is in. */
const FIRST_TABLES: readonly TableName[] = ["frames", "ui_events"];

export async function loadBundleIntoEngine(
  engine: SqlEngine,
  bundle: LoadedBundle,
  onTable?: (name: TableName, remaining: readonly TableName[]) => void,
): Promise<LoadReport> {
  const report: LoadReport = { run_id: bundle.manifest.run_id, tables: [], errors: bundle.errors.map((e) => e.message) };
  const rank = (name: TableName) => (FIRST_TABLES.includes(name) ? FIRST_TABLES.indexOf(name) : FIRST_TABLES.length);
  const entries = [...bundle.tables].sort(([a], [b]) => rank(a) - rank(b));
  for (const [i, [name, table]] of entries.entries()) {
    try {
      const ordered = canonicalColumns(name, table);
      await engine.insertArrowStream(name, encodeStream(ordered.slice(0, LOAD_CHUNK_ROWS)));
      for (let start = LOAD_CHUNK_ROWS; start < ordered.numRows; start += LOAD_CHUNK_ROWS)
        await engine.insertArrowStream(name, encodeStream(ordered.slice(start, start + LOAD_CHUNK_ROWS)), { append: true });
      report.tables.push({ name, rows: table.numRows });
    } catch (e) {
      report.errors.push(`${bundle.manifest.run_id}: table ${name}: could not be registered in DuckDB (${(e as Error).message})`);
    }
    onTable?.(name, entries.slice(i + 1).map(([n]) => n));
  }
  return report;
}

function canonicalColumns(name: TableName, table: Table): Table {
  const spec = tableSpec(name);
  const names = table.schema.fields.map((f) => f.name);
  const ordered = [...spec.columns.map((c) => c.name), ...names.filter((n) => !spec.columns.some((c) => c.name === n))];
  return ordered.every((n, i) => names[i] === n) ? table : table.select(ordered);
}
