// The column check every reader of a table shares (cells' readColumns, collector stages): the first missing or
// mistyped column named with its table, by the same rule as bundle/validate.ts.
import type { Schema } from "apache-arrow";
import type { ColumnType } from "./schema";
import { columnMismatch } from "./validate";

/** Throws `missing column <c> (<type>) in <table>` or `column <c> in <table> is <actual>, expected <type>`. */
export function requireColumns(
  schema: Schema,
  tableName: string,
  columns: Record<string, { type: ColumnType; optional?: boolean }>,
): void {
  for (const [name, { type, optional }] of Object.entries(columns)) {
    const problem = columnMismatch(schema, name, type);
    if (problem === "missing" && optional) continue;
    if (problem === "missing") throw new Error(`missing column ${name} (${type}) in ${tableName}`);
    if (problem !== null)
      throw new Error(`column ${name} in ${tableName} is ${problem.actual}, expected ${type}`);
  }
}
