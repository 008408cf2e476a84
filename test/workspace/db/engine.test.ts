// relationCount, tableExists and listTables (workspace/db/engine.ts) against a catalog built by hand: tables and
// views of the main database, by schema and name, never an attached database's nor DuckDB's own views.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listTables,
  relationCount,
  STREAMED_SUFFIX,
  tableExists,
  type SqlEngine,
} from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";

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

describe.each([
  ["DuckDB-WASM", createNodeEngine],
  ["native DuckDB", createNativeEngine],
] as const)("listTables on %s", (_, open) => {
  let db: SqlEngine;
  beforeAll(async () => {
    db = await open();
    for (const sql of [
      "CREATE TABLE frames (run_id VARCHAR, dur BIGINT, jank BOOLEAN, ts TIMESTAMP, amount DECIMAL(10, 2))",
      "INSERT INTO frames SELECT 'r', i, i % 2 = 0, TIMESTAMP '2026-01-01', 1.5 FROM range(7) t(i)",
      `CREATE TABLE "odd ""name""" ("a b" INTEGER)`,
      'INSERT INTO "odd ""name""" VALUES (1), (2)',
      "CREATE VIEW runs AS SELECT 'r' AS run_id, 3 AS n",
      `CREATE TABLE tasks${STREAMED_SUFFIX} (x INTEGER)`,
      "CREATE VIEW tasks AS SELECT 5 AS x UNION ALL SELECT 6",
      "CREATE SCHEMA jb_overview",
      "CREATE TABLE jb_overview.spans (t0 INTEGER)",
      "ATTACH ':memory:' AS other",
      "CREATE TABLE other.main.elsewhere (x INTEGER)",
    ])
      await db.query(sql);
  });
  afterAll(() => db?.close());

  it("lists main's tables and views as information_schema does, with their row counts", async () => {
    // The reference: information_schema.columns and one count(*) per relation.
    const cols = await db.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' AND NOT ends_with(table_name, '${STREAMED_SUFFIX}') ORDER BY table_name, ordinal_position`,
    );
    const want = new Map<string, { name: string; rows: number; columns: { name: string; type: string }[] }>();
    for (const r of cols.toArray() as { table_name: string; column_name: string; data_type: string }[]) {
      if (!want.has(r.table_name)) {
        const n = await db.query(`SELECT count(*)::INTEGER AS n FROM "${r.table_name.replace(/"/g, '""')}"`);
        want.set(r.table_name, { name: r.table_name, rows: Number(n.toArray()[0].n), columns: [] });
      }
      want.get(r.table_name)!.columns.push({ name: r.column_name, type: r.data_type });
    }
    const got = await listTables(db);
    expect(got).toEqual([...want.values()]);
    // and by hand: the streamed part, the other schema and the other database are not listed
    expect(got.map((t) => [t.name, t.rows])).toEqual([
      ["frames", 7],
      ['odd "name"', 2],
      ["runs", 1],
      ["tasks", 2],
    ]);
    expect(got[0]!.columns.map((c) => c.type)).toEqual([
      "VARCHAR",
      "BIGINT",
      "BOOLEAN",
      "TIMESTAMP",
      "DECIMAL(10,2)",
    ]);
  });

  it("lists nothing in an empty database", async () => {
    const empty = await open();
    try {
      expect(await listTables(empty)).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
