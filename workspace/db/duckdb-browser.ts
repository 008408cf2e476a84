// The browser engine: one AsyncDuckDB, running in its own Web Worker. Only this module touches DuckDB.
import * as duckdb from "@duckdb/duckdb-wasm";
import ehWasm from "@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url";
import ehWorker from "@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url";
import mvpWasm from "@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url";
import mvpWorker from "@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url";
import { ATTACH_DATABASE_SQL, quoteIdent, USE_DATABASE_SQL, type SqlEngine } from "./engine";

export async function createBrowserEngine(): Promise<SqlEngine> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
    eh: { mainModule: ehWasm, mainWorker: ehWorker },
  });
  const worker = new Worker(bundle.mainWorker!);
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule);
  const connect = async () => {
    const c = await db.connect();
    await c.query(USE_DATABASE_SQL);
    return c;
  };
  const setup = await db.connect();
  await setup.query(ATTACH_DATABASE_SQL);
  await setup.close();
  let conn = await connect();
  // Loads get their own connection so a running notebook query never blocks on an insert.
  let loadConn = await connect();
  let loadSeq = 0;

  // One worker round trip, not three (prepare, query, close): a run's tables are registered before the first
  // chart, so this is on the critical path. The name is a table name of ours, quoted as a SQL string.
  async function exists(name: string): Promise<boolean> {
    const t = await loadConn.query(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${name.replace(/'/g, "''")}'`);
    return Number(t.getChild("n")!.get(0)) > 0;
  }

  return {
    async query(sql, params = []) {
      if (params.length === 0) return (await conn.query(sql)) as never;
      const stmt = await conn.prepare(sql);
      try {
        return (await stmt.query(...params)) as never;
      } finally {
        await stmt.close();
      }
    },
    async insertArrowStream(table, ipc, options) {
      if (options?.append) {
        try {
          await loadConn.insertArrowFromIPCStream(ipc, { name: table, create: false });
        } catch (e) {
          loadConn = await connect();
          throw e;
        }
        return "appended";
      }
      const target = (await exists(table)) ? `_load_${++loadSeq}` : table;
      try {
        await loadConn.insertArrowFromIPCStream(ipc, { name: target, create: true });
      } catch (e) {
        loadConn = await connect(); // a failed insert poisons the connection (STACK.md)
        throw e;
      }
      if (!(await exists(target))) {
        loadConn = await connect();
        throw new Error(`DuckDB did not create ${target} from the Arrow stream`);
      }
      if (target === table) return "created";
      await loadConn.query(`INSERT INTO ${quoteIdent(table)} BY NAME SELECT * FROM ${quoteIdent(target)}`);
      await loadConn.query(`DROP TABLE ${quoteIdent(target)}`);
      return "merged";
    },
    async interrupt() {
      await conn.cancelSent().catch(() => false);
    },
    async close() {
      await conn.close();
      await loadConn.close();
      await db.terminate();
    },
  };
}
