// Which rows a result table shows, in which order: a filter over the shown text, then a stable sort
// on one column. Works on row indexes, so an Arrow result is never copied.
import { formatDuration, formatValue, isInstantColumn } from "../../charts/format-value";
import { timeOrigin } from "../../bundle/time-origins";

export interface ColumnsLike {
  numRows: number;
  schema: { fields: { name: string }[] };
  getChild(name: string): { get(i: number): unknown } | null;
}

export interface RowQuery {
  /** case-insensitive text that some cell of the row must contain, as the table shows it */
  filter?: string;
  sort?: { column: string; descending: boolean };
}

/** The start of row i's run (its run_id column's, else the only loaded run's), for moments shown from it. */
export function rowOrigin(t: ColumnsLike, i: number): number | undefined {
  return timeOrigin(t.getChild("run_id")?.get(i) ?? undefined);
}

/** Row i's value in `column` as the table shows it: moments from the run's start. */
export function cellText(t: ColumnsLike, column: string, i: number): string {
  return formatValue(t.getChild(column)?.get(i), column, rowOrigin(t, i));
}

/** The hover text of a moment shown from the run's start: the time on the trace's own clock too; else null. */
export function absoluteTitle(t: ColumnsLike, column: string, i: number): string | null {
  const v = t.getChild(column)?.get(i);
  const origin = rowOrigin(t, i);
  if (origin === undefined || !isInstantColumn(column) || (typeof v !== "number" && typeof v !== "bigint"))
    return null;
  if (Number(v) < origin) return null;
  return `${cellText(t, column, i)} from the run's start; ${formatDuration(v)} on the trace's clock`;
}

/** Orders two cell values: nulls last, numbers and int64 by value, everything else by its text. */
export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint"))
    return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The indexes of the rows to show, filtered then sorted (ties keep their order; nulls stay last). */
export function tableRows(t: ColumnsLike, query: RowQuery = {}): number[] {
  const names = t.schema.fields.map((f) => f.name);
  let rows = Array.from({ length: t.numRows }, (_, i) => i);
  const needle = query.filter?.trim().toLowerCase();
  if (needle) {
    rows = rows.filter((i) => names.some((n) => cellText(t, n, i).toLowerCase().includes(needle)));
  }
  const sort = query.sort;
  const vec = sort ? t.getChild(sort.column) : null;
  if (sort && vec) {
    const values: unknown[] = new Array(t.numRows);
    for (const i of rows) values[i] = vec.get(i);
    const sign = sort.descending ? -1 : 1;
    rows.sort((i, j) => {
      const a = values[i];
      const b = values[j];
      const nulls = a === null || a === undefined || b === null || b === undefined;
      // nulls last in both directions: the direction flips only real comparisons
      return (nulls ? compareValues(a, b) : sign * compareValues(a, b)) || i - j;
    });
  }
  return rows;
}
