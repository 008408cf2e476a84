// How a table goes into DuckDB: in order (the overview's tables first), a few hundred thousand rows per insert.
import type { Table } from "apache-arrow";
import { encodeStream } from "./encode-stream";
import type { TableName } from "./schema";
import { canonicalOrder } from "./validate";

/**
 * Rows per insert. A big table goes in as several inserts so the main thread never handles more than a
 * few tens of MB at once (no long task while 10M frames load: docs/budgets.md) and DuckDB's worker never
 * holds the whole stream beside the table it builds.
 */
export const LOAD_CHUNK_ROWS = 262_144;

/**
 * Bytes per insert, whichever limit comes first (80 MB: 262,144 rows of wide frames fit). DuckDB-WASM pays a fixed cost per insert into a table (2M wide
 * frames rows: 2.4 s in 8 inserts, 5 s in 34), so inserts stay big; the buffer is filled as messages arrive,
 * so no single main-thread task faults in the whole of it (no long task while loading).
 */
export const LOAD_CHUNK_BYTES = 80 << 20;

/** The run overview's tables go in first, so its chart can be drawn before the rest of the run is in. */
const FIRST_TABLES: readonly TableName[] = ["frames", "ui_events"];

/** Table names in load order: the overview's first, the others as given. */
export function loadOrder<T extends string>(names: readonly T[]): T[] {
  const rank = (name: string) =>
    FIRST_TABLES.includes(name as TableName) ? FIRST_TABLES.indexOf(name as TableName) : FIRST_TABLES.length;
  return [...names].sort((a, b) => rank(a) - rank(b));
}

/**
 * A decoded table as IPC streams of LOAD_CHUNK_ROWS rows, columns in the contract's order, so runs written by
 * different jankbook versions line up by name. Always at least one stream (an empty table is still created).
 */
export function* encodeTableChunks(
  name: TableName,
  table: Table,
): Generator<{ bytes: Uint8Array; rows: number }> {
  const names = table.schema.fields.map((f) => f.name);
  const order = canonicalOrder(name, names);
  const ordered = order.every((n, i) => names[i] === n) ? table : table.select(order);
  for (let start = 0; start === 0 || start < ordered.numRows; start += LOAD_CHUNK_ROWS) {
    const slice = ordered.slice(start, start + LOAD_CHUNK_ROWS);
    yield { bytes: encodeStream(slice), rows: slice.numRows };
  }
}
