// A bundle table written to its .arrows file batch by batch as the rows are made, so a table larger than
// memory never sits in it whole (method traces past 2 GiB: docs/scaling.md). The file is the stream
// writeBundleFolder would write for the same rows: record batches of at most BATCH_ROWS rows, each table
// given here its own batches, one schema and one copy of each dictionary for the whole stream.
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import {
  AsyncByteQueue,
  Data,
  DataType,
  RecordBatch,
  RecordBatchStreamWriter,
  Struct,
  type Schema,
  type Table,
  type Vector,
} from "apache-arrow";
import { crc32, crc32Hex } from "./crc32";
import { ownBatches } from "./encode-stream";
import type { TableName } from "./schema";
import { validateTable } from "./validate";

/** Writes each buffer the stream writer hands it straight to the file, keeping none of them. */
class FileSink extends AsyncByteQueue {
  bytes = 0;
  crc = 0;
  constructor(private readonly fd: number) {
    super();
  }
  override write(value: ArrayBufferView | ArrayBufferLike | ArrayLike<number>) {
    const view = value as Uint8Array;
    for (let at = 0; at < view.byteLength;) at += writeSync(this.fd, view, at);
    this.crc = crc32(view, this.crc);
    this.bytes += view.byteLength;
  }
}

export class TableFileWriter {
  rows = 0;
  private readonly fd: number;
  private readonly sink: FileSink;
  private readonly writer = new RecordBatchStreamWriter();
  private schema: Schema | null = null;
  private dictionaries: (Vector | undefined)[] = [];
  private open = true;

  constructor(
    readonly name: TableName,
    readonly path: string,
  ) {
    this.fd = openSync(path, "w");
    this.sink = new FileSink(this.fd);
    this.writer.reset(this.sink as never);
  }

  /** Appends the table's rows; its columns may be reused once this returns (they are written, not kept). */
  write(table: Table): void {
    validateTable(table, this.name, this.path);
    if (!this.schema) {
      this.schema = table.schema;
      // The first table's dictionary types and values stand for every later table's (the same strings).
      const first = table.batches[0]?.data.children ?? [];
      this.dictionaries = first.map((d) => (DataType.isDictionary(d.type) ? d.dictionary : undefined));
    }
    for (const batch of ownBatches(table)) {
      if (batch.numRows === 0 && this.rows > 0) continue;
      this.writer.write(this.sameSchema(batch));
      this.rows += batch.numRows;
    }
  }

  /** Ends the stream and closes the file: its rows and CRC-32 for the manifest. */
  finish(): { rows: number; bytes: number; crc32: string } {
    this.writer.finish();
    this.close();
    return { rows: this.rows, bytes: this.sink.bytes, crc32: crc32Hex(this.sink.crc) };
  }

  /** Closes and removes the file (the import failed). */
  abort(): void {
    this.close();
    rmSync(this.path, { force: true });
  }

  private close() {
    if (this.open) closeSync(this.fd);
    this.open = false;
  }

  private sameSchema(batch: RecordBatch): RecordBatch {
    const schema = this.schema!;
    if (batch.schema === schema || batch.numRows === 0) return batch;
    const children = batch.data.children.map((d: Data, i: number) => {
      const type = schema.fields[i]!.type;
      const buffers = [d.valueOffsets, d.values, d.nullBitmap, d.typeIds];
      return new Data(
        type,
        d.offset,
        d.length,
        d.nullCount,
        buffers as never,
        d.children,
        this.dictionaries[i],
      );
    });
    const data = batch.data.clone(
      new Struct(schema.fields),
      0,
      batch.numRows,
      0,
      batch.data as never,
      children,
    );
    return new RecordBatch(schema, data);
  }
}
