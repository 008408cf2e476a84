// Native DuckDB results as Arrow tables, typed the way DuckDB-WASM types them (DuckDB's Arrow converter:
// HUGEINT and DECIMAL as Decimal128, DATE as Date32, TIMESTAMP as microseconds), so cells see the same
// values under either engine. Built with the ESM apache-arrow instance, as the page's results are: the runner's
// thread then loads no CommonJS copy (docs/architecture.md, "apache-arrow is pinned at 17"). Column by column from
// the vectors' bytes (DuckDB's layouts are Arrow's, but for booleans and strings); lists, structs and enums go
// value by value.
import * as arrow from "apache-arrow";
import duckdb from "@duckdb/node-bindings";
import {
  DuckDBTypeId,
  type DuckDBDataChunk,
  type DuckDBResultReader,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import type * as ArrowModule from "apache-arrow";

type Any = ArrowModule.DataType;

/** The Arrow type DuckDB-WASM gives a column of this DuckDB type. */
function arrowTypeOf(type: DuckDBType, column: string): Any {
  const t = type as DuckDBType & {
    width?: number;
    scale?: number;
    valueType?: DuckDBType;
    entryNames?: string[];
    entryTypes?: DuckDBType[];
  };
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return new arrow.Bool();
    case DuckDBTypeId.TINYINT:
      return new arrow.Int8();
    case DuckDBTypeId.SMALLINT:
      return new arrow.Int16();
    case DuckDBTypeId.INTEGER:
      return new arrow.Int32();
    case DuckDBTypeId.BIGINT:
      return new arrow.Int64();
    case DuckDBTypeId.UTINYINT:
      return new arrow.Uint8();
    case DuckDBTypeId.USMALLINT:
      return new arrow.Uint16();
    case DuckDBTypeId.UINTEGER:
      return new arrow.Uint32();
    case DuckDBTypeId.UBIGINT:
      return new arrow.Uint64();
    case DuckDBTypeId.FLOAT:
      return new arrow.Float32();
    case DuckDBTypeId.DOUBLE:
      return new arrow.Float64();
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
    case DuckDBTypeId.SQLNULL:
      return new arrow.Utf8();
    case DuckDBTypeId.HUGEINT:
      return new arrow.Decimal(0, 38, 128);
    case DuckDBTypeId.DECIMAL:
      return new arrow.Decimal(t.scale!, t.width!, 128);
    case DuckDBTypeId.DATE:
      return new arrow.DateDay();
    case DuckDBTypeId.TIMESTAMP:
      return new arrow.TimestampMicrosecond();
    case DuckDBTypeId.LIST:
      return new arrow.List(new arrow.Field("l", arrowTypeOf(t.valueType!, column), true));
    case DuckDBTypeId.STRUCT:
      return new arrow.Struct(
        t.entryNames!.map(
          (n, i) => new arrow.Field(n, arrowTypeOf(t.entryTypes![i]!, `${column}.${n}`), true),
        ),
      );
  }
  throw new Error(`column ${column}: DuckDB type ${type.toString()} has no Arrow form in the native engine`);
}

/** A DuckDB value as the JS value apache-arrow's builders take for its Arrow type. */
function jsOf(value: DuckDBValue, type: DuckDBType): unknown {
  if (value === null) return null;
  const v = value as unknown as {
    items?: DuckDBValue[];
    entries?: Record<string, DuckDBValue>;
    days?: number;
    micros?: bigint;
  };
  const t = type as DuckDBType & { valueType?: DuckDBType; entryNames?: string[]; entryTypes?: DuckDBType[] };
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
      return v.items!.map((item) => jsOf(item, t.valueType!));
    case DuckDBTypeId.STRUCT:
      return Object.fromEntries(
        t.entryNames!.map((n, i) => [n, jsOf(v.entries![n] ?? null, t.entryTypes![i]!)]),
      );
    case DuckDBTypeId.DATE:
      return v.days! * 86_400_000;
    case DuckDBTypeId.TIMESTAMP:
      return Number(v.micros!) / 1000;
    case DuckDBTypeId.ENUM:
      return String(value);
    default:
      return value;
  }
}

/** Decimal128 as apache-arrow stores it: four little-endian 32-bit words of the two's-complement integer. */
function decimalVector(values: DuckDBValue[], type: ArrowModule.Decimal): ArrowModule.Vector {
  const words = new Uint32Array(values.length * 4);
  const valid = new Uint8Array(Math.ceil(values.length / 8));
  let nulls = 0;
  values.forEach((value, i) => {
    if (value === null) return void nulls++;
    valid[i >> 3]! |= 1 << (i & 7);
    const raw = typeof value === "bigint" ? value : (value as unknown as { value: bigint }).value;
    let x = BigInt.asUintN(128, raw);
    for (let w = 0; w < 4; w++, x >>= 32n) words[i * 4 + w] = Number(x & 0xffffffffn);
  });
  return arrow.makeVector(
    arrow.makeData({ type, length: values.length, nullCount: nulls, nullBitmap: valid, data: words }),
  );
}

type FixedArray =
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array
  | Float32Array
  | Float64Array;
type FixedArrayType = { new (n: number): FixedArray; BYTES_PER_ELEMENT: number };

/** DuckDB types whose vectors hold their values as Arrow's buffers do (DATE: days as int32, TIMESTAMP: micros as int64). */
const FIXED_WIDTH: Partial<Record<DuckDBTypeId, FixedArrayType>> = {
  [DuckDBTypeId.TINYINT]: Int8Array,
  [DuckDBTypeId.SMALLINT]: Int16Array,
  [DuckDBTypeId.INTEGER]: Int32Array,
  [DuckDBTypeId.BIGINT]: BigInt64Array,
  [DuckDBTypeId.UTINYINT]: Uint8Array,
  [DuckDBTypeId.USMALLINT]: Uint16Array,
  [DuckDBTypeId.UINTEGER]: Uint32Array,
  [DuckDBTypeId.UBIGINT]: BigUint64Array,
  [DuckDBTypeId.FLOAT]: Float32Array,
  [DuckDBTypeId.DOUBLE]: Float64Array,
  [DuckDBTypeId.DATE]: Int32Array,
  [DuckDBTypeId.TIMESTAMP]: BigInt64Array,
};

/** The reader's chunks, or null when this @duckdb/node-api keeps them otherwise (the row path is then taken). */
function chunksOf(reader: DuckDBResultReader): DuckDBDataChunk[] | null {
  const chunks = (reader as unknown as { chunks?: unknown }).chunks;
  return Array.isArray(chunks) ? (chunks as DuckDBDataChunk[]) : null;
}

/** One chunk's vector of a column: its rows, `width` bytes of data a row, and its validity mask (null: all valid). */
interface RawVector {
  rows: number;
  data: Uint8Array;
  validity: Uint8Array | null;
}

function rawVectors(chunks: DuckDBDataChunk[], column: number, width: number): RawVector[] {
  return chunks.map((chunk) => {
    const rows = chunk.rowCount;
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
    return {
      rows,
      data: duckdb.vector_get_data(vector, rows * width),
      validity: (duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8) as Uint8Array | null) ?? null,
    };
  });
}

/**
 * Each chunk's validity mask into one Arrow bitmap; returns the null count. DuckDB's mask is Arrow's bit order
 * (row i is bit i % 8 of byte i / 8), so a chunk that starts on a byte is copied whole.
 */
function validityOf(vectors: RawVector[], rows: number): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array(Math.ceil(rows / 8));
  let at = 0;
  for (const { rows: n, validity } of vectors) {
    if (!validity) {
      for (let i = 0; i < n; i++, at++) bitmap[at >> 3]! |= 1 << (at & 7);
      continue;
    }
    if ((at & 7) === 0) {
      bitmap.set(validity.subarray(0, n >> 3), at >> 3);
      for (let i = n & ~7; i < n; i++)
        if ((validity[i >> 3]! >> (i & 7)) & 1) bitmap[(at + i) >> 3]! |= 1 << ((at + i) & 7);
      at += n;
      continue;
    }
    for (let i = 0; i < n; i++, at++)
      if ((validity[i >> 3]! >> (i & 7)) & 1) bitmap[at >> 3]! |= 1 << (at & 7);
  }
  let valid = 0;
  for (let i = 0; i < rows; i++) valid += (bitmap[i >> 3]! >> (i & 7)) & 1;
  return { bitmap, nulls: rows - valid };
}

/** A fixed-width column: each chunk's values copied as bytes into one typed array, as Arrow stores it. */
function fixedWidthVector(
  chunks: DuckDBDataChunk[],
  column: number,
  rows: number,
  type: Any,
  Array: FixedArrayType,
): ArrowModule.Vector {
  const width = Array.BYTES_PER_ELEMENT;
  const vectors = rawVectors(chunks, column, width);
  const data = new Array(rows);
  const bytes = new Uint8Array(data.buffer);
  let at = 0;
  for (const v of vectors) {
    bytes.set(v.data, at * width);
    at += v.rows;
  }
  const { bitmap, nulls } = validityOf(vectors, rows);
  return arrow.makeVector(
    arrow.makeData({ type, length: rows, nullCount: nulls, nullBitmap: bitmap, data } as never),
  );
}

/** BOOLEAN: DuckDB keeps a byte a value, Arrow a bit. */
function boolVector(chunks: DuckDBDataChunk[], column: number, rows: number): ArrowModule.Vector {
  const vectors = rawVectors(chunks, column, 1);
  const bits = new Uint8Array(Math.ceil(rows / 8));
  let at = 0;
  for (const v of vectors)
    for (let i = 0; i < v.rows; i++, at++) if (v.data[i]) bits[at >> 3]! |= 1 << (at & 7);
  const { bitmap, nulls } = validityOf(vectors, rows);
  return arrow.makeVector(
    arrow.makeData({
      type: new arrow.Bool(),
      length: rows,
      nullCount: nulls,
      nullBitmap: bitmap,
      data: bits,
    }),
  );
}

/** DuckDB's string_t: its length, then up to 12 bytes inline, or a 4-byte prefix and a pointer to the bytes. */
const STRING_T = 16;
const INLINE = 12;

/** VARCHAR as Arrow Utf8: the UTF-8 bytes as DuckDB holds them, never decoded to JS strings. */
function varcharVector(chunks: DuckDBDataChunk[], column: number, rows: number): ArrowModule.Vector {
  const vectors = rawVectors(chunks, column, STRING_T);
  const { bitmap, nulls } = validityOf(vectors, rows);
  const offsets = new Int32Array(rows + 1);
  let at = 0;
  let total = 0;
  for (const v of vectors) {
    const view = new DataView(v.data.buffer, v.data.byteOffset, v.data.byteLength);
    for (let i = 0; i < v.rows; i++, at++) {
      // a null's string_t is not written: its length is whatever was there
      if ((bitmap[at >> 3]! >> (at & 7)) & 1) total += view.getUint32(i * STRING_T, true);
      offsets[at + 1] = total;
    }
  }
  if (total > 0x7fffffff) throw new Error(`a text column holds ${total} bytes, over Arrow Utf8's 2 GiB`);
  const bytes = new Uint8Array(total);
  at = 0;
  for (const v of vectors) {
    for (let i = 0; i < v.rows; i++, at++) {
      const from = offsets[at]!;
      const length = offsets[at + 1]! - from;
      if (length === 0) continue;
      const entry = i * STRING_T;
      // byte by byte: a subarray per value cost more than the copy
      if (length <= INLINE) for (let k = 0; k < length; k++) bytes[from + k] = v.data[entry + 4 + k]!;
      else
        bytes.set(
          duckdb.get_data_from_pointer(v.data.buffer as ArrayBuffer, v.data.byteOffset + entry + 8, length),
          from,
        );
    }
  }
  return arrow.makeVector(
    arrow.makeData({
      type: new arrow.Utf8(),
      length: rows,
      nullCount: nulls,
      nullBitmap: bitmap,
      valueOffsets: offsets,
      data: bytes,
    }),
  );
}

/** Bytes a DECIMAL value takes in DuckDB, by its width (DuckDB picks int16, int32, int64 or int128). */
function decimalBytes(width: number): number {
  return width <= 4 ? 2 : width <= 9 ? 4 : width <= 18 ? 8 : 16;
}

/** HUGEINT and DECIMAL as Decimal128: each value sign-extended to 16 little-endian bytes (hugeint_t already is). */
function decimalColumn(
  chunks: DuckDBDataChunk[],
  column: number,
  rows: number,
  type: ArrowModule.Decimal,
  size: number,
): ArrowModule.Vector {
  const vectors = rawVectors(chunks, column, size);
  const words = new Uint32Array(rows * 4);
  const out = new Uint8Array(words.buffer);
  let at = 0;
  for (const v of vectors) {
    if (size === 16) out.set(v.data, at * 16);
    else {
      const view = new DataView(v.data.buffer, v.data.byteOffset, v.data.byteLength);
      for (let i = 0; i < v.rows; i++) {
        const x =
          size === 8
            ? view.getBigInt64(i * 8, true)
            : BigInt(size === 4 ? view.getInt32(i * 4, true) : view.getInt16(i * 2, true));
        const lo = BigInt.asUintN(64, x);
        const w = (at + i) * 4;
        words[w] = Number(lo & 0xffffffffn);
        words[w + 1] = Number(lo >> 32n);
        words[w + 2] = words[w + 3] = x < 0n ? 0xffffffff : 0;
      }
    }
    at += v.rows;
  }
  const { bitmap, nulls } = validityOf(vectors, rows);
  return arrow.makeVector(
    arrow.makeData({ type, length: rows, nullCount: nulls, nullBitmap: bitmap, data: words }),
  );
}

/** A column straight from its vectors' bytes, or null for the types that go value by value. */
function columnVector(
  chunks: DuckDBDataChunk[],
  column: number,
  rows: number,
  duckType: DuckDBType,
  type: Any,
): ArrowModule.Vector | null {
  const id = duckType.typeId;
  const fixed = FIXED_WIDTH[id];
  if (fixed) return fixedWidthVector(chunks, column, rows, type, fixed);
  if (id === DuckDBTypeId.BOOLEAN) return boolVector(chunks, column, rows);
  if (id === DuckDBTypeId.VARCHAR) return varcharVector(chunks, column, rows);
  if (id === DuckDBTypeId.HUGEINT)
    return decimalColumn(chunks, column, rows, type as ArrowModule.Decimal, 16);
  if (id === DuckDBTypeId.DECIMAL)
    return decimalColumn(
      chunks,
      column,
      rows,
      type as ArrowModule.Decimal,
      decimalBytes((duckType as DuckDBType & { width: number }).width),
    );
  return null;
}

/** One column's values, chunk by chunk (the reader's getColumns() would convert every column of the result). */
function columnValues(chunks: DuckDBDataChunk[], column: number): DuckDBValue[] {
  const out: DuckDBValue[] = [];
  for (const chunk of chunks) {
    const v = chunk.getColumnVector(column);
    for (let i = 0; i < chunk.rowCount; i++) out.push(v.getItem(i));
  }
  return out;
}

/** A column through one JS value per row: every type the typed-array path does not cover. */
function rowVector(values: DuckDBValue[], duckType: DuckDBType, type: Any): ArrowModule.Vector {
  return arrow.DataType.isDecimal(type)
    ? decimalVector(values, type as ArrowModule.Decimal)
    : arrow.vectorFromArray(
        values.map((v) => jsOf(v, duckType)),
        type,
      );
}

/** The whole result as one Arrow table. */
export function resultToArrow(reader: DuckDBResultReader): ArrowModule.Table {
  const names = reader.columnNames();
  const types = reader.columnTypes();
  if (names.length === 0) return new arrow.Table();
  const chunks = chunksOf(reader);
  const rows = chunks?.reduce((n, c) => n + c.rowCount, 0) ?? 0;
  let all: DuckDBValue[][] | undefined;
  const values = (i: number) => (chunks ? columnValues(chunks, i) : ((all ??= reader.getColumns())[i] ?? []));
  const vectors: Record<string, ArrowModule.Vector> = {};
  names.forEach((name, i) => {
    const type = arrowTypeOf(types[i]!, name);
    const fast = chunks ? columnVector(chunks, i, rows, types[i]!, type) : null;
    vectors[name] = fast ?? rowVector(values(i), types[i]!, type);
  });
  return new arrow.Table(vectors);
}
