// Arrow IPC stream encoding shared by the bundle writer and the engines.
import { RecordBatchStreamWriter, type Table } from "apache-arrow";

/** Record batches of at most `batchRows` rows, so a file cut short still yields most of its rows. */
export function encodeStream(table: Table, batchRows = 65_536): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  for (let start = 0; start < table.numRows || start === 0; start += batchRows) {
    for (const batch of table.slice(start, Math.min(table.numRows, start + batchRows)).batches)
      writer.write(batch);
    if (table.numRows === 0) break;
  }
  writer.finish();
  return writer.toUint8Array(true);
}
