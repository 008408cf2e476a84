// Reader for Android method trace files (Debug.startMethodTracing, `am profile`): the Dalvik/ART
// "dmtrace" format (key text, then a binary data section) and ART's streaming format (data version
// 0xF3: binary first, thread and method definitions inline, the key summary at the end).
// Format: AOSP art runtime/trace.cc (writer) and tools/dmtracedump (reader); AndroScope §IV.
// Streaming over the bytes: only the key text is decoded; records go straight into their final columns.
// AndroScope's extended records (CPU id, heap, hardware counters, EBV-8 compact deltas; §IV-5/6) are read
// when the v3 data header's flags say so: see method-trace-extended.ts and docs/method-trace-format.md.
// Where the extended values go: CPU id -> method_events.cpu and records.cpu; heap allocated ->
// method_events.heap_bytes; counters named cycles/instructions -> method_events.cycles/instructions;
// every heap value and counter -> records.heap/records.counters, and heap_samples/hpc_samples rows
// through traceSamples() in method-trace-samples.ts.
import type { Table } from "apache-arrow";
import { makeBundleTable, type ColumnValues } from "../../bundle/table-builder";
import {
  checkExtendedSize,
  extendedRecordSize,
  minimumRecordSize,
  readExtendedLayout,
  readExtendedRecords,
} from "./method-trace-extended";
import { traceChecks } from "./method-trace-checks";
import { describeBytes, findKeyEnd, parseKey, startsWith, type Key } from "./method-trace-key";
import {
  MAGIC,
  RecordColumns,
  readHeader,
  readStandardRecords,
  type Header,
  type Streaming,
} from "./method-trace-records";

export { describeBytes } from "./method-trace-key";

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

/** The records as typed arrays (same rows as `events`), for analyses that walk them in order. Read-only:
 * threadId, action and cpu are the memory of events' thread_id, action and cpu columns. */
export interface TraceRecords {
  threadId: Int32Array;
  methodId: Float64Array;
  /** 0 enter, 1 exit, 2 unwind */
  action: Uint8Array;
  /** ns since trace start; null when the clock has no wall time */
  wall: Float64Array | null;
  /** thread CPU ns since the thread's first record; null when the clock has no thread-CPU time */
  threadCpu: Float64Array | null;
  /** CPU id of each record (AndroScope extended records); null or absent otherwise */
  cpu?: Int32Array | null;
  /** heap size, allocated bytes and object count at each record (extended records with heap values) */
  heap?: { size: Uint32Array; allocated: Uint32Array; objects: Uint32Array } | null;
  /** hardware counters: the thread's running count at each record, in header order (extended records) */
  counters?: { name: string; values: Float64Array }[];
}

/** The extended layout a trace was recorded with (AndroScope §IV-6). */
export interface TraceExtended {
  /** data header flags: 0x1 extended, 0x2 heap, 0x4 compact */
  flags: number;
  heap: boolean;
  compact: boolean;
  counters: string[];
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
  /** AndroScope extended records: the header's layout; null for standard traces */
  extended: TraceExtended | null;
  /** true when the data ended early or could not all be read; warnings say where */
  partial: boolean;
  warnings: string[];
}

const ACTIONS: TraceAction[] = ["enter", "exit", "unwind"];

/** Reads a method trace; throws an Error naming what the bytes look like when they are not one. */
export function readMethodTrace(bytes: Uint8Array, options: ReadMethodTraceOptions = {}): MethodTrace {
  const runId = options.runId ?? "trace";
  if (bytes.length === 0) throw new Error("method trace: empty file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 4 && view.getUint32(0, true) === MAGIC) return readStreaming(bytes, view, runId);
  if (!startsWith(bytes, 0, "*version")) throw new Error(`not a method trace: ${describeBytes(bytes, 0)}`);
  const end = findKeyEnd(bytes);
  if (end < 0)
    throw new Error(`method trace: key section has no *end line (file ends at byte ${bytes.length})`);
  const key = parseKey(new TextDecoder().decode(bytes.subarray(0, end)), 0);
  const headerAt = end + "*end\n".length;
  const warnings = [...key.warnings];
  const header = readHeader(bytes, view, headerAt);
  if (header.streaming)
    throw new Error(
      `method trace: data header at byte ${headerAt} has streaming version 0x${header.version.toString(16)} after a key section`,
    );
  const x = (header.extended = readExtendedLayout(bytes, view, header));
  const room = Math.max(0, bytes.length - header.dataStart);
  if (x) {
    // The key's clock line decides; without one, a fixed record size with room for two times means dual.
    const text = key.properties.clock;
    const canHoldTwo =
      text !== undefined ||
      (!x.compact && x.declaredSize >= extendedRecordSize(2, x.heap, x.counters.length));
    const clock = decideClock(text, canHoldTwo, warnings);
    const times = clock === "dual" ? 2 : 1;
    checkExtendedSize(header, x, times);
    const cols = new RecordColumns(Math.floor(room / minimumRecordSize(x, times)), times, x);
    const partial = readExtendedRecords({ bytes, h: header, x, times, cols, warnings });
    const size = x.compact ? 0 : minimumRecordSize(x, times);
    return finish(key, header, cols, clock, warnings, partial, false, runId, size);
  }
  const clock = decideClock(
    key.properties.clock,
    header.recordSize >= ((header.version & 0x0f) === 1 ? 13 : 14),
    warnings,
  );
  const cols = new RecordColumns(Math.floor(room / header.recordSize), clock === "dual" ? 2 : 1, null);
  const partial = readStandardRecords(bytes, header, cols, warnings, null);
  return finish(key, header, cols, clock, warnings, partial, false, runId, header.recordSize);
}

/** The clock from the key's clock line, checked against what the records can hold. */
function decideClock(text: string | undefined, canHoldTwo: boolean, warnings: string[]): TraceClock {
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

function readStreaming(bytes: Uint8Array, view: DataView, runId: string): MethodTrace {
  const header = readHeader(bytes, view, 0);
  if (!header.streaming)
    throw new Error(
      `method trace: data header at byte 0 (version ${header.version}) without a key section before it`,
    );
  readExtendedLayout(bytes, view, header); // throws: extended records are not defined for streaming traces
  const warnings: string[] = [];
  const s: Streaming = { threads: new Map(), methods: [], summary: null, damaged: false };
  // The clock line comes with the summary at the end: the record size says whether there are two times.
  const two = header.recordSize >= 14;
  const cols = new RecordColumns(
    Math.floor(Math.max(0, bytes.length - header.dataStart) / header.recordSize),
    two ? 2 : 1,
    null,
  );
  const partial = readStandardRecords(bytes, header, cols, warnings, s);
  const key: Key = s.summary ?? {
    version: header.version & 0x0f,
    properties: {},
    threads: [],
    methods: [],
    warnings: [],
  };
  // Inline definitions come first; the summary's thread list adds names of threads seen before it was taken.
  const threads = new Map(s.threads);
  for (const t of key.threads) if (!threads.has(t.id)) threads.set(t.id, t.name);
  const methods = new Map<number, TraceMethod>();
  for (const m of [...key.methods, ...s.methods]) methods.set(m.id, m);
  const clock = decideClock(key.properties.clock, two, warnings);
  const merged = {
    ...key,
    threads: [...threads].map(([id, name]) => ({ id, name })),
    methods: [...methods.values()],
  };
  return finish(merged, header, cols, clock, warnings, partial, true, runId, 0);
}

function finish(
  key: Key,
  header: Header,
  cols: RecordColumns,
  clock: TraceClock,
  warnings: string[],
  partial: boolean,
  streaming: boolean,
  runId: string,
  /** bytes per record when records sit back to back (so record i's offset is known), else 0 */
  recordSize: number,
): MethodTrace {
  const n = cols.n;
  const fixed = recordSize > 0 && cols.badActions === 0;
  const checks = traceChecks(cols, key.properties, (i) => (fixed ? header.dataStart + i * recordSize : -1));
  warnings.push(...checks.warnings);
  partial ||= checks.partial;
  const cut = <T extends { subarray(a: number, b: number): T; length: number }>(a: T): T =>
    a.length === n ? a : a.subarray(0, n);
  if (cols.badActions)
    warnings.push(
      `${cols.badActions} records with action 3 (not enter/exit/unwind) skipped, the first at byte ${cols.firstBad}`,
    );
  const unknown = countUnknownMethods(cols.methodId, n, key.methods);
  if (unknown) warnings.push(`${unknown} records name a method id not in the method list`);
  // Dual-clock records hold thread-CPU then wall time (trace.cc EncodeEventEntry).
  const wallF = clock === "dual" ? cols.time2 : clock === "wall" ? cols.time1 : null;
  const wallNs = clock === "dual" ? cols.time2Ns : clock === "wall" ? cols.time1Ns : null;
  const cpuF = clock === "wall" ? null : cols.time1;
  const cpuNs = clock === "wall" ? null : cols.time1Ns;
  const threadId = cut(cols.threadId);
  const action = cut(cols.action);
  const columns: Record<string, ColumnValues> = {
    thread_id: threadId,
    method_id: cut(cols.methodNs),
    // Int8 indices over the records' action bytes: one byte a row, no copy.
    action: { dictionary: ACTIONS, indices: new Int8Array(action.buffer, action.byteOffset, n) },
  };
  if (wallNs) columns.wall = cut(wallNs);
  if (cpuNs) columns.thread_cpu = cut(cpuNs);
  const records: TraceRecords = {
    threadId,
    methodId: cut(cols.methodId),
    action,
    wall: wallF && cut(wallF),
    threadCpu: cpuF && cut(cpuF),
  };
  const x = header.extended;
  if (x) {
    records.cpu = cut(cols.cpuId!); // the memory of the cpu column
    columns.cpu = records.cpu;
    if (cols.heap) {
      const [size, allocated, objects] = cols.heap.map(cut) as [Uint32Array, Uint32Array, Uint32Array];
      records.heap = { size, allocated, objects };
      columns.heap_bytes = int64Of(allocated);
    }
    records.counters = x.counters.map((name, c) => ({ name, values: cut(cols.counters[c]!) }));
    for (const { name, values } of records.counters) {
      const column = counterColumn(name);
      if (column && !(column in columns)) columns[column] = int64Of(values);
    }
  }
  // The columns are this reader's own arrays, one buffer each: the table takes them without a copy.
  const events = makeBundleTable("method_events", runId, columns, n, { adopt: true });
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
    records,
    extended: x && { flags: x.flags, heap: x.heap, compact: x.compact, counters: x.counters },
    partial,
    warnings,
  };
}

/** The method_events column a hardware counter fills: cycles (CPU_CYCLES, cpu-cycles) or instructions. */
export function counterColumn(name: string): "cycles" | "instructions" | null {
  const norm = name.toLowerCase().replace(/[^a-z]/g, "");
  if (norm === "cycles" || norm === "cpucycles") return "cycles";
  // ARM's INSTR_EXECUTED (AndroScope Table 1), perf/simpleperf's instructions, x86's inst_retired.
  if (["instructions", "instrexecuted", "instructionsretired", "instretired"].includes(norm))
    return "instructions";
  return null;
}

/** Non-negative integers as int64 (two 32-bit words; BigInt only past 2^53). */
function int64Of(values: ArrayLike<number>): BigInt64Array {
  const out = new BigInt64Array(values.length);
  const w = new Uint32Array(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < 2 ** 53) {
      w[2 * i] = v >>> 0;
      w[2 * i + 1] = (v / 4294967296) >>> 0;
    } else out[i] = BigInt.asIntN(64, BigInt(v));
  }
  return out;
}

/** Records whose method id the method list does not name; a small direct-mapped cache spares the Set. */
function countUnknownMethods(ids: Float64Array, n: number, methods: readonly TraceMethod[]): number {
  const known = new Set(methods.map((m) => m.id));
  const cache = new Float64Array(4096).fill(-1);
  let unknown = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const slot = (id >>> 2) & 4095;
    if (cache[slot] === id) continue;
    if (known.has(id)) cache[slot] = id;
    else unknown++;
  }
  return unknown;
}
