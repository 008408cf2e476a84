// One native DuckDB engine shared by the tests of a describe block, as vitest hooks: opened once before the
// first test, closed after the last.
import { afterAll, beforeAll } from "vitest";
import { createNodeEngine } from "../../workspace/node/duckdb-node";
import type { SqlEngine } from "../../workspace/db/engine";

/** Registers the hooks; the returned function gives the engine inside a test. */
export function nodeEngineForSuite(): () => SqlEngine {
  let engine: SqlEngine | undefined;
  beforeAll(async () => {
    engine = await createNodeEngine();
  });
  afterAll(() => engine?.close());
  return () => {
    if (!engine)
      throw new Error("nodeEngineForSuite: the engine is opened in beforeAll; use it inside a test");
    return engine;
  };
}
