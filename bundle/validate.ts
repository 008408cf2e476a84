// Checks a decoded table against the schema; every error names the file, table and column.
import type { Table } from "apache-arrow";
import { BundleError } from "./manifest";
import { columnTypeOf, tableSpec } from "./schema";

/** Throws a BundleError for the first missing or mistyped column; extra columns are allowed. */
export function validateTable(table: Table, name: string, file: string): void {
  const spec = tableSpec(name);
  for (const column of spec.columns) {
    const field = table.schema.fields.find((f) => f.name === column.name);
    if (!field)
      throw new BundleError(file, `table ${name}: missing column ${column.name} (${column.type})`, name, column.name);
    const actual = columnTypeOf(field.type);
    if (actual !== column.type)
      throw new BundleError(
        file,
        `table ${name}: column ${column.name} is ${actual}, expected ${column.type}`,
        name,
        column.name,
      );
    if (!column.nullable && table.getChild(column.name)!.nullCount > 0)
      throw new BundleError(
        file,
        `table ${name}: column ${column.name} has ${table.getChild(column.name)!.nullCount} nulls but may not be null`,
        name,
        column.name,
      );
  }
}
