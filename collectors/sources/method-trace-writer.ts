// Writer for Android method trace files, the inverse of method-trace.ts: tests round-trip through it and
// benchmarks generate large traces with it. Layout as AOSP art runtime/trace.cc writes it; AndroScope's
// extended records (CPU id, heap, counters, EBV-8 compact deltas) as method-trace-extended.ts reads them.
import type { TraceClock, TraceMethod, TraceThread } from "./method-trace";
import {
  EXTENDED_NAMES_AT,
  FLAG_COMPACT,
  FLAG_EXTENDED,
  FLAG_HEAP,
  extendedRecordSize,
} from "./method-trace-extended";
import { encodeExtendedRecords } from "./method-trace-writer-extended";

export interface TraceRecordSpec {
  threadId: number;
  methodId: number;
  /** 0 enter, 1 exit, 2 unwind */
  action: number;
  /** µs (32-bit) */
  threadCpuUs?: number;
  wallUs?: number;
  /** extended records: the CPU the record was taken on (u1) */
  cpu?: number;
  /** extended records with heap: heap size, heap allocated (bytes), heap objects (u4 each) */
  heap?: readonly [number, number, number];
  /** extended records: one value per counter the spec names (u8: a safe integer or a bigint) */
  counters?: readonly (number | bigint)[];
}

/** AndroScope extended records (§IV-5/6): a data version 3 trace with the key section, not streaming. */
export interface ExtendedSpec {
  heap?: boolean;
  /** hardware counter names, e.g. ["cpu-cycles", "instructions"] */
  counters?: readonly string[];
  /** the compact log: EBV-8 deltas against the same thread's previous record */
  compact?: boolean;
}

export interface WriteTraceSpec {
  /** data version 1, 2 or 3; streaming writes 0xF0 | version */
  dataVersion: 1 | 2 | 3;
  clock: TraceClock;
  streaming?: boolean;
  startTimeUs?: number;
  threads: TraceThread[];
  methods: TraceMethod[];
  /** the records, or a generator of them by index (large benchmark traces without a big array) */
  records: readonly TraceRecordSpec[] | { length: number; at(i: number): TraceRecordSpec };
  /** extra key=value lines after *version (vm=art, ...) */
  properties?: Record<string, string>;
  extended?: ExtendedSpec;
}

const enc = new TextEncoder();

/** Record size in bytes: thread id (1 byte in v1, else 2), method|action (4), one 4-byte time per clock. */
export function traceRecordSize(dataVersion: number, clock: TraceClock): number {
  return (dataVersion === 1 ? 1 : 2) + 4 + (clock === "dual" ? 8 : 4);
}

export function writeMethodTrace(spec: WriteTraceSpec): Uint8Array {
  const v = spec.dataVersion;
  if (spec.clock === "dual" && v < 3)
    throw new Error(`writeMethodTrace: clock=dual needs data version 3, got ${v}`);
  const x = spec.extended;
  if (x && (v !== 3 || spec.streaming))
    throw new Error(
      `writeMethodTrace: extended records need data version 3 without streaming, got ${v}${spec.streaming ? " streaming" : ""}`,
    );
  const times = spec.clock === "dual" ? 2 : 1;
  const counters = x?.counters ?? [];
  const size = x
    ? x.compact
      ? 0
      : extendedRecordSize(times, !!x.heap, counters.length)
    : traceRecordSize(v, spec.clock);
  const chunks: Uint8Array[] = [];
  const keyText = key(spec);
  if (!spec.streaming) chunks.push(enc.encode(keyText));
  const names = counters.map((c) => enc.encode(c));
  if (names.length > 255 || names.some((b) => b.length > 255))
    throw new Error("writeMethodTrace: at most 255 counters, names of at most 255 bytes");
  const header = new Uint8Array(
    v >= 3 ? EXTENDED_NAMES_AT + names.reduce((s, b) => s + 1 + b.length, 0) : 16,
  );
  const hv = new DataView(header.buffer);
  hv.setUint32(0, 0x574f4c53, true);
  hv.setUint16(4, spec.streaming ? 0xf0 | v : v, true);
  hv.setUint16(6, header.length, true);
  hv.setBigUint64(8, BigInt(spec.startTimeUs ?? 0), true);
  if (v >= 3) hv.setUint16(16, size, true);
  if (x) {
    // Header flags and counter names (docs/method-trace-format.md, "AndroScope extended records").
    hv.setUint16(18, FLAG_EXTENDED | (x.heap ? FLAG_HEAP : 0) | (x.compact ? FLAG_COMPACT : 0), true);
    header[20] = names.length;
    let p = EXTENDED_NAMES_AT;
    for (const b of names) ((header[p] = b.length), header.set(b, p + 1), (p += 1 + b.length));
    chunks.push(
      header,
      encodeExtendedRecords(spec.records, spec.clock, !!x.heap, counters.length, !!x.compact),
    );
    return concat(chunks);
  }
  chunks.push(header);
  if (spec.streaming) {
    for (const t of spec.threads) {
      const name = enc.encode(t.name);
      const b = new Uint8Array(7 + name.length);
      const d = new DataView(b.buffer);
      b[2] = 2;
      d.setUint16(3, t.id, true);
      d.setUint16(5, name.length, true);
      b.set(name, 7);
      chunks.push(b);
    }
    for (const m of spec.methods) {
      const line = enc.encode(methodLine(m));
      const b = new Uint8Array(5 + line.length);
      b[2] = 1;
      new DataView(b.buffer).setUint16(3, line.length, true);
      b.set(line, 5);
      chunks.push(b);
    }
  }
  const data = new Uint8Array(spec.records.length * size);
  const dv = new DataView(data.buffer);
  const n = spec.records.length;
  for (let i = 0; i < n; i++) {
    const r = spec.records.at(i)!;
    let p = i * size;
    if (v === 1) data[p++] = r.threadId;
    else (dv.setUint16(p, r.threadId, true), (p += 2));
    dv.setUint32(p, (r.methodId | r.action) >>> 0, true);
    p += 4;
    // Dual clock: thread CPU, then wall (trace.cc EncodeEventEntry).
    if (spec.clock !== "wall") (dv.setUint32(p, r.threadCpuUs ?? 0, true), (p += 4));
    if (spec.clock !== "thread-cpu") dv.setUint32(p, r.wallUs ?? 0, true);
  }
  chunks.push(data);
  if (spec.streaming) {
    const summary = enc.encode(keyText);
    const b = new Uint8Array(7);
    b[2] = 3;
    new DataView(b.buffer).setUint32(3, summary.length, true);
    chunks.push(b, summary);
  }
  return concat(chunks);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chunks) (out.set(c, o), (o += c.length));
  return out;
}

function key(spec: WriteTraceSpec): string {
  const lines = ["*version", String(spec.dataVersion === 1 ? 1 : 3), `clock=${spec.clock}`];
  for (const [k, val] of Object.entries(spec.properties ?? {})) lines.push(`${k}=${val}`);
  lines.push("*threads", ...spec.threads.map((t) => `${t.id}\t${t.name}`));
  lines.push("*methods", ...spec.methods.map((m) => methodLine(m).replace(/\n$/, "")));
  lines.push("*end", "");
  return lines.join("\n");
}

function methodLine(m: TraceMethod): string {
  const f = [`0x${m.id.toString(16)}`, m.className, m.methodName, m.signature];
  if (m.sourceFile !== undefined) f.push(m.sourceFile);
  if (m.line !== undefined) f.push(String(m.line));
  return f.join("\t") + "\n";
}
