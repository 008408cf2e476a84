// Drains a prepared bundle into DuckDB: each table's chunks are inserted as they arrive, so a big table is
// in DuckDB moments after its last byte is downloaded, and the main thread only passes bytes along.
import type { PreparedBundle } from "../../bundle/prepare-bundle";
import type { TableName } from "../../bundle/schema";
import { DUCKDB_TYPE } from "../../bundle/duckdb-types";
import { tableSpec } from "../../bundle/schema";
import { quoteIdent, type LoadReport, type SqlEngine } from "./engine";

/**
 * A table created from a bundle written before some nullable column existed gets that column as nulls. One query
 * finds the columns it has; only the missing ones are added (an ALTER per column per run made loading many runs slow).
 */
async function addMissingNullableColumns(engine: SqlEngine, name: TableName, target: string): Promise<void> {
  const has = await engine.query(
    "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ?",
    [target],
  );
  const present = new Set((has.getChild("column_name")?.toArray() ?? []).map(String));
  for (const column of tableSpec(name).columns.filter((c) => c.nullable && !present.has(c.name)))
    await engine.query(
      `ALTER TABLE ${quoteIdent(target)} ADD COLUMN ${quoteIdent(column.name)} ${DUCKDB_TYPE[column.type]}`,
    );
}

export async function loadPreparedBundle(
  engine: SqlEngine,
  bundle: PreparedBundle,
  onTable?: (name: TableName, remaining: readonly TableName[]) => void,
  onRows?: (name: TableName, rowsSoFar: number) => void,
  /** the DuckDB table a bundle table goes into (its own name, unless a view of attached runs has it) */
  target: (name: TableName) => string = (name) => name,
): Promise<LoadReport> {
  const runId = bundle.manifest.run_id;
  const report: LoadReport = { run_id: runId, tables: [], errors: [] };
  for (const [i, table] of bundle.tables.entries()) {
    let inserted = 0;
    let chunks = 0;
    let created = false;
    /** this load made the table (not merged into one an earlier run made, which has every column already) */
    let madeHere = false;
    let failure: string | undefined;
    for await (const chunk of table.chunks) {
      if (failure) continue; // keep draining, so the download is not left waiting on a full queue
      try {
        // straight in only behind a chunk that created the table (another run's may differ in its columns)
        const outcome = await engine.insertArrowStream(target(table.name), chunk.bytes, { append: created });
        if (outcome === "created") madeHere = true;
        created = outcome !== "merged";
        chunks++;
        inserted += chunk.rows;
        onRows?.(table.name, inserted);
      } catch (e) {
        failure = (e as Error).message;
      }
    }
    const { errors } = await table.done;
    report.errors.push(...errors.map((e) => e.message));
    if (failure)
      report.errors.push(`${runId}: table ${table.name}: could not be registered in DuckDB (${failure})`);
    if (chunks > 0) {
      if (madeHere)
        await addMissingNullableColumns(engine, table.name, target(table.name)).catch((e: Error) =>
          report.errors.push(
            `${runId}: table ${table.name}: could not add its missing nullable columns (${e.message})`,
          ),
        );
      report.tables.push({ name: table.name, rows: inserted });
    }
    onTable?.(
      table.name,
      bundle.tables.slice(i + 1).map((t) => t.name),
    );
  }
  return report;
}
