// A method trace read from a file in chunks into one reused buffer, its records decoded into column batches
// that the caller writes out as they fill: memory stays bounded by the batch and the chunk, whatever the
// file's size (Node's readFile refuses files past 2 GiB). The decoding is method-trace-decode.ts's, the same
// as readMethodTrace's over a whole buffer. Format: AOSP art runtime/trace.cc; docs/method-trace-format.md.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { TraceClock } from "./method-trace";
import {
  checkBatch,
  decideClock,
  decodeRecords,
  endTrace,
  recordColumns,
  startTrace,
  type TraceEnd,
  type TraceStart,
} from "./method-trace-decode";
import { parseKey } from "./method-trace-key";
import type { RecordColumns } from "./method-trace-records";

/** Random access to a file's bytes: `read` fills `into` from `position` and returns how many it read. */
export interface ByteSource {
  size: number;
  read(into: Uint8Array, position: number): number;
}

/** A file as a ByteSource; `close` when done. */
export function fileSource(path: string): ByteSource & { close(): void } {
  const fd = openSync(path, "r");
  return {
    size: fstatSync(fd).size,
    read: (into, position) => readSync(fd, into, 0, into.length, position),
    close: () => closeSync(fd),
  };
}

export interface ChunkedReadOptions {
  /** bytes read at a time (default 4 MiB); the buffer grows only for a record longer than this */
  chunkBytes?: number;
  /** records per batch (default 65,536: a bundle record batch) */
  batchRows?: number;
  /** each batch of `cols.n` decoded records, in order; the columns are emptied and reused once it returns */
  onBatch(cols: RecordColumns, clock: TraceClock, start: TraceStart): void;
}

export interface ChunkedTrace {
  start: TraceStart;
  end: TraceEnd;
  /** records kept (the rows the batches held) */
  records: number;
}

/** Reads a method trace from `src` chunk by chunk; throws like readMethodTrace when it is not one. */
export function readMethodTraceChunks(src: ByteSource, options: ChunkedReadOptions): ChunkedTrace {
  let buf = new Uint8Array(Math.max(64, options.chunkBytes ?? 4 << 20));
  let base = 0; // file offset of buf[0]
  let len = 0; // bytes of buf holding the file
  let eof = false;
  const fill = () => {
    while (len < buf.length && !eof) {
      const got = base + len < src.size ? src.read(buf.subarray(len), base + len) : 0;
      if (got <= 0) eof = true;
      len += Math.max(0, got);
    }
  };
  const grow = () => {
    const bigger = new Uint8Array(buf.length * 2);
    bigger.set(buf.subarray(0, len));
    buf = bigger;
  };
  const window = () => ({ bytes: buf.subarray(0, len), base, final: eof });
  fill();
  let t = startTrace(window());
  for (; !t; t = startTrace(window())) (grow(), fill());
  // A streaming trace names its clock in the summary at its end: peeked first, for the batches' columns.
  const clock = t.clock ?? peekStreamingClock(src, t);
  const cols = recordColumns(t, options.batchRows ?? 65_536);
  let records = 0;
  const flush = () => {
    if (cols.n === 0) return;
    checkBatch(t, cols);
    records += cols.n;
    options.onBatch(cols, clock, t);
    cols.reset();
  };
  let p = t.header.dataStart;
  let partial = false;
  for (;;) {
    const step = decodeRecords(t, window(), p, cols);
    p = step.p;
    if (step.stop === "full") flush();
    else if (step.stop === "more") {
      // Keep the unread bytes (a record cut by the chunk's end), then read on after them.
      const keep = Math.max(0, len - p);
      buf.copyWithin(0, len - keep, len);
      base += len - keep;
      p -= len - keep;
      len = keep;
      if (len === buf.length) grow();
      fill();
    } else {
      partial = step.stop === "partial";
      break;
    }
  }
  flush();
  const end = endTrace(t, cols, records, partial);
  if (end.clock !== clock) {
    end.warnings.push(
      `the summary at the end says clock ${end.clock}, but its records were read as ${clock} (the summary looked for first was another)`,
    );
    end.partial = true;
  }
  return { start: t, end, records };
}

/**
 * A streaming trace's clock from its summary (trace.cc kOpTraceSummary: thread id 0, op 3, u4 length, then
 * the key text to the end of the file), found from the file's end; as the reader would decide without one.
 */
function peekStreamingClock(src: ByteSource, t: TraceStart): TraceClock {
  const tail = new Uint8Array(Math.min(src.size, 1 << 20));
  const from = src.size - tail.length;
  let got = 0;
  while (got < tail.length) {
    const n = src.read(tail.subarray(got), from + got);
    if (n <= 0) break;
    got += n;
  }
  const view = new DataView(tail.buffer, 0, got);
  let text: string | undefined;
  for (let q = got - 7; q >= 0; q--) {
    if (tail[q] !== 0 || tail[q + 1] !== 0 || tail[q + 2] !== 3) continue;
    if (from + q + 7 + view.getUint32(q + 3, true) !== src.size || from + q < t.header.dataStart) continue;
    text = parseKey(new TextDecoder().decode(tail.subarray(q + 7, got)), from + q + 7).properties.clock;
    break;
  }
  return decideClock(text, t.times === 2, []);
}
