// DuckDB-WASM's blocking Node build: the engine of the headless runner and the tests (simpler than the
// async worker build; docs/architecture.md, "Engines").
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Table } from "apache-arrow";
import { arrowLoader } from "../arrow-loader";
import { ATTACH_DATABASE_SQL, USE_DATABASE_SQL, type SqlEngine } from "../engine";

const require = createRequire(import.meta.url);

type BlockingConnection = {
  query(sql: string): Table;
  prepare(sql: string): { query(...params: unknown[]): Table; close(): void };
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  close(): void;
};

export async function createNodeEngine(): Promise<SqlEngine> {
  const duckdb = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
  const dist = dirname(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"));
  const bundles = {
    mvp: { mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: join(dist, "duckdb-node-mvp.worker.cjs") },
    eh: { mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: join(dist, "duckdb-node-eh.worker.cjs") },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  const connect = (): BlockingConnection => {
    const c: BlockingConnection = db.connect();
    c.query(USE_DATABASE_SQL);
    return c;
  };
  const setup: BlockingConnection = db.connect();
  setup.query(ATTACH_DATABASE_SQL);
  setup.close();
  let conn = connect();
  return {
    async query(sql, params = []) {
      if (params.length === 0) return conn.query(sql);
      const stmt = conn.prepare(sql);
      try {
        return stmt.query(...params);
      } finally {
        stmt.close();
      }
    },
    insertArrowStream: arrowLoader(
      () => conn,
      () => (conn = connect()),
    ),
    async registerDatabaseFile(name, file) {
      // This build reads only what it is given (its file-exists check is always false): the bytes, copied in.
      if ("path" in file) db.registerFileBuffer(name, new Uint8Array(await readFile(file.path)));
      else if ("blob" in file) db.registerFileBuffer(name, new Uint8Array(await file.blob.arrayBuffer()));
      else throw new Error(`${name}: the Node DuckDB-WASM engine reads no URLs (${file.url})`);
      return name;
    },
    async interrupt() {
      // The blocking build runs queries synchronously: nothing is ever in flight between awaits.
    },
    async close() {
      conn.close();
      await db.terminate?.();
    },
  };
}
