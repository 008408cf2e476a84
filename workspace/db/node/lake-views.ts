// A lake's tables as views (docs/scaling.md, "The lake"): schema `lake` of a native engine gets one view per
// table folder, over its Hive-partitioned Parquet (workspace/db/node/lake-add.ts), so `SELECT ... FROM lake.run_summary`
// reads the lab.
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { quoteIdent, type SqlEngine } from "../engine";

/**
 * The partition columns' types, fixed: inferred from folder names, a numeric run id would become a number.
 * run_summary is partitioned by app alone (workspace/db/node/lake-add.ts).
 */
const hiveTypes = (table: string) =>
  table === "run_summary"
    ? "{'app': 'VARCHAR'}"
    : "{'app': 'VARCHAR', 'device_model': 'VARCHAR', 'api_level': 'INTEGER', 'run_id': 'VARCHAR'}";

/** Creates `lake.<table>` for every table folder of `dir`; returns the table names. Needs a Parquet reader. */
export async function attachLake(engine: SqlEngine, dir: string): Promise<string[]> {
  const root = resolve(dir);
  const tables = (
    await readdir(root, { withFileTypes: true }).catch((e: Error) => {
      throw new Error(`lake ${dir}: cannot read (${e.message})`);
    })
  )
    // dot folders are the lake's own bookkeeping (its run index), not tables
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  if (tables.length === 0) throw new Error(`lake ${dir}: no table folders (add runs with jankbook lake add)`);
  // Asked first: DuckDB-WASM would try to download the parquet extension, and offline that never returns.
  const parquet = await engine.query(
    "SELECT count(*)::INTEGER AS n FROM duckdb_extensions() WHERE extension_name = 'parquet' AND loaded",
  );
  if (Number(parquet.getChild("n")!.get(0)) === 0)
    throw new Error(`lake ${dir}: this engine reads no Parquet: run with --engine native`);
  await engine.query("CREATE SCHEMA IF NOT EXISTS lake");
  for (const table of tables) {
    const glob = join(root, table, "**", "*.parquet").replace(/'/g, "''");
    await engine
      .query(
        `CREATE OR REPLACE VIEW lake.${quoteIdent(table)} AS SELECT * FROM read_parquet('${glob}', hive_partitioning = true, union_by_name = true, hive_types = ${hiveTypes(table)})`,
      )
      .catch((e: Error) => {
        throw new Error(`lake ${dir}: table ${table}: ${e.message}`);
      });
  }
  return tables;
}
