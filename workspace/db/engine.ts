// The SQL engine every consumer talks to: DuckDB-WASM in the browser's worker or in Node (headless runner,
// tests). One implementation per host; nothing else touches DuckDB (docs/architecture.md, "Engines").
import type { Table } from "apache-arrow";
import type { DatabaseFile } from "../../bundle/read-bundle";
export type InsertOutcome = "created" | "merged" | "appended";

export interface ColumnInfo {
  name: string;
  type: string;
}

export interface TableInfo {
  name: string;
  rows: number;
  columns: ColumnInfo[];
}

/** A row cap an engine that streams its results may apply as the rows come (the caller still checks the table). */
export interface RowCap {
  maxRows: number;
  /** the error for a result of `rows` rows, all of them counted */
  over(rows: number): Error;
}

export interface SqlEngine {
  /** Runs one statement; `?` placeholders are bound from params in order (never spliced into the text). */
  query(sql: string, params?: readonly unknown[], cap?: RowCap): Promise<Table>;
  /**
   * Creates `table` from an Arrow IPC stream ("created"), or appends to it by column name when it exists
   * ("merged"). With `append`, the caller vouches that the stream has exactly the table's columns (the next
   * chunk of a stream that created it), so rows go straight in ("appended").
   */
  insertArrowStream(
    table: string,
    ipcStream: Uint8Array,
    options?: { append?: boolean },
  ): Promise<InsertOutcome>;
  /**
   * Makes a run's database file openable by `ATTACH '<name>'` (docs/architecture.md, "Decisions"): read
   * where it lies (HTTP range requests for a URL, a dropped File read lazily, a local path), never copied
   * whole. Engines that cannot attach leave it out, and such runs stream instead. Returns what to write in
   * `ATTACH '...'`.
   */
  registerDatabaseFile?(name: string, file: DatabaseFile): Promise<string>;
  /** Cancels the query in flight, if any (a re-run makes the stale one pointless). */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tables live in an in-memory database attached with COMPRESS, not in DuckDB's default one, which keeps
 * appended rows uncompressed: wide frames took 389 bytes a row there past ~4M rows (DuckDB-WASM ran out of its
 * 3.1 GiB at 8.65M) and 35 here, at the same ingest speed. Every connection must `USE` it.
 */
export const DATABASE = "jb";
export const ATTACH_DATABASE_SQL = `ATTACH ':memory:' AS ${DATABASE} (COMPRESS)`;
export const USE_DATABASE_SQL = `USE ${DATABASE}`;

/** How one DuckDB binding opens a connection, runs a statement on it and closes it. */
export interface ConnectionOps<C> {
  open(): Promise<C>;
  run(c: C, sql: string): Promise<unknown>;
  close(c: C): unknown;
}

/** Attaches DATABASE once; returns how to open a connection that uses it (USE is per connection). */
export async function attachDatabase<C>(ops: ConnectionOps<C>): Promise<() => Promise<C>> {
  const setup = await ops.open();
  await ops.run(setup, ATTACH_DATABASE_SQL);
  await ops.close(setup);
  return async () => {
    const c = await ops.open();
    await ops.run(c, USE_DATABASE_SQL);
    return c;
  };
}

/** A table with attached runs is a view; the rows streamed into it live in `<table>__streamed` (workspace/db/run-views.ts). */
export const STREAMED_SUFFIX = "__streamed";

/** Quotes an identifier for DuckDB. Identifiers cannot be bound, so this is the only splicing allowed. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function tableExists(engine: SqlEngine, name: string): Promise<boolean> {
  return (await relationCount(engine, "main", name)) > 0;
}

/**
 * The tables and views of the main database's `schema` (named `name`, when given). From duckdb_tables() and
 * duckdb_views(): the information_schema.tables view over them took 40-260 ms a query in DuckDB-WASM under
 * load, these a few ms (docs/scaling.md, "Start-up").
 */
export async function relationCount(engine: SqlEngine, schema: string, name?: string): Promise<number> {
  const t = await engine.query(
    `SELECT count(*)::INTEGER AS n FROM (SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ? UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = ? AND NOT internal)${name === undefined ? "" : " WHERE name = ?"}`,
    name === undefined ? [schema, schema] : [schema, schema, name],
  );
  return Number(t.getChild("n")!.get(0));
}

/**
 * The main database's tables and views with their columns and row counts, in two queries whatever the number of
 * tables. From duckdb_columns(), which lists views' columns too: the information_schema.columns view over it took
 * 160-240 ms a call in DuckDB-WASM under load.
 */
export async function listTables(engine: SqlEngine): Promise<TableInfo[]> {
  const cols = await engine.query(
    // Attached runs' own tables are reached through the views of the same names; their streamed parts are hidden.
    `SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT ends_with(table_name, '${STREAMED_SUFFIX}') ORDER BY table_name, column_index`,
  );
  const byTable = new Map<string, ColumnInfo[]>();
  for (const row of cols.toArray() as { table_name: string; column_name: string; data_type: string }[]) {
    const list = byTable.get(row.table_name) ?? [];
    list.push({ name: row.column_name, type: row.data_type });
    byTable.set(row.table_name, list);
  }
  if (byTable.size === 0) return [];
  const names = [...byTable.keys()];
  const counts = await engine.query(
    names
      .map((name, i) => `SELECT ${i} AS i, count(*)::INTEGER AS n FROM ${quoteIdent(name)}`)
      .join(" UNION ALL "),
  );
  const rows = new Map<number, number>();
  for (const row of counts.toArray() as { i: number; n: number }[]) rows.set(Number(row.i), Number(row.n));
  return names.map((name, i) => ({ name, rows: rows.get(i) ?? 0, columns: byTable.get(name)! }));
}

export interface LoadReport {
  run_id: string;
  tables: { name: string; rows: number }[];
  errors: string[];
}
