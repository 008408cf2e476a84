// Copies Arrow columns into DuckDB data chunks for the native appender (@duckdb/node-api has no Arrow IPC
// reader offline, docs/architecture.md "Pins and traps"): fixed-width values and validity go over as whole
// buffers, strings one call a value.
import duckdb from "@duckdb/node-bindings";
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  LIST,
  listValue,
  TINYINT,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBType,
} from "@duckdb/node-api";
import type { Data, DataType, RecordBatch } from "apache-arrow";
import type { ColumnType } from "../../../bundle/schema";

const NATIVE_TYPE: Record<ColumnType, DuckDBType> = {
  int8: TINYINT,
  int32: INTEGER,
  int64: BIGINT,
  float64: DOUBLE,
  bool: BOOLEAN,
  utf8: VARCHAR,
  "list<utf8>": LIST(VARCHAR),
};

/**
 * Appends a record batch to a table whose columns are `columns`, in that order; a column the batch lacks
 * goes in as nulls. The caller has checked the batch's types against `columns`.
 */
export function appendBatch(
  appender: DuckDBAppender,
  columns: readonly { name: string; type: ColumnType }[],
  batch: RecordBatch,
): void {
  const types = columns.map((c) => NATIVE_TYPE[c.type]);
  const data = columns.map((c) => batch.getChild(c.name)?.data[0]);
  for (let start = 0; start < batch.numRows; start += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, batch.numRows - start);
    const chunk = DuckDBDataChunk.create(types, n);
    columns.forEach((c, i) =>
      data[i] ? copyColumn(chunk, i, c.type, data[i], start, n) : setAllNull(chunk, i, c.type, n),
    );
    chunk.rowCount = n;
    appender.appendDataChunk(chunk);
  }
}

/** Bytes a value takes in a DuckDB vector, for the fixed-width types (DuckDB's BOOLEAN is one byte). */
const WIDTH: Partial<Record<ColumnType, number>> = { int8: 1, int32: 4, int64: 8, float64: 8 };

/** DuckDB's vector size: a data chunk holds at most this many rows. */
export const CHUNK_ROWS = duckdb.vector_size();

/** One Arrow column's rows [start, start + n) into column `index` of `chunk`. */
function copyColumn(
  chunk: DuckDBDataChunk,
  index: number,
  type: ColumnType,
  data: Data<DataType>,
  start: number,
  n: number,
): void {
  if (data.nullCount === data.length) return setAllNull(chunk, index, type, n);
  if (type === "list<utf8>") return copyList(chunk, index, data, start, n);
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const at = data.offset + start;
  const width = WIDTH[type];
  if (width) {
    const values = data.values as ArrayLike<number> & ArrayBufferView;
    duckdb.copy_data_to_vector(
      vector,
      0,
      values.buffer as ArrayBuffer,
      values.byteOffset + at * width,
      n * width,
    );
  } else if (type === "bool") {
    // Arrow packs booleans 8 to a byte, DuckDB keeps one byte each.
    const bits = data.values as Uint8Array;
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) bytes[i] = (bits[(at + i) >> 3]! >> ((at + i) & 7)) & 1;
    duckdb.copy_data_to_vector(vector, 0, bytes.buffer, 0, n);
  } else copyStrings(vector, data, start, n);
  if (data.nullCount > 0) copyValidity(vector, data, at, n);
}

/** A column the file lacks, or holds only nulls in: the validity mask alone, all invalid. */
export function setAllNull(chunk: DuckDBDataChunk, index: number, type: ColumnType, n: number): void {
  if (type === "list<utf8>") return chunk.setColumnValues(index, new Array<null>(n).fill(null));
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const none = new Uint8Array(Math.ceil(n / 64) * 8);
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, none.buffer, 0, none.length);
}

/** Arrow's validity bitmap (LSB first) has DuckDB's bit order: re-aligned to the chunk's first row. */
function copyValidity(vector: duckdb.Vector, data: Data<DataType>, at: number, n: number): void {
  const bitmap = data.nullBitmap;
  if (!bitmap || bitmap.length === 0) return;
  const out = new Uint8Array(Math.ceil(n / 64) * 8);
  if ((at & 7) === 0) out.set(bitmap.subarray(at >> 3, (at >> 3) + Math.ceil(n / 8)));
  else
    for (let i = 0; i < n; i++)
      if ((bitmap[(at + i) >> 3]! >> ((at + i) & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, out.buffer, 0, out.length);
}

/** Utf8, plain or dictionary-encoded (DuckDB-WASM makes both VARCHAR): the UTF-8 bytes as stored, no decoding. */
function copyStrings(vector: duckdb.Vector, data: Data<DataType>, start: number, n: number): void {
  const at = data.offset + start;
  if (data.dictionary) {
    const dict = data.dictionary.data[0]!;
    const words = Array.from({ length: data.dictionary.length }, (_, i) => utf8At(dict, i));
    const keys = data.values as ArrayLike<number>;
    for (let i = 0; i < n; i++) {
      const word = words[Number(keys[at + i])];
      if (word) duckdb.vector_assign_string_element_len(vector, i, word);
    }
    return;
  }
  for (let i = 0; i < n; i++) duckdb.vector_assign_string_element_len(vector, i, utf8At(data, start + i));
}

function utf8At(data: Data<DataType>, row: number): Uint8Array {
  const offsets = data.valueOffsets as Int32Array;
  const at = data.offset + row;
  return (data.values as Uint8Array).subarray(offsets[at]!, offsets[at + 1]!);
}

/** list<utf8> (contexts.frames, runs.warnings: small tables) through the API's values. */
function copyList(chunk: DuckDBDataChunk, index: number, data: Data<DataType>, start: number, n: number) {
  const child = data.children[0]!;
  const offsets = data.valueOffsets as Int32Array;
  const bitmap = data.nullBitmap;
  const values = [];
  for (let i = 0; i < n; i++) {
    const at = data.offset + start + i;
    const valid = data.nullCount === 0 || !bitmap?.length || (bitmap[at >> 3]! >> (at & 7)) & 1;
    if (!valid) {
      values.push(null);
      continue;
    }
    const items: (string | null)[] = [];
    for (let k = offsets[at]!; k < offsets[at + 1]!; k++) items.push(stringAt(child, k));
    values.push(listValue(items));
  }
  chunk.setColumnValues(index, values);
}

const decoder = new TextDecoder();

function stringAt(data: Data<DataType>, row: number): string | null {
  const at = data.offset + row;
  const bitmap = data.nullBitmap;
  if (data.nullCount > 0 && bitmap?.length && !((bitmap[at >> 3]! >> (at & 7)) & 1)) return null;
  return decoder.decode(utf8At(data, row));
}
