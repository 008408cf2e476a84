// The binary side of a method trace: the data header, and the records decoded straight into the final
// columns (one pass, no intermediate copy). Standard records and ART's streaming definitions are here;
// AndroScope's extended records are in method-trace-extended.ts. Layout: AOSP art runtime/trace.cc.
import type { TraceMethod } from "./method-trace";
import { describeBytes, parseKey, parseMethodLine, type Key } from "./method-trace-key";
import type { ExtendedLayout } from "./method-trace-extended";

export const MAGIC = 0x574f4c53; // "SLOW" little-endian
const OP_NEW_METHOD = 1;
const OP_NEW_THREAD = 2;
const OP_SUMMARY = 3;

export interface Header {
  at: number;
  version: number;
  streaming: boolean;
  dataStart: number;
  recordSize: number;
  startTimeUs: number;
  /** AndroScope extended records (header flags, bytes 18-19; see method-trace-extended.ts); null for standard ones */
  extended: ExtendedLayout | null;
}

/** Reads the data header at `at`; throws naming the offset when it is not one. */
export function readHeader(bytes: Uint8Array, view: DataView, at: number): Header {
  if (at + 16 > bytes.length)
    throw new Error(
      `method trace: data header at byte ${at} is cut short (file ends at byte ${bytes.length})`,
    );
  const magic = view.getUint32(at, true);
  if (magic !== MAGIC)
    throw new Error(
      `method trace: expected data header magic "SLOW" at byte ${at}, found ${describeBytes(bytes, at)}`,
    );
  const version = view.getUint16(at + 4, true);
  const base = version & 0x0f;
  const streaming = (version & 0xf0) === 0xf0;
  if ((version & ~0xff) !== 0 || (version & 0xf0 && !streaming) || base < 1 || base > 3)
    throw new Error(
      `method trace: data header at byte ${at}: version ${version} is not 1, 2, 3 or streaming 0xF2/0xF3; ` +
        `the data section looks like ${describeBytes(bytes, at)}`,
    );
  const offset = view.getUint16(at + 6, true);
  if (offset < 16)
    throw new Error(`method trace: data header at byte ${at}: header length ${offset} is below 16`);
  const startTimeUs = Number(view.getBigUint64(at + 8, true));
  let recordSize = base === 1 ? 9 : 10;
  if (base >= 3 && at + 18 <= bytes.length) {
    const declared = view.getUint16(at + 16, true);
    if (declared !== 0) recordSize = declared;
  }
  const minimum = base === 1 ? 9 : 10;
  if (recordSize < minimum)
    throw new Error(`method trace: data header at byte ${at}: record size ${recordSize} is below ${minimum}`);
  return { at, version, streaming, dataStart: at + offset, recordSize, startTimeUs, extended: null };
}

/**
 * The decoded records, in their final form: the method_events int64 columns and the typed arrays of
 * MethodTrace.records, written in one pass. `time1` is the first time of a record (thread CPU in dual
 * traces, else the only clock), `time2` the second (wall, dual traces only); which clock a single time
 * is becomes known at the end for streaming traces (the summary names it).
 */
export class RecordColumns {
  n = 0;
  readonly threadId: Int32Array;
  readonly action: Uint8Array;
  readonly methodId: Float64Array;
  readonly methodNs: BigInt64Array;
  readonly time1: Float64Array;
  readonly time1Ns: BigInt64Array;
  readonly time2: Float64Array | null;
  readonly time2Ns: BigInt64Array | null;
  /** AndroScope extended records: CPU id, heap size/allocated/objects, hardware counters */
  readonly cpuId: Int32Array | null;
  readonly heap: [Uint32Array, Uint32Array, Uint32Array] | null;
  readonly counters: Float64Array[];
  badActions = 0;
  firstBad = -1;

  constructor(capacity: number, times: 1 | 2, extended: ExtendedLayout | null) {
    const c = Math.max(0, capacity);
    this.threadId = new Int32Array(c);
    this.action = new Uint8Array(c);
    this.methodId = new Float64Array(c);
    this.methodNs = new BigInt64Array(c);
    this.time1 = new Float64Array(c);
    this.time1Ns = new BigInt64Array(c);
    this.time2 = times === 2 ? new Float64Array(c) : null;
    this.time2Ns = times === 2 ? new BigInt64Array(c) : null;
    this.cpuId = extended ? new Int32Array(c) : null;
    this.heap = extended?.heap ? [new Uint32Array(c), new Uint32Array(c), new Uint32Array(c)] : null;
    this.counters = (extended?.counters ?? []).map(() => new Float64Array(c));
  }

  get capacity(): number {
    return this.threadId.length;
  }

  /** Empties the columns for the next batch (the counts of skipped records carry on). */
  reset() {
    this.n = 0;
  }

  /** Notes a record with action 3 (not enter/exit/unwind), skipped. */
  skip(at: number) {
    this.badActions++;
    if (this.firstBad < 0) this.firstBad = at;
  }
}

/** µs (u32) as ns into a float column and an int64 column written as two 32-bit words (no BigInt per value). */
export function putTime(f: Float64Array, w: Uint32Array, i: number, us: number) {
  const ns = us * 1000;
  f[i] = ns;
  w[2 * i] = ns >>> 0; // ToUint32 is ns mod 2^32, exact for integers
  w[2 * i + 1] = (ns / 4294967296) | 0;
}

export interface Streaming {
  threads: Map<number, string>;
  methods: TraceMethod[];
  summary: Key | null;
  /** a definition whose length disagreed with its text: records after it may have been skipped */
  damaged: boolean;
}

/** Bytes of the file held at once: `bytes` is the file from byte `base`; `final` when it reaches the file's end. */
export interface Window {
  bytes: Uint8Array;
  base: number;
  final: boolean;
}

/**
 * Why a decoder returned: `more` bytes are needed past the window (never in a final one), the columns are
 * `full`, or the records `end` (cleanly, or `partial`: the data ended early or could not be read).
 */
export type Stop = "more" | "full" | "end" | "partial";

export interface Step {
  /** window offset where decoding stopped: the next record starts there */
  p: number;
  stop: Stop;
}

/** Reads standard records from window offset `from` into `cols` until the window ends or `cols` is full. */
export function readStandardRecords(
  w: Window,
  from: number,
  header: Header,
  cols: RecordColumns,
  warnings: string[],
  streaming: Streaming | null,
): Step {
  const { bytes, base, final } = w;
  const size = header.recordSize;
  const wide = (header.version & 0x0f) !== 1; // v1: 1-byte thread ids
  const dual = cols.time2 !== null;
  const end = bytes.length;
  let p = from;
  if (p > end) {
    if (!final) return { p, stop: "more" };
    warnings.push(
      `data header says records start at byte ${base + p}, past the end of the file (byte ${base + end})`,
    );
    return { p: end, stop: "partial" };
  }
  const { threadId, action, methodId, time1, time2 } = cols;
  const mW = new Uint32Array(cols.methodNs.buffer);
  const w1 = new Uint32Array(cols.time1Ns.buffer);
  const w2 = cols.time2Ns ? new Uint32Array(cols.time2Ns.buffer) : w1;
  const t2f = time2 ?? time1;
  const cap = cols.capacity;
  let n = cols.n;
  while (p < end) {
    if (streaming && p + 2 <= end && bytes[p] === 0 && bytes[p + 1] === 0) {
      // Thread id 0 marks a definition or the summary (trace.cc kOpNewMethod/kOpNewThread/kOpTraceSummary).
      const r = readSpecial(w, p, streaming, warnings);
      if (r === MORE) return ((cols.n = n), { p, stop: "more" });
      if (r < 0) return ((cols.n = n), { p, stop: "partial" });
      if (r === 0) return ((cols.n = n), { p, stop: streaming.damaged ? "partial" : "end" }); // the summary
      p = r;
      continue;
    }
    if (p + size > end) {
      if (!final) break;
      warnings.push(`data cut short at byte ${base + p}: ${end - p} bytes left, a record takes ${size}`);
      return ((cols.n = n), { p, stop: "partial" });
    }
    if (n === cap) return ((cols.n = n), { p, stop: "full" });
    let q = p;
    const tid = wide ? bytes[q]! | (bytes[q + 1]! << 8) : bytes[q]!;
    q += wide ? 2 : 1;
    const word = (bytes[q]! | (bytes[q + 1]! << 8) | (bytes[q + 2]! << 16) | (bytes[q + 3]! << 24)) >>> 0;
    const a = word & 3;
    if (a === 3) {
      cols.skip(base + p);
    } else {
      const i = n++;
      threadId[i] = tid;
      action[i] = a;
      const id = word - a; // low 2 bits hold the action; the key lists ids with them clear
      methodId[i] = id;
      mW[2 * i] = id;
      // Dual-clock records hold thread-CPU then wall time (trace.cc EncodeEventEntry), µs.
      const t1 = (bytes[q + 4]! | (bytes[q + 5]! << 8) | (bytes[q + 6]! << 16) | (bytes[q + 7]! << 24)) >>> 0;
      putTime(time1, w1, i, t1);
      if (dual) {
        const t2 =
          (bytes[q + 8]! | (bytes[q + 9]! << 8) | (bytes[q + 10]! << 16) | (bytes[q + 11]! << 24)) >>> 0;
        putTime(t2f, w2, i, t2);
      }
    }
    p += size;
  }
  cols.n = n;
  if (!final) return { p, stop: "more" };
  if (streaming) {
    warnings.push(`streaming trace ends at byte ${base + end} without its summary`);
    return { p, stop: "partial" };
  }
  return { p, stop: "end" };
}

/** readSpecial's answer when the record runs past a window that is not the file's end. */
const MORE = -2;

/** Offset of the "\n" ending the line of text that starts at `from` (tabs allowed; nothing past `to` + 4 KiB), -1
 * when there is none, MORE when the window ends before that is known. */
function lineEnd(w: Window, from: number, to: number): number {
  const bytes = w.bytes;
  const want = Math.max(to, from + 1) + 4096;
  const limit = Math.min(bytes.length, want);
  for (let q = from; q < limit; q++) {
    const b = bytes[q]!;
    if (b === 0x0a) return q > from ? q : -1;
    if (b < 0x20 && b !== 0x09) return -1;
    if (b === 0x7f) return -1;
  }
  return limit < want && !w.final ? MORE : -1;
}

function printable(bytes: Uint8Array, from: number, to: number): boolean {
  for (let q = from; q < to; q++) if (bytes[q]! < 0x20 || bytes[q] === 0x7f) return false;
  return true;
}

/** A streaming special record at p: the offset after it, 0 after the summary, -1 when cut short or unknown,
 * MORE when it runs past a window that is not the file's end. */
function readSpecial(w: Window, p: number, s: Streaming, warnings: string[]): number {
  const { bytes, base } = w;
  const end = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cut = (what: string) => {
    if (!w.final) return MORE;
    warnings.push(
      `data cut short at byte ${base + p}: ${what} record does not fit in the ${end - p} bytes left`,
    );
    return -1;
  };
  if (p + 3 > end) return cut("special");
  const op = bytes[p + 2];
  const text = (from: number, len: number) => new TextDecoder().decode(bytes.subarray(from, from + len));
  if (op === OP_NEW_METHOD) {
    if (p + 5 > end) return cut("method");
    const len = view.getUint16(p + 3, true);
    if (p + 5 + len > end) return cut("method");
    // ART writes one "\n"-terminated line of text (trace.cc GetMethodLine): a line ending elsewhere, or
    // control bytes in it, mean the length field is corrupt and reading on from it would skip records.
    const line = lineEnd(w, p + 5, p + 5 + len);
    if (line === MORE) return MORE;
    if (line !== p + 5 + len - 1) {
      s.damaged = true;
      if (line < 0) {
        warnings.push(
          `byte ${base + p}: method definition of length ${len} holds no line of text (length corrupt); reading stopped`,
        );
        return -1;
      }
      warnings.push(
        `byte ${base + p}: method definition says ${len} bytes but its line ends after ${line + 1 - (p + 5)} (length corrupt); read on from byte ${base + line + 1}`,
      );
    }
    const m = parseMethodLine(text(p + 5, line - (p + 5)));
    if (m) s.methods.push(m);
    else warnings.push(`byte ${base + p}: unreadable method definition`);
    return line + 1;
  }
  if (op === OP_NEW_THREAD) {
    if (p + 7 > end) return cut("thread");
    const len = view.getUint16(p + 5, true);
    if (p + 7 + len > end) return cut("thread");
    if (!printable(bytes, p + 7, p + 7 + len)) {
      s.damaged = true;
      warnings.push(
        `byte ${base + p}: thread definition of length ${len} holds control bytes, not a name (length corrupt); reading stopped`,
      );
      return -1;
    }
    s.threads.set(view.getUint16(p + 3, true), text(p + 7, len));
    return p + 7 + len;
  }
  if (op === OP_SUMMARY) {
    if (p + 7 > end) return cut("summary");
    const len = view.getUint32(p + 3, true);
    if (p + 7 + len > end) return cut("summary");
    s.summary = parseKey(text(p + 7, len), base + p + 7);
    warnings.push(...s.summary.warnings);
    return 0;
  }
  warnings.push(
    `byte ${base + p}: unknown streaming record type ${op} (expected 1 method, 2 thread, 3 summary); reading stopped`,
  );
  return -1;
}
