// One typed reader for every cell's input columns (Perfetto UI's `iter({ts: LONG, dur: LONG_NULL})` is the
// model): each column is declared with its contract type and what a null reads as, checked with the same rule
// as bundle/validate.ts, and returned as a typed array in one step. Chunks are read from their buffers, without
// instanceof: tables may come from DuckDB-WASM's own apache-arrow instance (the dual-package hazard,
// docs/architecture.md).
import type { Table, Vector } from "apache-arrow";
import type { ColumnType } from "./schema";
import { requireColumns } from "./require-columns";

/** A declared column: its contract type, and how it is read (`optional`: a missing column reads as null). */
export interface ColumnDecl<R = unknown> {
  type: ColumnType;
  optional: boolean;
  read: (v: Vector) => R;
}

type Values = ArrayLike<number | bigint> & { buffer: ArrayBufferLike; byteOffset: number };
interface Chunk {
  length: number;
  offset: number;
  nullCount: number;
  nullBitmap?: Uint8Array | null;
  values: Values;
}
const chunksOf = (v: Vector) => (v as unknown as { data: Chunk[] }).data;
// The validity bitmap is not offset by the slice; the values are (apache-arrow Data).
const isNull = (c: Chunk, i: number) =>
  c.nullCount > 0 &&
  !!c.nullBitmap &&
  ((c.nullBitmap[(c.offset + i) >> 3]! >> ((c.offset + i) & 7)) & 1) === 0;

const decl = <R>(type: ColumnType, read: (v: Vector) => R): ColumnDecl<R> => ({
  type,
  optional: false,
  read,
});

type Filled = { [i: number]: number | bigint; length: number };

/**
 * A reader that fills one typed array chunk by chunk (`fill` writes chunk `c`'s rows into `out` from `row`, as
 * if nothing were null), then writes `nullAs` over the nulls: two tight loops, not a null test per value.
 */
function chunked<A extends Filled>(
  make: (n: number) => A,
  fill: (c: Chunk, out: A, row: number) => void,
  nullAs: A[number],
) {
  return (v: Vector): A => {
    const out = make(v.length);
    let row = 0;
    for (const c of chunksOf(v)) {
      fill(c, out, row);
      const bits = c.nullCount > 0 ? c.nullBitmap : null;
      if (bits)
        for (let i = 0, b = c.offset; i < c.length; i++, b++)
          if (((bits[b >> 3]! >> (b & 7)) & 1) === 0) out[row + i] = nullAs;
      row += c.length;
    }
    return out;
  };
}

/** int64 as float64 (exact below 2^53 ns, 104 days of uptime), `nullAs` where null. */
export const int64 = (nullAs = NaN) =>
  decl(
    "int64",
    chunked(
      (n) => new Float64Array(n),
      (c, out, row) => {
        // The two 32-bit halves: no BigInt per value (3x faster on 1M rows); one rounding, as Number(bigint).
        const words = new Int32Array(c.values.buffer, c.values.byteOffset, c.length * 2);
        for (let i = 0; i < c.length; i++)
          out[row + i] = words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0);
      },
      nullAs,
    ),
  );

/** A column of plain values copied (and converted, int32 to float64) natively into `make`'s array. */
const plain = <A extends Int32Array | Float64Array | BigInt64Array>(
  make: (n: number) => A,
  nullAs: A[number],
) =>
  chunked(
    make,
    (c, out, row) =>
      (out as { set(a: ArrayLike<number | bigint>, at: number): void }).set(
        (c.values as unknown as Int32Array).subarray(0, c.length),
        row,
      ),
    nullAs,
  );

/** int64 kept exact as bigint (ids), 0n where null. */
export const bigint64 = () =>
  decl(
    "int64",
    plain((n) => new BigInt64Array(n), 0n),
  );

/** int32 as Int32Array, `nullAs` where null. */
export const int32 = (nullAs = 0) =>
  decl(
    "int32",
    plain((n) => new Int32Array(n), nullAs),
  );

/** int32 as float64, so that a null can read as what it means (Infinity: an unbounded pool). */
export const int32AsFloat = (nullAs = NaN) =>
  decl(
    "int32",
    plain((n) => new Float64Array(n), nullAs),
  );

/** float64, `nullAs` where null. */
export const float64 = (nullAs = NaN) =>
  decl(
    "float64",
    plain((n) => new Float64Array(n), nullAs),
  );

/** bool as 0/1 bytes from the bitmaps; null reads as 0. */
export const bool = () =>
  decl(
    "bool",
    chunked(
      (n) => new Uint8Array(n),
      (c, out, row) => {
        const bits = c.values as unknown as Uint8Array;
        for (let i = 0; i < c.length; i++) {
          const b = c.offset + i;
          out[row + i] = (bits[b >> 3]! >> (b & 7)) & 1;
        }
      },
      0,
    ),
  );

/** A string column, checked and handed back as its vector (plain or dictionary-encoded). */
export const utf8 = () => decl("utf8", (v) => v);
export const utf8List = () => decl("list<utf8>", (v) => v);

/** A column a table may lack (a bundle written before it existed): null when absent, checked when present. */
export const optional = <R>(decl: ColumnDecl<R>): ColumnDecl<R | null> => ({ ...decl, optional: true });

/** Codes 0.. for a string column (plain or dictionary-encoded), with the distinct strings. */
export function stringCodes(v: Vector, names: string[] = [], known = new Map<string, number>()): Int32Array {
  const code = (s: unknown) => {
    const key = s === null || s === undefined ? "" : String(s);
    let c = known.get(key);
    if (c === undefined) {
      known.set(key, (c = names.length));
      names.push(key);
    }
    return c;
  };
  // Not through chunked: a null takes the code of "" where it stands, so codes stay in order of appearance.
  const out = new Int32Array(v.length);
  let row = 0;
  for (const c of chunksOf(v) as (Chunk & { dictionary?: Vector })[]) {
    if (c.dictionary) {
      const local = Array.from({ length: c.dictionary.length }, (_, d) => code(c.dictionary!.get(d)));
      const idx = c.values as Int32Array;
      for (let i = 0; i < c.length; i++) out[row + i] = !isNull(c, i) ? local[idx[i]!]! : code(null);
    } else for (let i = 0; i < c.length; i++) out[row + i] = code(v.get(row + i));
    row += c.length;
  }
  return out;
}

type Read<S extends Record<string, ColumnDecl>> = {
  [K in keyof S]: S[K] extends ColumnDecl<infer R> ? R : never;
};

/** Every declared column checked first (the first problem named with table and column), then read. */
export function readColumns<S extends Record<string, ColumnDecl>>(
  table: Table,
  tableName: string,
  columns: S,
): Read<S> {
  checkColumns(table, tableName, columns);
  const out: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(columns)) {
    const v = table.getChild(name);
    out[name] = v ? decl.read(v) : null;
  }
  return out as Read<S>;
}

/** The check alone, for a cell that only needs to know its input is well-formed. */
export function checkColumns(table: Table, tableName: string, columns: Record<string, ColumnDecl>): void {
  requireColumns(table.schema, tableName, columns);
}
