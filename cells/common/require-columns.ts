// Every cell states the columns it needs; a missing or mistyped one is an error that names it.
import type { Table } from "apache-arrow";
import { columnTypeOf, type ColumnType } from "../../bundle/schema";

export function requireColumns(
  table: Table,
  required: Record<string, ColumnType>,
  tableName = "table",
): void {
  for (const [name, type] of Object.entries(required)) {
    const field = table.schema.fields.find((f) => f.name === name);
    if (!field) throw new Error(`missing column ${name} (${type}) in ${tableName}`);
    const actual = columnTypeOf(field.type);
    if (actual !== type) throw new Error(`column ${name} in ${tableName} is ${actual}, expected ${type}`);
  }
}
