// Test support: one native DuckDB connection to an in-memory database for a suite (a describe block or a file),
// opened before its tests and closed after them with its instance, as suite-engine.ts does for an engine.
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll } from "vitest";

/** Registers the suite's beforeAll/afterAll and returns the connection they open, forwarding every use to it. */
export function suiteConnection(): DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let opened: DuckDBConnection | undefined;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(":memory:");
    opened = await instance.connect();
  });
  afterAll(() => {
    opened?.closeSync();
    instance?.closeSync();
  });
  return new Proxy({} as DuckDBConnection, {
    get(_, key) {
      if (!opened) throw new Error("suiteConnection: used outside the suite's tests (before beforeAll ran)");
      const value: unknown = Reflect.get(opened, key, opened);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(opened) : value;
    },
  });
}
