// The native engine (docs/scaling.md, "Tier 2"): @duckdb/node-api (DuckDB 1.5, multi-threaded, parquet built
// in) behind the same SqlEngine as DuckDB-WASM, for headless runs over big inputs. Node only. It has no Arrow
// IPC reader offline (docs/architecture.md): streams are decoded by apache-arrow and go in through the
// appender (workspace/db/node/pack-columns.ts).
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import { RecordBatchReader } from "apache-arrow";
import { DUCKDB_TYPE } from "../../../bundle/duckdb-types";
import { appendBatch } from "./pack-columns";
import { columnTypeOf, type ColumnType } from "../../../bundle/schema";
import { attachDatabase, quoteIdent, type InsertOutcome, type SqlEngine } from "../engine";
import { resultToArrow, StreamFailed, streamToArrow } from "./native-arrow";

/** The pinned native DuckDB (docs/scaling.md says what differs from DuckDB-WASM's 1.4). */
export const NATIVE_DUCKDB_VERSION = "1.5";

/** The native engine, plus fresh connections on its database (jankbook serve runs one query per connection). */
export interface NativeEngine extends SqlEngine {
  connect(): Promise<DuckDBConnection>;
}

export interface NativeEngineOptions {
  /**
   * Stream each result and convert it as it is fetched (native-arrow.ts streamToArrow) instead of letting DuckDB
   * materialise it first. Off: it lowers the peak memory of a big result but took longer at a million rows
   * (docs/scaling.md, "Which engine").
   */
  stream?: boolean;
}

export async function createNativeEngine(options: NativeEngineOptions = {}): Promise<NativeEngine> {
  const instance = await DuckDBInstance.create(":memory:");
  const connect = await attachDatabase({
    open: () => instance.connect(),
    run: (c, sql) => c.run(sql),
    close: (c) => c.closeSync(),
  });
  const conn = await connect();
  let temporaries = 0;
  let interrupted = false;

  const exists = async (name: string) =>
    (
      await conn.runAndReadAll(
        "SELECT count(*)::INTEGER FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ?",
        [name],
      )
    ).getRows()[0]![0] !== 0;

  async function insert(c: DuckDBConnection, table: string, ipc: Uint8Array, create: boolean): Promise<void> {
    const reader = RecordBatchReader.from(ipc);
    reader.open();
    const columns = reader.schema.fields.map((f) => {
      const type = columnTypeOf(f.type);
      if (!(type in DUCKDB_TYPE))
        throw new Error(`table ${table}: column ${f.name} is ${type}, not a bundle type`);
      return { name: f.name, type: type as ColumnType };
    });
    if (create)
      await c.run(
        `CREATE TABLE ${quoteIdent(table)} (${columns.map((x) => `${quoteIdent(x.name)} ${DUCKDB_TYPE[x.type]}`).join(", ")})`,
      );
    const appender = await c.createAppender(table);
    try {
      for (const batch of reader) appendBatch(appender, columns, batch);
    } finally {
      appender.closeSync();
    }
  }

  return {
    connect,
    async query(sql, params = [], cap) {
      const values = params.length ? (params as DuckDBValue[]) : undefined;
      if (!options.stream) return resultToArrow(await conn.runAndReadAll(sql, values)) as never;
      interrupted = false;
      try {
        return (await streamToArrow(await conn.stream(sql, values), cap)) as never;
      } catch (e) {
        if (!(e instanceof StreamFailed)) throw e;
        if (interrupted) throw new Error("INTERRUPT Error: Interrupted!");
        // The stream lost DuckDB's message: the query runs again, materialised, to fail with it.
        return resultToArrow(await conn.runAndReadAll(sql, values)) as never;
      }
    },
    // The same rules as arrowLoader (workspace/db/arrow-loader.ts): create, merge by name, or append as is.
    async insertArrowStream(table, ipc, options): Promise<InsertOutcome> {
      if (options?.append) {
        await insert(conn, table, ipc, false);
        return "appended";
      }
      if (!(await exists(table))) {
        await insert(conn, table, ipc, true);
        return "created";
      }
      const temporary = `_load_${++temporaries}`;
      await insert(conn, temporary, ipc, true);
      await conn.run(`INSERT INTO ${quoteIdent(table)} BY NAME SELECT * FROM ${quoteIdent(temporary)}`);
      await conn.run(`DROP TABLE ${quoteIdent(temporary)}`);
      return "merged";
    },
    async registerDatabaseFile(name, file) {
      // Native DuckDB reads local files itself: nothing to register, the path is what ATTACH names.
      if ("path" in file) return file.path;
      throw new Error(`${name}: the native engine attaches local files only`);
    },
    async interrupt() {
      interrupted = true;
      conn.interrupt();
    },
    async close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
