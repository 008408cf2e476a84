// relationCount and tableExists (workspace/db/engine.ts) against a catalog built by hand: tables and views of the
// main database, by schema and name, never an attached database's nor DuckDB's own views.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relationCount, tableExists, type SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";

let engine: SqlEngine;
beforeAll(async () => {
  engine = await createNodeEngine();
  for (const sql of [
    "CREATE TABLE frames (x INTEGER)",
    "CREATE VIEW runs AS SELECT 1 AS run_id",
    "CREATE SCHEMA jb_overview",
    "CREATE VIEW jb_overview.spans AS SELECT 1 AS t0",
    "CREATE TABLE jb_overview.frames (x INTEGER)",
    "CREATE SCHEMA empty_schema",
    "ATTACH ':memory:' AS other",
    "CREATE TABLE other.main.tasks (x INTEGER)",
    "CREATE SCHEMA other.only_there",
    "CREATE TABLE other.only_there.t (x INTEGER)",
  ])
    await engine.query(sql);
});
afterAll(() => engine?.close());

describe("relationCount", () => {
  it.each([
    ["main", undefined, 2],
    ["main", "frames", 1],
    ["main", "runs", 1],
    ["main", "tasks", 0],
    ["jb_overview", undefined, 2],
    ["jb_overview", "spans", 1],
    ["jb_overview", "t0", 0],
    ["empty_schema", undefined, 0],
    ["only_there", undefined, 0],
    ["information_schema", undefined, 0],
  ] as const)("schema %s, name %s: %i", async (schema, name, want) => {
    expect(await relationCount(engine, schema, name)).toBe(want);
  });

  it("tableExists finds a table and a view of main, not another database's table", async () => {
    expect(await tableExists(engine, "frames")).toBe(true);
    expect(await tableExists(engine, "runs")).toBe(true);
    expect(await tableExists(engine, "tasks")).toBe(false);
  });
});
