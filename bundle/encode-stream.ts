// Arrow IPC stream encoding shared by the bundle writer and the engines.
import { Data, RecordBatch, RecordBatchStreamWriter, Type, type Table } from "apache-arrow";

/** Rows per record batch: a file cut short still yields all but its last batch. */
export const BATCH_ROWS = 65_536;

/** Record batches of at most `batchRows` rows, so a file cut short still yields most of its rows. */
export function encodeStream(table: Table, batchRows = BATCH_ROWS): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  for (const batch of ownBatches(table, batchRows)) writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}

/**
 * The table cut into batches of at most `batchRows` rows whose buffers hold only their own rows. apache-arrow
 * 17 writes a sliced column's validity bitmap (and a bool column's values) from the slice's start to the end of
 * the whole column, so slices of one big table written as they are make a file quadratic in its rows.
 */
export function* ownBatches(table: Table, batchRows = BATCH_ROWS): Generator<RecordBatch> {
  for (let start = 0; start < table.numRows || start === 0; start += batchRows) {
    for (const batch of table.slice(start, Math.min(table.numRows, start + batchRows)).batches)
      yield ownBatch(batch);
    if (table.numRows === 0) break;
  }
}

/** The batch with each column's bitmaps copied down to its own rows (values buffers are already views of them). */
export function ownBatch(batch: RecordBatch): RecordBatch {
  // An empty table's batch is apache-arrow's placeholder, which the writer skips (it writes the schema only).
  if (batch.numRows === 0) return batch;
  const data = batch.data;
  const children = data.children.map(ownData);
  return new RecordBatch(batch.schema, data.clone(data.type, 0, data.length, 0, data as never, children));
}

function ownData(data: Data): Data {
  const { type, offset, length } = data;
  const nullCount = data.nullCount;
  // A list's child is not sliced (its offsets say where the rows are): the writer cuts it itself. (An empty
  // column's data has no children array at all.)
  const children = !data.children || data.valueOffsets ? data.children : data.children.map(ownData);
  const buffers: (ArrayBufferView | undefined)[] = [data.valueOffsets, data.values, undefined, data.typeIds];
  // Arrow IPC may leave the validity buffer out only when nothing is null: an all-null column keeps its bits.
  if (nullCount > 0 && data.nullBitmap) buffers[2] = bitRange(data.nullBitmap, offset, length);
  // Bool values are bits that slicing leaves whole (the offset counts bits, not bytes).
  if (type.typeId === Type.Bool && data.values) buffers[1] = bitRange(data.values, offset, length);
  if (
    offset === 0 &&
    buffers[1] === data.values &&
    buffers[2] === data.nullBitmap &&
    children === data.children
  )
    return data;
  return new Data(type, 0, length, nullCount, buffers as never, children, data.dictionary);
}

/** Bits `offset .. offset + length` of `bits`, LSB first, as their own bytes (bits past `length` zero). */
export function bitRange(bits: Uint8Array, offset: number, length: number): Uint8Array {
  const out = new Uint8Array((length + 7) >> 3);
  const first = offset >> 3;
  const shift = offset & 7;
  if (shift === 0) out.set(bits.subarray(first, first + out.length));
  else
    for (let i = 0; i < out.length; i++)
      out[i] = ((bits[first + i] ?? 0) >> shift) | (((bits[first + i + 1] ?? 0) << (8 - shift)) & 0xff);
  if (length & 7) out[out.length - 1]! &= (1 << (length & 7)) - 1;
  return out;
}
