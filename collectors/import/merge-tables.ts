// Tables of the same name from several files of one session, concatenated into one table of the run
// (rebuilt through the schema, so dictionaries and types stay the bundle's). Frames seen in two files
// (overlapping framestats polls) are kept once: identical rows across files, by every column
// (docs/framestats-gfxinfo.md: a frame's identity is its window plus every timestamp); rows of one file are
// never dropped.
import type { Table } from "apache-arrow";
import { tableSpec, type TableName } from "../../bundle/schema";
import { makeBundleTable, type ColumnValues } from "../../bundle/table-builder";

export interface MergeInput {
  file: string;
  tables: Partial<Record<TableName, Table>>;
}

function columnValues(table: Table, name: string, type: string): unknown[] {
  const v = table.getChild(name);
  const out = new Array<unknown>(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const x = v ? v.get(i) : null;
    out[i] =
      x !== null && x !== undefined && type === "list<utf8>"
        ? Array.from(x as Iterable<string>)
        : (x ?? null);
  }
  return out;
}

function rowKey(cols: unknown[][], i: number): string {
  return cols.map((c) => String(c[i])).join("\u0001");
}

/** One table per name; `dropped` counts frames rows seen in an earlier file. */
export function mergeTables(
  runId: string,
  inputs: readonly MergeInput[],
): { tables: Partial<Record<TableName, Table>>; dropped: number } {
  const byName = new Map<TableName, { file: string; table: Table }[]>();
  for (const { file, tables } of inputs)
    for (const [name, table] of Object.entries(tables) as [TableName, Table][])
      if (table) byName.set(name, [...(byName.get(name) ?? []), { file, table }]);
  const out: Partial<Record<TableName, Table>> = {};
  let dropped = 0;
  for (const [name, parts] of byName) {
    if (parts.length === 1) {
      out[name] = parts[0]!.table;
      continue;
    }
    const spec = tableSpec(name).columns.filter((c) => c.name !== "run_id");
    const merged: Record<string, unknown[]> = Object.fromEntries(spec.map((c) => [c.name, []]));
    const seen = new Set<string>();
    for (const { table } of parts) {
      const cols = spec.map((c) => columnValues(table, c.name, c.type));
      const keys: string[] = [];
      for (let i = 0; i < table.numRows; i++) {
        if (name === "frames") {
          const key = rowKey(cols, i);
          keys.push(key);
          if (seen.has(key)) {
            dropped++;
            continue;
          }
        }
        spec.forEach((c, j) => merged[c.name]!.push(cols[j]![i]));
      }
      for (const k of keys) seen.add(k);
    }
    const rows = merged[spec[0]!.name]!.length;
    const columns: Record<string, ColumnValues> = {};
    for (const c of spec) {
      const values = merged[c.name]!;
      if (values.every((v) => v === null) && c.nullable) continue;
      columns[c.name] = values as ColumnValues;
    }
    out[name] = makeBundleTable(name, runId, columns, rows);
  }
  return { tables: out, dropped };
}
