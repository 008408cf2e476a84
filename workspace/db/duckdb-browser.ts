// The browser engine: one AsyncDuckDB, running in its own Web Worker. Only this module and duckdb-boot.ts touch DuckDB.
import * as duckdb from "@duckdb/duckdb-wasm";
import { arrowLoader } from "./arrow-loader";
import { attachDatabase, type SqlEngine } from "./engine";
import { takeDuckdb } from "./duckdb-boot";

export async function createBrowserEngine(): Promise<SqlEngine> {
  const db = await takeDuckdb();
  const connect = await attachDatabase({
    open: () => db.connect(),
    run: (c, sql) => c.query(sql),
    close: (c) => c.close(),
  });
  let conn = await connect();
  // Loads get their own connection so a running notebook query never blocks on an insert.
  let loadConn = await connect();
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
    insertArrowStream: arrowLoader(
      () => loadConn,
      async () => (loadConn = await connect()),
    ),
    async registerDatabaseFile(name, file) {
      if ("url" in file)
        // Absolute, so the worker (whose base URL is its script's) requests the page's URL.
        await db.registerFileURL(
          name,
          new URL(file.url, location.href).href,
          duckdb.DuckDBDataProtocol.HTTP,
          false,
        );
      else if ("blob" in file)
        await db.registerFileHandle(name, file.blob, duckdb.DuckDBDataProtocol.BROWSER_FILEREADER, true);
      else throw new Error(`${name}: the browser cannot open a local path (${file.path})`);
      return name;
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
