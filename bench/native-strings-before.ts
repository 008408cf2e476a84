// Text columns converted as they were before long strings were read a span at a time
// (workspace/db/node/native-columns.ts at 243c09b), kept as bench/native-results.bench.ts's peer: each string over
// 12 bytes through its own get_data_from_pointer call.
import * as arrow from "apache-arrow";
import duckdb from "@duckdb/node-bindings";
import type { DuckDBDataChunk } from "@duckdb/node-api";
import type * as ArrowModule from "apache-arrow";

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

/** DuckDB's string_t: its length, then up to 12 bytes inline, or a 4-byte prefix and a pointer to the bytes. */
const STRING_T = 16;
const INLINE = 12;

/** VARCHAR as Arrow Utf8: the UTF-8 bytes as DuckDB holds them, never decoded to JS strings. */
export function varcharVectorBefore(
  chunks: DuckDBDataChunk[],
  column: number,
  rows: number,
): ArrowModule.Vector {
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
