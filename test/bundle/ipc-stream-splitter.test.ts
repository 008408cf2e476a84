import {
  Int64,
  makeData,
  RecordBatch,
  RecordBatchReader,
  RecordBatchStreamWriter,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeStream } from "../../bundle/encode-stream";
import { IpcStreamSplitter, type SplitterEnd } from "../../bundle/ipc-stream-splitter";
import { BundleError } from "../../bundle/manifest";
import { makeBundleTable } from "../../bundle/table-builder";
import { fcRuns } from "../support/fc-runs";

/** Frames with nulls in optional columns and a dictionary-encoded window name, from a seed. */
function frames(n: number, runId = "r1", seed = 1) {
  const ts = Array.from({ length: n }, (_, i) => BigInt(i) * 16_666_667n);
  return makeBundleTable("frames", runId, {
    window: Array.from({ length: n }, (_, i) => [null, "MainActivity", "Dialog"][(i * seed) % 3] ?? null),
    intended_vsync: ts,
    draw_start: ts.map((t, i) => ((i + seed) % 4 === 0 ? null : t + 3_000_000n)),
    frame_completed: ts.map((t, i) => t + BigInt(((i * 7919 + seed) % 30) * 1_000_000)),
    duration: ts.map((_, i) => ((i * 7919 + seed) % 30) * 1_000_000),
    deadline: ts.map(() => 16_666_667),
    jank: ts.map((_, i) => (i * 7919 + seed) % 30 > 16),
  });
}

/** Rows as JSON (bigints as strings), the independent view both sides are compared through. */
function rowsOf(table: Table): string[] {
  return table
    .toArray()
    .map((r) => JSON.stringify(r.toJSON(), (_, v) => (typeof v === "bigint" ? String(v) : v)));
}

/** Feeds bytes in pieces of the given sizes (cycled), then finishes. */
function split(
  bytes: Uint8Array,
  pieceSizes: readonly number[],
  chunkRows: number,
  chunkBytes = 1 << 20,
): SplitterEnd {
  const splitter = new IpcStreamSplitter({
    chunkRows,
    chunkBytes,
    file: "run/frames.arrows",
    table: "frames",
  });
  const chunks = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = Math.max(1, pieceSizes[k % pieceSizes.length]!);
    chunks.push(...splitter.push(bytes.subarray(at, at + size)));
    at += size;
  }
  const end = splitter.finish();
  return { ...end, chunks: [...chunks, ...end.chunks] };
}

function rowsOfChunks(end: SplitterEnd): string[] {
  return end.chunks.flatMap((c) => {
    const t = tableFromIPC(c.bytes);
    expect(t.numRows).toBe(c.rows);
    return rowsOf(t);
  });
}

/** What apache-arrow's own reader keeps of a (possibly cut) stream: the whole record batches. */
function wholeBatchRows(bytes: Uint8Array): string[] {
  const kept: string[] = [];
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    for (const batch of reader) kept.push(...rowsOf(new Table([batch])));
  } catch {
    // a cut stream ends the batches; what came before stays
  }
  return kept;
}

describe("IpcStreamSplitter", () => {
  it("re-chunks any stream, fed in any pieces, into streams that hold exactly the original rows", () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 0, max: 300 }),
          batchRows: fc.integer({ min: 1, max: 80 }),
          chunkRows: fc.integer({ min: 1, max: 200 }),
          pieces: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 5 }),
          seed: fc.integer({ min: 1, max: 5 }),
          chunkBytes: fc.option(fc.integer({ min: 1000, max: 40_000 })),
        }),
        ({ n, batchRows, chunkRows, pieces, seed, chunkBytes }) => {
          const table = frames(n, "r1", seed);
          const end = split(encodeStream(table, batchRows), pieces, chunkRows, chunkBytes ?? undefined);
          expect(end.error).toBeUndefined();
          expect(rowsOfChunks(end)).toEqual(rowsOf(table));
          // every chunk but the last is full (by rows, or the next batch would not fit), none holds a batch more
          // than it needs, and only a chunk of one batch may be over the byte limit
          const limit = chunkBytes ?? 1 << 20;
          const oneBatch = encodeStream(table.slice(0, batchRows), batchRows).length; // a batch and its schema, at most
          for (const c of end.chunks.slice(0, -1))
            expect(c.rows >= chunkRows || c.bytes.length + oneBatch > limit).toBe(true);
          for (const c of end.chunks) expect(c.rows).toBeLessThan(chunkRows + batchRows);
          for (const c of end.chunks) expect(c.bytes.length <= limit || c.rows <= batchRows).toBe(true);
          expect(end.chunks.length).toBeGreaterThanOrEqual(1); // an empty table is still created
        },
      ),
      { numRuns: fcRuns(150) },
    );
  });

  it("holds a small table in a buffer its size, not one of the chunk size (loading many runs allocated 80 MB per table)", () => {
    const bytes = encodeStream(frames(50));
    const end = split(bytes, [bytes.length], 1000, 80 << 20);
    expect(rowsOfChunks(end)).toHaveLength(50);
    // the chunk is schema + batches + end marker: under a megabyte of memory behind it
    expect(end.chunks).toHaveLength(1);
    expect(end.chunks[0]!.bytes.buffer.byteLength).toBeLessThan(1 << 20);
    // a big one grows its buffer to the limit and emits there, each chunk whole
    const big = encodeStream(frames(40_000), 1000);
    const chunks = split(big, [65_536], 1 << 30, 300_000).chunks;
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.bytes.length).toBeLessThanOrEqual(300_000 + 100_000);
    expect(chunks.reduce((n, c) => n + c.rows, 0)).toBe(40_000);
  });

  it("keeps the whole batches before a cut anywhere in the stream and names where it broke", () => {
    const bytes = encodeStream(frames(120), 16);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 90 }),
        (cut, piece, chunkRows) => {
          const cutBytes = bytes.subarray(0, cut);
          const end = split(cutBytes, [piece], chunkRows);
          expect(end.error).toBeInstanceOf(BundleError);
          expect(end.error!.message).toMatch(
            /^run\/frames\.arrows: table frames: (truncated Arrow stream|empty file)/,
          );
          const expected = wholeBatchRows(cutBytes);
          if (expected.length === 0) expect(end.chunks).toEqual([]);
          else {
            expect(rowsOfChunks(end)).toEqual(expected);
            expect(end.error!.message).toContain(`kept ${expected.length} rows`);
          }
        },
      ),
      { numRuns: fcRuns(200) },
    );
  });

  it("never throws on corrupted bytes: every fault is a BundleError naming the file", () => {
    const bytes = encodeStream(frames(120), 16);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 4000 }),
        (flips, piece) => {
          const corrupt = bytes.slice();
          for (const [at, value] of flips) corrupt[at] = value;
          const end = split(corrupt, [piece], 50);
          if (end.error) expect(end.error.message).toMatch(/^run\/frames\.arrows: table frames: /);
          // a flipped length is caught by the batch's other lengths, so no more rows come out than went in
          expect(end.chunks.reduce((n, c) => n + c.rows, 0)).toBeLessThanOrEqual(120);
        },
      ),
      { numRuns: fcRuns(300) },
    );
  });

  it("carries the dictionaries in force into every chunk, also after a dictionary is replaced", () => {
    const a = frames(100, "run-a", 1);
    // The same batches with another run id: same schema, so the writer emits a replacement dictionary batch.
    const runIdAt = a.schema.fields.findIndex((f) => f.name === "run_id");
    const asRunB = (batch: RecordBatch) => {
      const children = batch.data.children.map((c, i) =>
        i === runIdAt
          ? makeData({
              type: c.type,
              length: c.length,
              nullCount: 0,
              data: new Int32Array(c.length),
              dictionary: vectorFromArray(["run-b"], new Utf8()),
            } as never)
          : c,
      );
      return new RecordBatch(
        a.schema,
        makeData({ type: new Struct(a.schema.fields), length: batch.numRows, nullCount: 0, children }),
      );
    };
    const b = new Table(a.batches.map(asRunB));
    const writer = new RecordBatchStreamWriter();
    for (const t of [a, b])
      for (let s = 0; s < 100; s += 25) for (const batch of t.slice(s, s + 25).batches) writer.write(batch);
    writer.finish();
    const end = split(writer.toUint8Array(true), [777], 30);
    expect(end.error).toBeUndefined();
    expect(end.chunks.map((c) => c.rows)).toEqual([50, 50, 50, 50]);
    expect(rowsOfChunks(end)).toEqual([...rowsOf(a), ...rowsOf(b)]);
    const runIds = end.chunks.map((c) => [...new Set(tableFromIPC(c.bytes).getChild("run_id")!.toArray())]);
    expect(runIds).toEqual([["run-a"], ["run-a"], ["run-b"], ["run-b"]]);
  });

  it("hands back the whole file when it cannot be passed through: the Arrow file format, columns out of order", () => {
    const table = frames(40);
    const file = tableToIPC(table, "file");
    expect(split(file, [100], 10).whole).toEqual(file);
    const names = table.schema.fields.map((f) => f.name);
    const reordered = encodeStream(table.select([...names].reverse()), 8);
    const end = split(reordered, [333], 10);
    expect(end.whole).toEqual(reordered);
    expect(end.chunks).toEqual([]);
  });

  it("refuses a schema that breaks the contract, with the column named", () => {
    const table = frames(10);
    const wrongType = table
      .setChild("seq_not_in_frames", vectorFromArray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
      .select(table.schema.fields.map((f) => f.name).filter((n) => n !== "duration"));
    const end = split(encodeStream(wrongType), [64], 10);
    expect(end.error?.message).toBe("run/frames.arrows: table frames: missing column duration (int64)");
    expect(end.chunks).toEqual([]);
    expect(split(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), [4], 10).error?.message).toBe(
      "run/frames.arrows: table frames: not Arrow IPC (neither ARROW1 file magic nor a stream continuation marker at offset 0)",
    );
  });

  it("stops at the first batch with nulls in a required column and keeps the batches before it", () => {
    const table = frames(40);
    const duration = Array.from({ length: 40 }, (_, i) => (i === 25 ? null : BigInt(i)));
    const broken = table.setChild("duration", vectorFromArray(duration, new Int64()));
    const bytes = encodeStream(broken, 10);
    const end = split(bytes, [500], 15);
    expect(end.error?.column).toBe("duration");
    expect(end.error?.message).toMatch(
      /table frames: column duration has 1 nulls in the record batch at byte offset \d+ \(kept the 20 rows before it\) but may not be null/,
    );
    expect(rowsOfChunks(end)).toEqual(rowsOf(broken.slice(0, 20)));
  });

  it("an end marker ends the stream; bytes after it are ignored", () => {
    const table = frames(30);
    const bytes = encodeStream(table, 7);
    const trailing = new Uint8Array([...bytes, 0xde, 0xad, 0xbe, 0xef]);
    const end = split(trailing, [50], 100);
    expect(end.error).toBeUndefined();
    expect(rowsOfChunks(end)).toEqual(rowsOf(table));
  });
});
