// DuckDB-WASM's blocking Node build: the engine of the headless runner and the tests (STACK.md).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Table } from "apache-arrow";
import { ATTACH_DATABASE_SQL, quoteIdent, USE_DATABASE_SQL, type SqlEngine } from "./engine";

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
  let loadSeq = 0;

  function exists(name: string): boolean {
    const t = conn.query(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${name.replace(/'/g, "''")}'`);
    return Number(t.getChild("n")!.get(0)) > 0;
  }

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
    async insertArrowStream(table, ipc, options) {
      if (options?.append) {
        conn.insertArrowFromIPCStream(ipc, { name: table, create: false });
        return "appended";
      }
      const target = exists(table) ? `_load_${++loadSeq}` : table;
      try {
        conn.insertArrowFromIPCStream(ipc, { name: target, create: true });
      } catch (e) {
        conn = connect(); // a failed insert poisons the connection (STACK.md)
        throw e;
      }
      // insertArrowFromIPCStream can fail silently: check the table is really there.
      if (!exists(target)) {
        conn = connect();
        throw new Error(`DuckDB did not create ${target} from the Arrow stream`);
      }
      if (target === table) return "created";
      conn.query(`INSERT INTO ${quoteIdent(table)} BY NAME SELECT * FROM ${quoteIdent(target)}`);
      conn.query(`DROP TABLE ${quoteIdent(target)}`);
      return "merged";
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
