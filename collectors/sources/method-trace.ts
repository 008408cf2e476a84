// Reader for Android method trace files (Debug.startMethodTracing, `am profile`): the Dalvik/ART
// "dmtrace" format (key text, then a binary data section) and ART's streaming format (data version
// 0xF3: binary first, thread and method definitions inline, the key summary at the end).
// Format: AOSP art runtime/trace.cc (writer) and tools/dmtracedump (reader); AndroScope §IV.
// Streaming over the bytes: only the key text is decoded; records are read with a DataView.
import type { Table } from "apache-arrow";
import { makeBundleTable, type ColumnValues } from "../../bundle/table-builder";

export type TraceClock = "thread-cpu" | "wall" | "dual";
export type TraceAction = "enter" | "exit" | "unwind";

export interface TraceThread {
  id: number;
  name: string;
}

export interface TraceMethod {
  id: number;
  className: string;
  methodName: string;
  signature: string;
  sourceFile?: string;
  line?: number;
}

/** The records as typed arrays (same rows as `events`), for analyses that walk them in order. */
export interface TraceRecords {
  threadId: Int32Array;
  methodId: Float64Array;
  /** 0 enter, 1 exit, 2 unwind */
  action: Uint8Array;
  /** ns since trace start; null when the clock has no wall time */
  wall: Float64Array | null;
  /** thread CPU ns since the thread's first record; null when the clock has no thread-CPU time */
  threadCpu: Float64Array | null;
}

export interface ReadMethodTraceOptions {
  /** run id written into the tables; default "trace" */
  runId?: string;
}

export interface MethodTrace {
  /** run id of `events` (and of the calls built from it) */
  runId?: string;
  /** key section version (*version line) */
  version: number;
  /** data section version (1, 2, 3; 0xF2/0xF3 for streaming) */
  dataVersion: number;
  streaming: boolean;
  clock: TraceClock;
  /** wall-clock start of tracing, µs since the epoch (data header) */
  startTimeUs: number;
  /** key=value lines of the key section (vm, pid, elapsed-time-usec, ...) */
  properties: Record<string, string>;
  threads: TraceThread[];
  methods: TraceMethod[];
  /** method_events table, run id `runId` ("trace" unless given) */
  events: Table;
  records: TraceRecords;
  /** true when the data ended early or could not all be read; warnings say where */
  partial: boolean;
  warnings: string[];
}

const MAGIC = 0x574f4c53; // "SLOW" little-endian
const ACTIONS: TraceAction[] = ["enter", "exit", "unwind"];
const OP_NEW_METHOD = 1;
const OP_NEW_THREAD = 2;
const OP_SUMMARY = 3;

/** Reads a method trace; throws an Error naming what the bytes look like when they are not one. */
export function readMethodTrace(bytes: Uint8Array, options: ReadMethodTraceOptions = {}): MethodTrace {
  const runId = options.runId ?? "trace";
  if (bytes.length === 0) throw new Error("method trace: empty file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 4 && view.getUint32(0, true) === MAGIC) return readStreaming(bytes, view, runId);
  if (!startsWith(bytes, 0, "*version")) throw new Error(`not a method trace: ${describeBytes(bytes, 0)}`);
  const end = findKeyEnd(bytes);
  if (end < 0) throw new Error(`method trace: key section has no *end line (file ends at byte ${bytes.length})`);
  const key = parseKey(new TextDecoder().decode(bytes.subarray(0, end)), 0);
  const headerAt = end + "*end\n".length;
  const warnings = [...key.warnings];
  const header = readHeader(bytes, view, headerAt);
  if (header.streaming)
    throw new Error(`method trace: data header at byte ${headerAt} has streaming version 0x${header.version.toString(16)} after a key section`);
  const sink = new RecordSink(Math.max(0, Math.floor((bytes.length - header.dataStart) / header.recordSize)));
  const partial = readRecords(bytes, view, header, sink, warnings, null);
  return finish(key, header, sink, warnings, partial, false, runId);
}

interface Header {
  version: number;
  streaming: boolean;
  dataStart: number;
  recordSize: number;
  startTimeUs: number;
}

function readHeader(bytes: Uint8Array, view: DataView, at: number): Header {
  if (at + 16 > bytes.length)
    throw new Error(`method trace: data header at byte ${at} is cut short (file ends at byte ${bytes.length})`);
  const magic = view.getUint32(at, true);
  if (magic !== MAGIC)
    throw new Error(`method trace: expected data header magic "SLOW" at byte ${at}, found ${describeBytes(bytes, at)}`);
  const version = view.getUint16(at + 4, true);
  const base = version & 0x0f;
  const streaming = (version & 0xf0) === 0xf0;
  if ((version & ~0xff) !== 0 || (version & 0xf0 && !streaming) || base < 1 || base > 3)
    throw new Error(
      `method trace: data header at byte ${at}: version ${version} is not 1, 2, 3 or streaming 0xF2/0xF3; ` +
        `the data section looks like ${describeBytes(bytes, at)}`,
    );
  const offset = view.getUint16(at + 6, true);
  if (offset < 16) throw new Error(`method trace: data header at byte ${at}: header length ${offset} is below 16`);
  const startTimeUs = Number(view.getBigUint64(at + 8, true));
  let recordSize = base === 1 ? 9 : 10;
  if (base >= 3 && at + 18 <= bytes.length) {
    const declared = view.getUint16(at + 16, true);
    if (declared !== 0) recordSize = declared;
  }
  const minimum = base === 1 ? 9 : 10;
  if (recordSize < minimum)
    throw new Error(`method trace: data header at byte ${at}: record size ${recordSize} is below ${minimum}`);
  return { version, streaming, dataStart: at + offset, recordSize, startTimeUs };
}

/** Growable columns of raw records: thread, method|action word, and up to two 32-bit µs times. */
class RecordSink {
  n = 0;
  tid: Int32Array;
  word: Uint32Array;
  t1: Uint32Array;
  t2: Uint32Array;
  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.tid = new Int32Array(c);
    this.word = new Uint32Array(c);
    this.t1 = new Uint32Array(c);
    this.t2 = new Uint32Array(c);
  }
  push(tid: number, word: number, t1: number, t2: number) {
    if (this.n === this.tid.length) this.grow();
    const i = this.n++;
    this.tid[i] = tid;
    this.word[i] = word;
    this.t1[i] = t1;
    this.t2[i] = t2;
  }
  private grow() {
    const c = this.tid.length * 2;
    const g = <T extends Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.tid = g(this.tid, (n) => new Int32Array(n));
    this.word = g(this.word, (n) => new Uint32Array(n));
    this.t1 = g(this.t1, (n) => new Uint32Array(n));
    this.t2 = g(this.t2, (n) => new Uint32Array(n));
  }
}

interface Streaming {
  threads: Map<number, string>;
  methods: TraceMethod[];
  summary: Key | null;
}

/** Reads records from header.dataStart; returns true when the data ended early (partial). */
function readRecords(
  bytes: Uint8Array,
  view: DataView,
  header: Header,
  sink: RecordSink,
  warnings: string[],
  streaming: Streaming | null,
): boolean {
  const size = header.recordSize;
  const wide = (header.version & 0x0f) !== 1; // v1: 1-byte thread ids
  const dual = size >= (wide ? 14 : 13);
  const end = bytes.length;
  let p = header.dataStart;
  if (p > end) {
    warnings.push(`data header says records start at byte ${p}, past the end of the file (byte ${end})`);
    return true;
  }
  let badActions = 0;
  let firstBad = -1;
  while (p < end) {
    if (streaming && p + 2 <= end && view.getUint16(p, true) === 0) {
      // Thread id 0 marks a definition or the summary (trace.cc kOpNewMethod/kOpNewThread/kOpTraceSummary).
      const r = readSpecial(bytes, view, p, streaming, warnings);
      if (r < 0) return true;
      if (r === 0) return false; // summary: end of records
      p = r;
      continue;
    }
    if (p + size > end) {
      warnings.push(`data cut short at byte ${p}: ${end - p} bytes left, a record takes ${size}`);
      return true;
    }
    const tid = wide ? view.getUint16(p, true) : bytes[p]!;
    const q = p + (wide ? 2 : 1);
    const word = view.getUint32(q, true);
    if ((word & 3) === 3) {
      badActions++;
      if (firstBad < 0) firstBad = p;
    } else {
      sink.push(tid, word, view.getUint32(q + 4, true), dual ? view.getUint32(q + 8, true) : 0);
    }
    p += size;
  }
  if (badActions) warnings.push(`${badActions} records with action 3 (not enter/exit/unwind) skipped, the first at byte ${firstBad}`);
  if (streaming) {
    warnings.push(`streaming trace ends at byte ${end} without its summary`);
    return true;
  }
  return false;
}

/** A streaming special record at p: the offset after it, 0 after the summary, -1 when cut short or unknown. */
function readSpecial(bytes: Uint8Array, view: DataView, p: number, s: Streaming, warnings: string[]): number {
  const end = bytes.length;
  const cut = (what: string) => {
    warnings.push(`data cut short at byte ${p}: ${what} record does not fit in the ${end - p} bytes left`);
    return -1;
  };
  if (p + 3 > end) return cut("special");
  const op = bytes[p + 2];
  const text = (from: number, len: number) => new TextDecoder().decode(bytes.subarray(from, from + len));
  if (op === OP_NEW_METHOD) {
    if (p + 5 > end) return cut("method");
    const len = view.getUint16(p + 3, true);
    if (p + 5 + len > end) return cut("method");
    const m = parseMethodLine(text(p + 5, len).replace(/\n$/, ""));
    if (m) s.methods.push(m);
    else warnings.push(`byte ${p}: unreadable method definition`);
    return p + 5 + len;
  }
  if (op === OP_NEW_THREAD) {
    if (p + 7 > end) return cut("thread");
    const len = view.getUint16(p + 5, true);
    if (p + 7 + len > end) return cut("thread");
    s.threads.set(view.getUint16(p + 3, true), text(p + 7, len));
    return p + 7 + len;
  }
  if (op === OP_SUMMARY) {
    if (p + 7 > end) return cut("summary");
    const len = view.getUint32(p + 3, true);
    if (p + 7 + len > end) return cut("summary");
    s.summary = parseKey(text(p + 7, len), p + 7);
    warnings.push(...s.summary.warnings);
    return 0;
  }
  warnings.push(`byte ${p}: unknown streaming record type ${op} (expected 1 method, 2 thread, 3 summary); reading stopped`);
  return -1;
}

function readStreaming(bytes: Uint8Array, view: DataView, runId: string): MethodTrace {
  const header = readHeader(bytes, view, 0);
  if (!header.streaming)
    throw new Error(`method trace: data header at byte 0 (version ${header.version}) without a key section before it`);
  const warnings: string[] = [];
  const s: Streaming = { threads: new Map(), methods: [], summary: null };
  const sink = new RecordSink(Math.floor(bytes.length / header.recordSize));
  const partial = readRecords(bytes, view, header, sink, warnings, s);
  const key: Key = s.summary ?? { version: header.version & 0x0f, properties: {}, threads: [], methods: [], warnings: [] };
  // Inline definitions come first; the summary's thread list adds names of threads seen before it was taken.
  const threads = new Map(s.threads);
  for (const t of key.threads) if (!threads.has(t.id)) threads.set(t.id, t.name);
  const methods = new Map<number, TraceMethod>();
  for (const m of [...key.methods, ...s.methods]) methods.set(m.id, m);
  return finish(
    { ...key, threads: [...threads].map(([id, name]) => ({ id, name })), methods: [...methods.values()] },
    header,
    sink,
    warnings,
    partial,
    true,
    runId,
  );
}

function finish(
  key: Key,
  header: Header,
  sink: RecordSink,
  warnings: string[],
  partial: boolean,
  streaming: boolean,
  runId: string,
): MethodTrace {
  const clockText = key.properties.clock;
  let clock: TraceClock;
  if (clockText === "dual" || clockText === "wall" || clockText === "thread-cpu") clock = clockText;
  else {
    // Dalvik's v1 traces have no clock line and record thread CPU time (dalvik vm/Profile.c).
    clock = header.recordSize >= ((header.version & 0x0f) === 1 ? 13 : 14) ? "dual" : "thread-cpu";
    if (clockText !== undefined) warnings.push(`unknown clock=${clockText}, read as ${clock}`);
  }
  const n = sink.n;
  const threadId = sink.tid.slice(0, n);
  const methodId = new Float64Array(n);
  const action = new Uint8Array(n);
  const actionIndex = new Int32Array(n);
  const hasCpu = clock !== "wall";
  const hasWall = clock !== "thread-cpu";
  const cpu = hasCpu ? new Float64Array(n) : null;
  const wall = hasWall ? new Float64Array(n) : null;
  // int64 columns written as 32-bit word pairs in the same pass (no BigInt per value; little-endian).
  const methodNs = new BigInt64Array(n);
  const cpuNs = hasCpu ? new BigInt64Array(n) : null;
  const wallNs = hasWall ? new BigInt64Array(n) : null;
  const mW = new Uint32Array(methodNs.buffer);
  const cW = cpuNs ? new Uint32Array(cpuNs.buffer) : null;
  const wW = wallNs ? new Uint32Array(wallNs.buffer) : null;
  const known = new Set(key.methods.map((m) => m.id));
  let unknown = 0;
  let lastKnown = -1;
  const dual = clock === "dual";
  for (let i = 0; i < n; i++) {
    const w = sink.word[i]!;
    const a = w & 3;
    action[i] = a;
    actionIndex[i] = a;
    const id = w - a; // low 2 bits hold the action; the key lists ids with them clear
    methodId[i] = id;
    mW[2 * i] = id;
    if (id !== lastKnown) {
      if (known.has(id)) lastKnown = id;
      else unknown++;
    }
    // Dual-clock records hold thread-CPU then wall time (trace.cc EncodeEventEntry), µs.
    const t1 = sink.t1[i]! * 1000;
    const t2 = dual ? sink.t2[i]! * 1000 : t1;
    if (cpu) {
      cpu[i] = t1;
      cW![2 * i] = t1 % 4294967296;
      cW![2 * i + 1] = Math.floor(t1 / 4294967296);
    }
    if (wall) {
      wall[i] = t2;
      wW![2 * i] = t2 % 4294967296;
      wW![2 * i + 1] = Math.floor(t2 / 4294967296);
    }
  }
  if (unknown) warnings.push(`${unknown} records name a method id not in the method list`);
  const columns: Record<string, ColumnValues> = {
    thread_id: threadId,
    method_id: methodNs,
    action: { dictionary: ACTIONS, indices: actionIndex },
  };
  if (wallNs) columns.wall = wallNs;
  if (cpuNs) columns.thread_cpu = cpuNs;
  const events = makeBundleTable("method_events", runId, columns, n);
  return {
    runId,
    version: key.version,
    dataVersion: header.version,
    streaming,
    clock,
    startTimeUs: header.startTimeUs,
    properties: key.properties,
    threads: key.threads,
    methods: key.methods,
    events,
    records: { threadId, methodId, action, wall, threadCpu: cpu },
    partial,
    warnings,
  };
}

interface Key {
  version: number;
  properties: Record<string, string>;
  threads: TraceThread[];
  methods: TraceMethod[];
  warnings: string[];
}

/** Parses the key text (*version, key=value lines, *threads, *methods, *end); `at` is its byte offset. */
function parseKey(text: string, at: number): Key {
  const key: Key = { version: 0, properties: {}, threads: [], methods: [], warnings: [] };
  let section = "";
  let lineNo = 0;
  for (const raw of text.split("\n")) {
    lineNo++;
    const line = raw.replace(/\r$/, "");
    if (line.startsWith("*")) {
      section = line.slice(1);
      if (section === "end") break;
      continue;
    }
    if (line === "") continue;
    const where = `key section (byte ${at}) line ${lineNo}`;
    if (section === "version") {
      if (/^\d+$/.test(line) && key.version === 0) key.version = Number(line);
      else {
        const eq = line.indexOf("=");
        if (eq > 0) key.properties[line.slice(0, eq)] = line.slice(eq + 1);
        else key.warnings.push(`${where}: unexpected ${JSON.stringify(line.slice(0, 40))}`);
      }
    } else if (section === "threads") {
      const tab = line.indexOf("\t");
      const id = Number(line.slice(0, tab));
      if (tab > 0 && Number.isInteger(id)) key.threads.push({ id, name: line.slice(tab + 1) });
      else key.warnings.push(`${where}: expected "<thread id>\\t<name>", got ${JSON.stringify(line.slice(0, 40))}`);
    } else if (section === "methods") {
      const m = parseMethodLine(line);
      if (m) key.methods.push(m);
      else key.warnings.push(`${where}: expected "<id>\\t<class>\\t<method>\\t<signature>", got ${JSON.stringify(line.slice(0, 60))}`);
    }
  }
  if (key.version === 0) key.warnings.push(`key section (byte ${at}): no version number after *version`);
  return key;
}

function parseMethodLine(line: string): TraceMethod | null {
  const f = line.split("\t");
  if (f.length < 4) return null;
  const id = Number(f[0]); // "0x62830738", or "0" (ART prints %#x)
  if (!Number.isInteger(id) || id < 0) return null;
  const m: TraceMethod = { id, className: f[1]!, methodName: f[2]!, signature: f[3]! };
  if (f[4] !== undefined && f[4] !== "") m.sourceFile = f[4];
  if (f[5] !== undefined && /^-?\d+$/.test(f[5])) m.line = Number(f[5]);
  return m;
}

/** Offset of the "*end" line that closes the key section, or -1. */
function findKeyEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = bytes.indexOf(0x2a); i >= 0 && i + 5 <= n; i = bytes.indexOf(0x2a, i + 1)) {
    if ((i === 0 || bytes[i - 1] === 0x0a) && startsWith(bytes, i, "*end\n")) return i;
  }
  return -1;
}

function startsWith(bytes: Uint8Array, at: number, s: string): boolean {
  if (at + s.length > bytes.length) return false;
  for (let i = 0; i < s.length; i++) if (bytes[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** A short description of what the bytes at `at` look like, for errors. */
export function describeBytes(bytes: Uint8Array, at: number): string {
  const head = bytes.subarray(at, at + 48);
  const hex = Array.from(head.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ");
  if (head[0] === 0x1f && head[1] === 0x8b)
    return `gzip-compressed data (magic 1f 8b at byte ${at}; a compressed systrace or a .gz saved as .trace? gunzip it first)`;
  if (head[0] === 0x50 && head[1] === 0x4b) return `a zip archive (magic "PK" at byte ${at})`;
  const printable = head.length > 0 && head.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  if (printable) {
    const s = new TextDecoder().decode(head);
    if (/^\s*#?\s*tracer:|TRACE:/.test(s)) return `systrace/ftrace text at byte ${at}: ${JSON.stringify(s)}`;
    return `text at byte ${at}: ${JSON.stringify(s)}`;
  }
  return `binary bytes at byte ${at}: ${hex}`;
}
