// Checks a table's schema (and null counts) against the data contract; every error names the file, table
// and column.
import type { Schema, Table } from "apache-arrow";
import { BundleError } from "./manifest";
import { columnTypeOf, tableSpec, type ColumnSpec, type ColumnType } from "./schema";

/**
 * Throws a BundleError for the first missing required or mistyped column; extra columns are allowed, and a
 * missing nullable column (a bundle written before the column existed) reads as all null.
 */
export function validateSchema(schema: Schema, name: string, file: string): void {
  for (const column of tableSpec(name).columns) {
    const problem = columnMismatch(schema, column.name, column.type);
    if (problem === "missing" && column.nullable) continue;
    if (problem === "missing")
      throw new BundleError(
        file,
        `table ${name}: missing column ${column.name} (${column.type})`,
        name,
        column.name,
      );
    if (problem !== null)
      throw new BundleError(
        file,
        `table ${name}: column ${column.name} is ${problem.actual}, expected ${column.type}`,
        name,
        column.name,
      );
  }
}

/** What is wrong with one column of a schema: absent, of another type (shared with the cells' column reader), or null. */
export function columnMismatch(
  schema: Schema,
  column: string,
  type: ColumnType,
): "missing" | { actual: string } | null {
  const field = schema.fields.find((f) => f.name === column);
  if (!field) return "missing";
  const actual = columnTypeOf(field.type);
  return actual === type ? null : { actual };
}

/** The message for a non-nullable column that holds nulls (shared with the streaming loader). */
export function nullsInRequiredColumn(
  name: string,
  file: string,
  column: string,
  nulls: number,
  where = "",
): BundleError {
  return new BundleError(
    file,
    `table ${name}: column ${column} has ${nulls} nulls${where} but may not be null`,
    name,
    column,
  );
}

/** validateSchema, plus: no nulls in a column the contract says may not be null. */
export function validateTable(table: Table, name: string, file: string): void {
  validateSchema(table.schema, name, file);
  for (const column of tableSpec(name).columns) {
    const nulls = table.getChild(column.name)?.nullCount ?? 0;
    if (!column.nullable && nulls > 0) throw nullsInRequiredColumn(name, file, column.name, nulls);
  }
}

/**
 * The contract's column order: the spec's columns the file has, then any extra ones in the order the file has
 * them (missing nullable columns are added as nulls after loading: {@link missingNullableColumns}).
 */
export function canonicalOrder(name: string, fieldNames: readonly string[]): string[] {
  const spec = tableSpec(name).columns.map((c) => c.name);
  return [...spec.filter((n) => fieldNames.includes(n)), ...fieldNames.filter((n) => !spec.includes(n))];
}

/** The nullable columns of the contract that a file lacks (written before they existed). */
export function missingNullableColumns(name: string, fieldNames: readonly string[]): ColumnSpec[] {
  return tableSpec(name).columns.filter((c) => c.nullable && !fieldNames.includes(c.name));
}
