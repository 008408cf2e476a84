// Builds bundle tables with exactly the schema's types, from typed arrays or plain JS arrays.
import {
  Bool,
  Dictionary,
  Float64,
  Int8,
  Int32,
  Int64,
  Table,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  type DataType,
  type Vector,
} from "apache-arrow";
import { arrowType, tableSpec, type ColumnSpec, type TableName } from "./schema";

export type ColumnValues =
  | BigInt64Array
  | Int32Array
  | Int8Array
  /** float64 columns; for an integer column, NaN is null */
  | Float64Array
  | readonly (number | bigint | null | undefined)[]
  | readonly (string | null | undefined)[]
  | readonly (boolean | null | undefined)[]
  | readonly (readonly string[] | null | undefined)[]
  | DictionaryValues
  | NullableInts
  /** bool columns only: 0 false, anything else true */
  | Uint8Array;

/** An int32 column with nulls in Arrow's own form: no copy or conversion, so a caller writing batches in turn
 * can reuse both arrays (a streamed import's calls: no 256 KiB of garbage a batch). */
export interface NullableInts {
  values: Int32Array;
  /** bit i (LSB first) set when row i is not null; the values under a null are ignored */
  validity: Uint8Array;
}

/** A utf8 column already dictionary-encoded (millions of rows drawn from a few strings, e.g. method actions). */
export interface DictionaryValues {
  dictionary: readonly string[];
  /** Int8Array for at most 128 strings (1 byte a row; DuckDB reads int8 indices), else Int32Array; -1 is null */
  indices: Int32Array | Int8Array;
}

export interface MakeBundleTableOptions {
  /** the table takes the typed arrays over instead of copying them (large tables: no second copy). Each
   * must have its own buffer (checked: apache-arrow corrupts IPC when two columns share one:
   * docs/architecture.md), and the caller must not change them afterwards. */
  adopt?: boolean;
  /** the run_id column and absent nullable columns kept from one call to the next, by column and rows: the
   * batches of one table made in turn share them instead of each allocating zeros (a streamed import's
   * method_events: 2.5 MB a batch). Only for tables of one name and run id. */
  constants?: Map<string, Vector>;
}

/**
 * A bundle table from row objects: each schema column is read from the row field of the same name, or through
 * `pick` where the rows name or shape it otherwise; a column neither has is absent (all null if nullable).
 */
export function bundleTableFromRows<R extends object>(
  name: TableName,
  runId: string,
  rows: readonly R[],
  pick: Record<string, (row: R, i: number) => unknown> = {},
): Table {
  const columns: Record<string, ColumnValues> = {};
  const first = rows[0] as Record<string, unknown> | undefined;
  for (const { name: column } of tableSpec(name).columns) {
    const read = pick[column];
    if (read) columns[column] = rows.map(read) as ColumnValues;
    else if (first && column in first && column !== "run_id")
      columns[column] = rows.map((r) => (r as Record<string, unknown>)[column]) as ColumnValues;
  }
  return makeBundleTable(name, runId, columns, rows.length);
}

/** A bundle table from columns by name; run_id is filled in, absent nullable columns are all null. */
export function makeBundleTable(
  name: TableName,
  runId: string,
  columns: Record<string, ColumnValues>,
  length?: number,
  options: MakeBundleTableOptions = {},
): Table {
  const spec = tableSpec(name);
  if (options.adopt) requireOwnBuffers(name, columns);
  const rows = length ?? inferLength(name, columns);
  const vectors: Record<string, Vector> = {};
  for (const column of spec.columns) {
    if (column.name === "run_id") {
      vectors.run_id = constant(options.constants, `run_id ${rows}`, () => constantString(runId, rows));
      continue;
    }
    const values = columns[column.name];
    if (values === undefined) {
      if (!column.nullable)
        throw new Error(`makeBundleTable(${name}): missing column ${column.name} (${column.type})`);
      vectors[column.name] = constant(options.constants, `${column.name} ${rows}`, () =>
        allNull(column, rows),
      );
      continue;
    }
    const got = rowsOf(values);
    if (got !== rows)
      throw new Error(`makeBundleTable(${name}): column ${column.name} has ${got} rows, expected ${rows}`);
    vectors[column.name] = toVector(name, column, values, options.adopt === true);
  }
  for (const key of Object.keys(columns))
    if (!spec.columns.some((c) => c.name === key))
      throw new Error(`makeBundleTable(${name}): unknown column ${key}`);
  return new Table(vectors);
}

function constant(cache: Map<string, Vector> | undefined, key: string, make: () => Vector): Vector {
  if (!cache) return make();
  let v = cache.get(key);
  if (!v) cache.set(key, (v = make()));
  return v;
}

function requireOwnBuffers(name: string, columns: Record<string, ColumnValues>) {
  const owner = new Map<ArrayBufferLike, string>();
  for (const [key, values] of Object.entries(columns)) {
    const array = "indices" in values ? values.indices : "validity" in values ? values.values : values;
    if (!ArrayBuffer.isView(array)) continue;
    const other = owner.get(array.buffer);
    if (other)
      throw new Error(
        `makeBundleTable(${name}): columns ${other} and ${key} share one buffer (adopt needs one per column)`,
      );
    owner.set(array.buffer, key);
  }
}

function inferLength(name: string, columns: Record<string, ColumnValues>): number {
  const first = Object.values(columns)[0];
  if (!first) throw new Error(`makeBundleTable(${name}): no columns and no length given`);
  return rowsOf(first);
}

function rowsOf(values: ColumnValues): number {
  return "indices" in values
    ? values.indices.length
    : "validity" in values
      ? values.values.length
      : values.length;
}

function constantString(value: string, rows: number): Vector {
  const dictionary = vectorFromArray([value], new Utf8());
  const type = new Dictionary(new Utf8(), new Int32());
  return makeVector(makeData({ type, length: rows, nullCount: 0, data: new Int32Array(rows), dictionary }));
}

/** The table with the contract's nullable columns it lacks added as all-null columns, in contract order. */
export function withMissingNullColumns(name: TableName, table: Table): Table {
  const spec = tableSpec(name);
  const missing = spec.columns.filter(
    (c) => c.nullable && !table.schema.fields.some((f) => f.name === c.name),
  );
  if (missing.length === 0) return table;
  const vectors: Record<string, Vector> = {};
  for (const column of spec.columns) {
    const child = table.getChild(column.name);
    if (child) vectors[column.name] = child;
    else if (column.nullable) vectors[column.name] = allNull(column, table.numRows);
  }
  for (const field of table.schema.fields)
    if (!(field.name in vectors)) vectors[field.name] = table.getChild(field.name)!;
  return new Table(vectors);
}

// The typed array each numeric column kind is stored in (all zeros under an all-null bitmap).
const NUMERIC_STORAGE = {
  int64: BigInt64Array,
  int32: Int32Array,
  int8: Int8Array,
  float64: Float64Array,
} as const;

function allNull(column: ColumnSpec, rows: number): Vector {
  // Directly, not through vectorFromArray (over millions of nulls it takes ~100 ms per column). Text and bool ones
  // with their buffers padded to 64 bytes as Arrow's builders pad them: the file is what vectorFromArray wrote.
  const padded = new Uint8Array((((rows + 7) >> 3) + 63) & ~63);
  if (column.type === "bool")
    return makeVector(
      makeData({ type: new Bool(), length: rows, nullCount: rows, nullBitmap: padded, data: padded.slice() }),
    );
  if (column.type === "utf8") {
    const nullBitmap = padded;
    const dictionary = vectorFromArray([], new Utf8());
    const type = new Dictionary(new Utf8(), new Int32());
    return makeVector(
      makeData({ type, length: rows, nullCount: rows, nullBitmap, data: new Int32Array(rows), dictionary }),
    );
  }
  if (!(column.type in NUMERIC_STORAGE)) return vectorFromArray(new Array(rows).fill(null), typeFor(column));
  const Storage = NUMERIC_STORAGE[column.type as keyof typeof NUMERIC_STORAGE];
  const type = arrowType(column.type) as Int32;
  const nullBitmap = new Uint8Array((rows + 7) >> 3);
  return makeVector(
    makeData({ type, length: rows, nullCount: rows, nullBitmap, data: new Storage(rows) as Int32Array }),
  );
}

/** The Arrow type a column is built with: the schema's, with utf8 dictionary-encoded (few distinct strings). */
function typeFor(column: ColumnSpec): DataType {
  return column.type === "utf8" ? new Dictionary(new Utf8(), new Int32()) : arrowType(column.type);
}

function toVector(table: string, column: ColumnSpec, values: ColumnValues, adopt: boolean): Vector {
  const where = `makeBundleTable(${table}): column ${column.name}`;
  if (values instanceof Uint8Array) {
    if (column.type !== "bool")
      throw new Error(`${where}: Uint8Array given for a ${column.type} column (bool only)`);
    const bits = new Uint8Array((values.length + 7) >> 3);
    for (let i = 0; i < values.length; i++) if (values[i]) bits[i >> 3]! |= 1 << (i & 7);
    return makeVector(makeData({ type: new Bool(), length: values.length, nullCount: 0, data: bits }));
  }
  if ("validity" in values) {
    if (column.type !== "int32")
      throw new Error(`${where}: nullable int32 values given for a ${column.type} column`);
    const { validity } = values;
    const length = values.values.length;
    if (validity.length < (length + 7) >> 3)
      throw new Error(`${where}: validity of ${validity.length} bytes for ${length} rows`);
    let valid = 0;
    for (let i = 0; i < length; i++) valid += (validity[i >> 3]! >> (i & 7)) & 1;
    const nullCount = length - valid;
    if (nullCount && !column.nullable)
      throw new Error(`${where}: ${nullCount} nulls in a non-nullable column`);
    const data = adopt ? values.values : values.values.slice();
    const nullBitmap = nullCount ? (adopt ? validity : validity.slice()) : null;
    return makeVector(makeData({ type: new Int32(), length, nullCount, nullBitmap, data }));
  }
  if ("indices" in values) {
    if (column.type !== "utf8")
      throw new Error(`${where}: dictionary values given for a ${column.type} column`);
    const max = values.dictionary.length;
    const idx = values.indices;
    // Index -1 is null (nullable columns only).
    let nullCount = 0;
    for (let i = 0; i < idx.length; i++) {
      const v = idx[i]!;
      if (v >= 0 && v < max) continue;
      if (v === -1 && column.nullable) nullCount++;
      else throw new Error(`${where}: dictionary index ${v} outside 0..${max - 1}`);
    }
    let nullBitmap: Uint8Array | undefined;
    let data = adopt ? idx : idx.slice();
    if (nullCount) {
      nullBitmap = new Uint8Array((idx.length + 7) >> 3);
      if (data === idx) data = idx.slice();
      for (let i = 0; i < data.length; i++)
        if (data[i] === -1) data[i] = 0;
        else nullBitmap[i >> 3]! |= 1 << (i & 7);
    }
    const dictionary = vectorFromArray([...values.dictionary], new Utf8());
    const type = new Dictionary(new Utf8(), idx instanceof Int8Array ? new Int8() : new Int32());
    return makeVector(
      makeData({ type, length: values.indices.length, nullCount, nullBitmap, data, dictionary }),
    );
  }
  switch (column.type) {
    case "int64":
      if (values instanceof BigInt64Array) return makeVector(adopt ? values : values.slice());
      if (values instanceof Float64Array) return intFromFloat64(new Int64(), values, where, column.nullable);
      return numericWithNulls(
        new Int64(),
        values as readonly (number | bigint | null)[],
        where,
        column.nullable,
      );
    case "int32":
      if (values instanceof Int32Array) return makeVector(adopt ? values : values.slice());
      if (values instanceof Float64Array) return intFromFloat64(new Int32(), values, where, column.nullable);
      return numericWithNulls(new Int32(), values as readonly (number | null)[], where, column.nullable);
    case "int8":
      if (values instanceof Int8Array) return makeVector(adopt ? values : values.slice());
      return numericWithNulls(new Int8(), values as readonly (number | null)[], where, column.nullable);
    case "float64":
      if (values instanceof Float64Array) return makeVector(adopt ? values : values.slice());
      return numericWithNulls(new Float64(), values as readonly (number | null)[], where, column.nullable);
    default:
      checkNulls(values as readonly unknown[], where, column.nullable);
      return vectorFromArray(
        Array.from(values as readonly unknown[], (v) => (v === undefined ? null : v)),
        typeFor(column),
      );
  }
}

function checkNulls(values: readonly unknown[], where: string, nullable: boolean) {
  if (nullable) return;
  const i = values.findIndex((v) => v === null || v === undefined);
  if (i >= 0) throw new Error(`${where}: null at row ${i} in a non-nullable column`);
}

// Own buffers per column: apache-arrow corrupts IPC when two columns share one (docs/architecture.md).
function numericWithNulls(
  type: Int64 | Int32 | Int8 | Float64,
  values: readonly (number | bigint | null | undefined)[],
  where: string,
  nullable: boolean,
): Vector {
  const n = values.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  const data =
    type instanceof Int64
      ? new BigInt64Array(n)
      : type instanceof Int32
        ? new Int32Array(n)
        : type instanceof Int8
          ? new Int8Array(n)
          : new Float64Array(n);
  // Integer columns: NaN is null too (a Float64Array can carry a nullable int column without a JS array).
  const nanIsNull = !(type instanceof Float64);
  // int64 from numbers through the two 32-bit halves (little-endian), not a BigInt per row.
  const halves = data instanceof BigInt64Array ? new Int32Array(data.buffer) : null;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined || (nanIsNull && v !== v)) {
      if (!nullable) throw new Error(`${where}: null at row ${i} in a non-nullable column`);
      nullCount++;
      continue;
    }
    bitmap[i >> 3]! |= 1 << (i & 7);
    if (halves) {
      if (typeof v === "bigint") (data as BigInt64Array)[i] = v;
      else {
        const r = Math.round(v);
        const hi = Math.floor(r / 4294967296);
        halves[2 * i] = (r - hi * 4294967296) | 0;
        halves[2 * i + 1] = hi | 0;
      }
    } else data[i] = Number(v);
  }
  return numericVector(type, data, nullCount, bitmap);
}

/** A numeric vector over `data` (the type's own array kind); the null bitmap only when something is null. */
function numericVector(
  type: DataType,
  data: Int32Array | BigInt64Array | Int8Array | Float64Array,
  nullCount: number,
  bitmap: Uint8Array,
) {
  const length = data.length;
  const nullBitmap = nullCount ? bitmap : null;
  return makeVector(
    makeData({ type: type as Int32, length, nullCount, nullBitmap, data: data as Int32Array }),
  );
}

// A Float64Array into an integer column, NaN null: typed reads only (numericWithNulls also takes JS arrays).
function intFromFloat64(type: Int64 | Int32, values: Float64Array, where: string, nullable: boolean): Vector {
  const n = values.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  const wide = type instanceof Int64;
  const data = wide ? new BigInt64Array(n) : new Int32Array(n);
  const out = wide ? new Int32Array(data.buffer) : (data as Int32Array);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v !== v) {
      if (!nullable) throw new Error(`${where}: null at row ${i} in a non-nullable column`);
      nullCount++;
      continue;
    }
    bitmap[i >> 3]! |= 1 << (i & 7);
    const r = Math.round(v);
    if (wide) {
      const hi = Math.floor(r / 4294967296);
      out[2 * i] = (r - hi * 4294967296) | 0;
      out[2 * i + 1] = hi | 0;
    } else out[i] = r;
  }
  return numericVector(type, data, nullCount, bitmap);
}
