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
  checkBatch,
  decodeRecords,
  endTrace,
  recordColumns,
  startTrace,
  type TraceEnd,
  type TraceStart,
} from "./method-trace-decode";
import type { ExtendedLayout } from "./method-trace-extended";
import type { RecordColumns } from "./method-trace-records";

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

export const ACTIONS: TraceAction[] = ["enter", "exit", "unwind"];

/** Reads a method trace; throws an Error naming what the bytes look like when they are not one. */
export function readMethodTrace(bytes: Uint8Array, options: ReadMethodTraceOptions = {}): MethodTrace {
  const runId = options.runId ?? "trace";
  const w = { bytes, base: 0, final: true };
  const t = startTrace(w)!;
  // One batch the size of the most records the bytes can hold: the columns are the trace's own. (A compact
  // record is known to be whole only once decoded, so a cut one needs a row to be decoded into.)
  const room = Math.max(0, bytes.length - t.header.dataStart);
  const spare = t.deltas ? 1 : 0;
  const cols = recordColumns(t, Math.floor(room / t.minimumRecord) + spare);
  const step = decodeRecords(t, w, t.header.dataStart, cols);
  if (step.stop === "full" || step.stop === "more")
    throw new Error(`method trace: ${step.stop} at byte ${step.p} (the columns are sized to the file)`);
  checkBatch(t, cols);
  const end = endTrace(t, cols, cols.n, step.stop === "partial");
  const { columns, records } = eventColumns(cols, end.clock, t.extended);
  // The columns are this reader's own arrays, one buffer each: the table takes them without a copy.
  const events = makeBundleTable("method_events", runId, columns, cols.n, { adopt: true });
  return { ...traceInfo(t, end), runId, events, records };
}

/** Everything MethodTrace says but the records. */
export function traceInfo(t: TraceStart, end: TraceEnd): Omit<MethodTrace, "events" | "records" | "runId"> {
  const x = t.extended;
  return {
    version: end.key.version,
    dataVersion: t.header.version,
    streaming: t.streaming,
    clock: end.clock,
    startTimeUs: t.header.startTimeUs,
    properties: end.key.properties,
    threads: end.key.threads,
    methods: end.key.methods,
    extended: x && { flags: x.flags, heap: x.heap, compact: x.compact, counters: x.counters },
    partial: end.partial,
    warnings: end.warnings,
  };
}

/** The method_events columns and MethodTrace.records of the first `cols.n` decoded records (views, no copy). */
export function eventColumns(
  cols: RecordColumns,
  clock: TraceClock,
  x: ExtendedLayout | null,
): { columns: Record<string, ColumnValues>; records: TraceRecords } {
  const n = cols.n;
  const cut = <T extends { subarray(a: number, b: number): T; length: number }>(a: T): T =>
    a.length === n ? a : a.subarray(0, n);
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
  return { columns, records };
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
