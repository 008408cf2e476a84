// The decoding shared by the whole-buffer reader (method-trace.ts) and the chunked one (method-trace-file.ts):
// the start of a trace (key section or streaming data header), records decoded window by window into
// column batches, and the end (definitions merged, clock decided, sanity checks). A window is any stretch of
// the file; a record that runs past a window's end is left for the next one.
// Format: AOSP art runtime/trace.cc (writer) and tools/dmtracedump (reader); docs/method-trace-format.md.
import type { TraceClock, TraceMethod } from "./method-trace";
import { ClockCheck, MethodCounts, traceChecks } from "./method-trace-checks";
import {
  checkExtendedSize,
  DeltaState,
  extendedRecordSize,
  minimumRecordSize,
  readExtendedLayout,
  readExtendedRecords,
  type ExtendedLayout,
} from "./method-trace-extended";
import { describeBytes, findKeyEnd, parseKey, startsWith, type Key } from "./method-trace-key";
import {
  MAGIC,
  RecordColumns,
  readHeader,
  readStandardRecords,
  type Header,
  type Step,
  type Streaming,
  type Window,
} from "./method-trace-records";

/** What the start of a trace says: its layout, and the state its records are decoded with. */
export interface TraceStart {
  /** the key section; null for the streaming layout until its summary is read */
  key: Key | null;
  header: Header;
  streaming: boolean;
  /** decided from the key before the records; streaming traces decide it at the end */
  clock: TraceClock | null;
  times: 1 | 2;
  extended: ExtendedLayout | null;
  /** bytes per record when records sit back to back (so record i's offset is known), else 0 */
  recordSize: number;
  /** the smallest record: how many records the bytes after the header can hold at most */
  minimumRecord: number;
  warnings: string[];
  s: Streaming | null;
  deltas: DeltaState | null;
  clocks: ClockCheck;
  methodCounts: MethodCounts;
}

/**
 * The trace's start from the first bytes of the file (window base 0), or null when the window ends before
 * the data header does and is not the whole file. Throws naming what the bytes look like when they are not
 * a method trace.
 */
export function startTrace(w: Window): TraceStart | null {
  const bytes = w.bytes;
  if (bytes.length === 0) {
    if (!w.final) return null;
    throw new Error("method trace: empty file");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 4 && view.getUint32(0, true) === MAGIC) {
    if (!w.final && !holdsHeader(bytes, 0)) return null;
    return startStreaming(bytes, view);
  }
  if (!startsWith(bytes, 0, "*version")) {
    // What the bytes look like is told from up to 64 KiB of them (a Perfetto packet's length, say).
    if (!w.final && bytes.length < 1 << 16) return null;
    throw new Error(`not a method trace: ${describeBytes(bytes, 0)}`);
  }
  const end = findKeyEnd(bytes);
  if (end < 0) {
    if (!w.final) return null;
    throw new Error(`method trace: key section has no *end line (file ends at byte ${bytes.length})`);
  }
  const headerAt = end + "*end\n".length;
  if (!w.final && !holdsHeader(bytes, headerAt)) return null;
  const key = parseKey(new TextDecoder().decode(bytes.subarray(0, end)), 0);
  const warnings = [...key.warnings];
  const header = readHeader(bytes, view, headerAt);
  if (header.streaming)
    throw new Error(
      `method trace: data header at byte ${headerAt} has streaming version 0x${header.version.toString(16)} after a key section`,
    );
  const x = (header.extended = readExtendedLayout(bytes, view, header));
  const common = { key, header, streaming: false, extended: x, warnings, s: null };
  const checks = { clocks: new ClockCheck(), methodCounts: new MethodCounts() };
  if (x) {
    // The key's clock line decides; without one, a fixed record size with room for two times means dual.
    const text = key.properties.clock;
    const canHoldTwo =
      text !== undefined ||
      (!x.compact && x.declaredSize >= extendedRecordSize(2, x.heap, x.counters.length));
    const clock = decideClock(text, canHoldTwo, warnings);
    const times = clock === "dual" ? 2 : 1;
    checkExtendedSize(header, x, times);
    const minimumRecord = minimumRecordSize(x, times);
    const deltas = x.compact ? new DeltaState(times + (x.heap ? 3 : 0), x.counters.length) : null;
    const recordSize = x.compact ? 0 : minimumRecord;
    return { ...common, ...checks, clock, times, recordSize, minimumRecord, deltas };
  }
  const clock = decideClock(
    key.properties.clock,
    header.recordSize >= ((header.version & 0x0f) === 1 ? 13 : 14),
    warnings,
  );
  const size = header.recordSize;
  const times = clock === "dual" ? 2 : 1;
  return { ...common, ...checks, clock, times, recordSize: size, minimumRecord: size, deltas: null };
}

/** True when the bytes reach past the data header at `at` (its length field, and the header it counts). */
function holdsHeader(bytes: Uint8Array, at: number): boolean {
  if (at + 32 > bytes.length) return false;
  const length = bytes[at + 6]! | (bytes[at + 7]! << 8);
  return at + length <= bytes.length;
}

function startStreaming(bytes: Uint8Array, view: DataView): TraceStart {
  const header = readHeader(bytes, view, 0);
  if (!header.streaming)
    throw new Error(
      `method trace: data header at byte 0 (version ${header.version}) without a key section before it`,
    );
  readExtendedLayout(bytes, view, header); // throws: extended records are not defined for streaming traces
  // The clock line comes with the summary at the end: the record size says whether there are two times.
  const times = header.recordSize >= 14 ? 2 : 1;
  return {
    key: null,
    header,
    streaming: true,
    clock: null,
    times,
    extended: null,
    recordSize: 0,
    minimumRecord: header.recordSize,
    warnings: [],
    s: { threads: new Map(), methods: [], summary: null, damaged: false },
    deltas: null,
    clocks: new ClockCheck(),
    methodCounts: new MethodCounts(),
  };
}

/** Columns for `capacity` records of this trace. */
export function recordColumns(t: TraceStart, capacity: number): RecordColumns {
  return new RecordColumns(capacity, t.times, t.extended);
}

/** Decodes records from window offset `from` until the window ends or `cols` is full. */
export function decodeRecords(t: TraceStart, w: Window, from: number, cols: RecordColumns): Step {
  if (t.extended)
    return readExtendedRecords(w, from, {
      h: t.header,
      x: t.extended,
      times: t.times,
      cols,
      warnings: t.warnings,
      deltas: t.deltas!,
    });
  return readStandardRecords(w, from, t.header, cols, t.warnings, t.s);
}

/** Runs the trace-wide checks over a batch of decoded records, before the batch is emptied. */
export function checkBatch(t: TraceStart, cols: RecordColumns): void {
  t.clocks.scan(cols);
  t.methodCounts.add(cols.methodId, cols.n);
}

/** The whole trace's description once every record is decoded: key, clock, warnings, partial. */
export interface TraceEnd {
  key: Key;
  clock: TraceClock;
  warnings: string[];
  partial: boolean;
}

export function endTrace(t: TraceStart, cols: RecordColumns, records: number, partial: boolean): TraceEnd {
  const { header, warnings } = t;
  let key: Key;
  let clock: TraceClock;
  if (t.s) {
    const s = t.s;
    const summary = s.summary ?? {
      version: header.version & 0x0f,
      properties: {},
      threads: [],
      methods: [],
      warnings: [],
    };
    // Inline definitions come first; the summary's thread list adds names of threads seen before it was taken.
    const threads = new Map(s.threads);
    for (const th of summary.threads) if (!threads.has(th.id)) threads.set(th.id, th.name);
    const methods = new Map<number, TraceMethod>();
    for (const m of [...summary.methods, ...s.methods]) methods.set(m.id, m);
    clock = decideClock(summary.properties.clock, t.times === 2, warnings);
    key = {
      ...summary,
      threads: [...threads].map(([id, name]) => ({ id, name })),
      methods: [...methods.values()],
    };
  } else {
    key = t.key!;
    clock = t.clock!;
  }
  const fixed = t.recordSize > 0 && cols.badActions === 0;
  const checks = traceChecks(
    { clocks: t.clocks, n: records, badActions: cols.badActions },
    key.properties,
    (i) => (fixed ? header.dataStart + i * t.recordSize : -1),
  );
  warnings.push(...checks.warnings);
  partial ||= checks.partial;
  if (cols.badActions)
    warnings.push(
      `${cols.badActions} records with action 3 (not enter/exit/unwind) skipped, the first at byte ${cols.firstBad}`,
    );
  const unknown = t.methodCounts.unknown(new Set(key.methods.map((m) => m.id)));
  if (unknown) warnings.push(`${unknown} records name a method id not in the method list`);
  return { key, clock, warnings, partial };
}

/** The clock from the key's clock line, checked against what the records can hold. */
export function decideClock(text: string | undefined, canHoldTwo: boolean, warnings: string[]): TraceClock {
  if (text === "dual") {
    if (canHoldTwo) return "dual";
    warnings.push("clock=dual, but the records hold one time: read as thread-cpu");
    return "thread-cpu";
  }
  if (text === "wall" || text === "thread-cpu") return text;
  // Dalvik's v1 traces have no clock line and record thread CPU time (dalvik vm/Profile.c).
  const clock = canHoldTwo ? "dual" : "thread-cpu";
  if (text !== undefined) warnings.push(`unknown clock=${text}, read as ${clock}`);
  return clock;
}
