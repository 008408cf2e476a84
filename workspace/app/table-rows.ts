// Which rows a result table shows, in which order: a filter over the shown text, then a stable sort
// on one column. Works on row indexes, so an Arrow result is never copied.
import { formatValue } from "../../charts/format-value";

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
    const columns = names.map((n) => ({ n, vec: t.getChild(n) }));
    rows = rows.filter((i) =>
      columns.some(({ n, vec }) => formatValue(vec?.get(i), n).toLowerCase().includes(needle)),
    );
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
