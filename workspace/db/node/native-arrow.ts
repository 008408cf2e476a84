// Native DuckDB results as Arrow tables, typed the way DuckDB-WASM types them (DuckDB's Arrow converter:
// HUGEINT and DECIMAL as Decimal128, DATE as Date32, TIMESTAMP as microseconds), so cells see the same
// values under either engine. Built with the ESM apache-arrow instance, as the page's results are: the runner's
// thread then loads no CommonJS copy (docs/architecture.md, "apache-arrow is pinned at 17"). Column by column from
// the vectors' bytes (native-columns.ts); lists, structs and enums go value by value.
import * as arrow from "apache-arrow";
import {
  DuckDBResult as DuckDBResultClass,
  DuckDBTypeId,
  type DuckDBDataChunk,
  type DuckDBResult,
  type DuckDBResultReader,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import type * as ArrowModule from "apache-arrow";
import duckdb from "@duckdb/node-bindings";
import { columnVector } from "./native-columns";
import type { RowCap } from "../engine";

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

/** The reader's chunks, or null when this @duckdb/node-api keeps them otherwise (the row path is then taken). */
function chunksOf(reader: DuckDBResultReader): DuckDBDataChunk[] | null {
  const chunks = (reader as unknown as { chunks?: unknown }).chunks;
  return Array.isArray(chunks) ? (chunks as DuckDBDataChunk[]) : null;
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

/** Each column of `chunks` as one Arrow vector: fast columns from their bytes, the others value by value. */
function chunksToVectors(
  types: DuckDBType[],
  arrowTypes: Any[],
  chunks: DuckDBDataChunk[] | null,
  reader?: DuckDBResultReader,
): ArrowModule.Vector[] {
  const rows = chunks?.reduce((n, c) => n + c.rowCount, 0) ?? 0;
  let all: DuckDBValue[][] | undefined;
  const values = (i: number) =>
    chunks ? columnValues(chunks, i) : ((all ??= reader!.getColumns())[i] ?? []);
  return types.map(
    (duckType, i) =>
      (chunks ? columnVector(chunks, i, rows, duckType, arrowTypes[i]!) : null) ??
      rowVector(values(i), duckType, arrowTypes[i]!),
  );
}

/** Named vectors as a table; of two columns of the same name, the last is kept. */
function tableOf(names: string[], vectors: ArrowModule.Vector[]): ArrowModule.Table {
  const named: Record<string, ArrowModule.Vector> = {};
  names.forEach((name, i) => (named[name] = vectors[i]!));
  return new arrow.Table(named);
}

/** The whole result as one Arrow table. */
export function resultToArrow(reader: DuckDBResultReader): ArrowModule.Table {
  const names = reader.columnNames();
  if (names.length === 0) return new arrow.Table();
  const types = reader.columnTypes();
  const arrowTypes = types.map((t, i) => arrowTypeOf(t, names[i]!));
  return tableOf(names, chunksToVectors(types, arrowTypes, chunksOf(reader), reader));
}

/**
 * A streamed query that failed part way: @duckdb/node-api 1.5's fetch_chunk answers DuckDB's error (an interrupt
 * included) with no chunk, as at the end, and binds no call that gives the message.
 */
export class StreamFailed extends Error {}

/** The raw result under node-api's result (or its reader's): the binding's calls take it. */
function rawResult(result: DuckDBResult | DuckDBResultReader): duckdb.Result {
  const inner = (result as unknown as { result: DuckDBResult | duckdb.Result }).result;
  return inner instanceof DuckDBResultClass ? rawResult(inner) : (inner as duckdb.Result);
}

/**
 * Whether a streamed result ended in an error: duckdb_result_is_streaming is false once the result holds one
 * (DuckDB src/main/capi/result-c.cpp), where a stream that ended well, or was read only in part, still streams.
 */
export function streamEndedInError(result: DuckDBResult | DuckDBResultReader): boolean {
  return !duckdb.result_is_streaming(rawResult(result));
}

/** Rows a batch: 32 of DuckDB's 2,048-row chunks, converted together, as the costs a call of a chunk alone add up. */
const BATCH_ROWS = 65_536;

/**
 * A streamed result as an Arrow table of batches of BATCH_ROWS, each converted as soon as its chunks are fetched, so
 * neither DuckDB nor we hold its chunks whole (docs/scaling.md, "Which engine"). Past `cap`'s rows the chunks are
 * counted, not converted, and its error says how many there were.
 */
export async function streamToArrow(result: DuckDBResult, cap?: RowCap): Promise<ArrowModule.Table> {
  const maxRows = cap?.maxRows ?? Infinity;
  const names = result.columnNames();
  if (names.length === 0) return new arrow.Table();
  const types = result.columnTypes();
  const arrowTypes = types.map((t, i) => arrowTypeOf(t, names[i]!));
  const streaming = !streamEndedInError(result);
  const batches: ArrowModule.RecordBatch[] = [];
  let pending: DuckDBDataChunk[] = [];
  let pendingRows = 0;
  const convert = () => {
    // Every read copies (duckdb.node makes Buffers with napi_create_buffer_copy only): no byte outlives its chunk.
    batches.push(...tableOf(names, chunksToVectors(types, arrowTypes, pending)).batches);
    pending = [];
    pendingRows = 0;
  };
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    rows += chunk.rowCount;
    if (rows > maxRows) {
      pending = [];
      continue;
    }
    pending.push(chunk);
    pendingRows += chunk.rowCount;
    if (pendingRows >= BATCH_ROWS) convert();
  }
  if (streaming && streamEndedInError(result)) throw new StreamFailed(`the query failed after ${rows} rows`);
  if (rows > maxRows) throw cap!.over(rows);
  if (pending.length || rows === 0) convert();
  return new arrow.Table(batches);
}
