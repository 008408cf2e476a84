// Test support: notebooks run headless, one after another, on one DuckDB for the suite (a file or a describe
// block). Starting an engine costs seconds; each run gets it emptied of the last run's tables and views first, and
// a wrapper whose close() leaves it open (the runner loads its runs again, as on a fresh engine).
import { afterAll, beforeAll } from "vitest";
import { quoteIdent, type SqlEngine } from "../../workspace/db/engine";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { runNotebookFile, type HeadlessOptions, type HeadlessResult } from "../../workspace/node/headless";

/** Registers the suite's beforeAll/afterAll; returns runNotebookFile on the suite's engine (DuckDB-WASM unless
 * another is made by `create`, e.g. the native engine). */
export function sharedHeadless(
  create: () => Promise<SqlEngine> = createNodeEngine,
): (path: string, options?: HeadlessOptions) => Promise<HeadlessResult> {
  let shared: SqlEngine | undefined;
  beforeAll(async () => {
    shared = await create();
  }, 120_000);
  afterAll(() => shared?.close());
  return async (path, options = {}) => {
    const engine = shared;
    if (!engine) throw new Error("sharedHeadless: used outside the suite's tests (before beforeAll ran)");
    const objects = (await engine.query(
      "SELECT table_name, table_type FROM information_schema.tables WHERE table_catalog = 'jb'",
    )) as unknown as { toArray(): { table_name: string; table_type: string }[] };
    for (const o of objects.toArray())
      await engine.query(
        `DROP ${o.table_type === "VIEW" ? "VIEW" : "TABLE"} IF EXISTS ${quoteIdent(o.table_name)}`,
      );
    const wrapper: SqlEngine = {
      query: (sql, params) => engine.query(sql, params),
      insertArrowStream: (table, ipc, opts) => engine.insertArrowStream(table, ipc, opts),
      interrupt: () => engine.interrupt(),
      close: async () => {},
    };
    return runNotebookFile(path, { ...options, engine: wrapper });
  };
}
