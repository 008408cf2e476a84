// Test support: one DuckDB engine for a suite (a describe block or a file), opened before its tests with the
// statements that set it up and closed after them, so each test file does not repeat the hooks.
import { afterAll, beforeAll } from "vitest";
import type { SqlEngine } from "../../workspace/db/engine";

/** Registers the suite's beforeAll/afterAll and returns an engine that forwards every call to the one they open. */
export function suiteEngine(open: () => Promise<SqlEngine>, ...setup: string[]): SqlEngine {
  let opened: SqlEngine | undefined;
  beforeAll(async () => {
    opened = await open();
    for (const sql of setup) await opened.query(sql);
  });
  afterAll(async () => opened?.close());
  const current = (): SqlEngine => {
    if (!opened) throw new Error("suiteEngine: used outside the suite's tests (before beforeAll ran)");
    return opened;
  };
  return {
    query: (sql, params) => current().query(sql, params),
    insertArrowStream: (table, ipcStream, options) => current().insertArrowStream(table, ipcStream, options),
    // both engines (duckdb-node, duckdb-native) attach database files; run-views.ts checks for the method
    registerDatabaseFile: (name, file) => {
      const engine = current();
      if (!engine.registerDatabaseFile)
        throw new Error("suiteEngine: this engine cannot attach database files");
      return engine.registerDatabaseFile(name, file);
    },
    interrupt: () => current().interrupt(),
    close: () => current().close(),
  };
}
