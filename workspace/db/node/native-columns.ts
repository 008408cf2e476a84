// Native DuckDB result columns as Arrow vectors, straight from each chunk's vector bytes (vector_get_data,
// vector_get_validity): DuckDB's layouts are Arrow's for numbers, dates, timestamps and validity masks; booleans are
// packed to bits, text copied as UTF-8 bytes (strings over 12 bytes a span of memory at a time, long-strings.ts),
// decimals sign-extended to 128 bits. Used by native-arrow.ts, which takes the other types value by value.
import * as arrow from "apache-arrow";
import duckdb from "@duckdb/node-bindings";
import { copyLongStrings, planSpace } from "./long-strings";
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBType } from "@duckdb/node-api";
import type * as ArrowModule from "apache-arrow";

type Any = ArrowModule.DataType;

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

/** Set bits in each byte value. */
const ONES = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x; x >>= 1) n += x & 1;
  return n;
});

/** Sets bits [from, from + n) of `bitmap`: whole bytes at once. */
function setBits(bitmap: Uint8Array, from: number, n: number): void {
  let i = from;
  const to = from + n;
  for (; i < to && i & 7; i++) bitmap[i >> 3]! |= 1 << (i & 7);
  if (to - i >= 8) {
    bitmap.fill(0xff, i >> 3, to >> 3);
    i = to & ~7;
  }
  for (; i < to; i++) bitmap[i >> 3]! |= 1 << (i & 7);
}

/**
 * Each chunk's validity mask into one Arrow bitmap; returns the null count. DuckDB's mask is Arrow's bit order
 * (row i is bit i % 8 of byte i / 8), so a chunk that starts on a byte is copied whole.
 */
function validityOf(vectors: RawVector[], rows: number): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array(Math.ceil(rows / 8));
  let at = 0;
  let valid = 0;
  for (const { rows: n, validity } of vectors) {
    if (!validity) {
      setBits(bitmap, at, n);
      valid += n;
      at += n;
      continue;
    }
    if ((at & 7) === 0) {
      const whole = n >> 3;
      bitmap.set(validity.subarray(0, whole), at >> 3);
      for (let b = 0; b < whole; b++) valid += ONES[validity[b]!]!;
      for (let i = whole << 3; i < n; i++)
        if ((validity[i >> 3]! >> (i & 7)) & 1) {
          bitmap[(at + i) >> 3]! |= 1 << ((at + i) & 7);
          valid++;
        }
      at += n;
      continue;
    }
    for (let i = 0; i < n; i++, at++)
      if ((validity[i >> 3]! >> (i & 7)) & 1) {
        bitmap[at >> 3]! |= 1 << (at & 7);
        valid++;
      }
  }
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
  // each chunk's strings over 12 bytes: where their string_t sits, where their bytes go
  const most = vectors.reduce((m, v) => Math.max(m, v.rows), 0);
  const entries = new Int32Array(most);
  const targets = new Int32Array(most);
  const space = planSpace(most);
  for (const v of vectors) {
    let long = 0;
    for (let i = 0; i < v.rows; i++, at++) {
      const from = offsets[at]!;
      const length = offsets[at + 1]! - from;
      const entry = i * STRING_T;
      // byte by byte: a subarray per value cost more than the copy
      if (length <= INLINE) for (let k = 0; k < length; k++) bytes[from + k] = v.data[entry + 4 + k]!;
      else {
        entries[long] = entry;
        targets[long++] = from;
      }
    }
    if (long) copyLongStrings(v.data, entries.subarray(0, long), targets.subarray(0, long), bytes, space);
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
export function columnVector(
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
