// AndroScope's extended method trace records (§IV-5, §IV-6, Fig. 9): a CPU id per record, optional heap
// values and hardware-counter values, and the compact log (EBV-8 deltas). Behind flags in the v3 data
// header, which ART leaves zero; the layout and the choices the paper leaves open are specified in
// docs/method-trace-format.md ("AndroScope extended records"). In short:
//   header bytes 18-19 flags: 0x1 extended, 0x2 heap, 0x4 compact; byte 20: counter count k;
//   bytes 32..: k counter names (u1 length + UTF-8). Key-section (non-streaming) v3 traces only.
//   record: u1 CPU id, u2 thread id, u4 method|action, u4 time per clock (thread CPU, then wall),
//   [heap] u4 size, u4 allocated, u4 objects, then k x u8 counters. Compact: every time, heap and counter
//   field is EBV-8 of (value - the same thread's previous value) mod 2^32 (u4) or 2^64 (u8).
import { EBV8_MAX_U32, EBV8_MAX_U64, readEbv8 } from "./ebv8";
import type { Header, RecordColumns, Step, Window } from "./method-trace-records";
import { putTime } from "./method-trace-records";

export const FLAG_EXTENDED = 0x1;
export const FLAG_HEAP = 0x2;
export const FLAG_COMPACT = 0x4;
const KNOWN_FLAGS = FLAG_EXTENDED | FLAG_HEAP | FLAG_COMPACT;
/** Offset of the counter names in the data header (after ART's 32-byte v3 header). */
export const EXTENDED_NAMES_AT = 32;

export interface ExtendedLayout {
  flags: number;
  heap: boolean;
  compact: boolean;
  /** hardware counter names, in record order */
  counters: string[];
  /** the record size the header declares (bytes 16-17); 0 for compact records */
  declaredSize: number;
}

/** Bytes of a fixed-size extended record: CPU id, thread id, method|action, times, heap, counters. */
export function extendedRecordSize(times: number, heap: boolean, counters: number): number {
  return 1 + 2 + 4 + 4 * times + (heap ? 12 : 0) + 8 * counters;
}

/** The extended layout the data header declares, null for standard records; throws on a malformed one. */
export function readExtendedLayout(bytes: Uint8Array, view: DataView, h: Header): ExtendedLayout | null {
  const at = h.at;
  const headerLength = h.dataStart - at;
  // Only the v3 header has room for the flags: ART writes 32 bytes, zero after the record size.
  if ((h.version & 0x0f) !== 3 || headerLength < EXTENDED_NAMES_AT || at + EXTENDED_NAMES_AT > bytes.length)
    return null;
  const flags = view.getUint16(at + 18, true);
  if (flags === 0) return null;
  const where = `method trace: data header at byte ${at}`;
  if (flags & ~KNOWN_FLAGS)
    throw new Error(
      `${where}: unknown flags 0x${flags.toString(16)} (known: 0x1 extended, 0x2 heap, 0x4 compact)`,
    );
  if (!(flags & FLAG_EXTENDED))
    throw new Error(`${where}: flags 0x${flags.toString(16)} set without the extended flag 0x1`);
  if (h.streaming)
    throw new Error(
      `${where}: extended records (flags 0x${flags.toString(16)}) need the key-section layout, not streaming 0x${h.version.toString(16)}`,
    );
  const k = bytes[at + 20]!;
  const counters: string[] = [];
  let p = at + EXTENDED_NAMES_AT;
  const decoder = new TextDecoder();
  for (let i = 0; i < k; i++) {
    const len = bytes[p];
    if (len === undefined || p + 1 + len > h.dataStart)
      throw new Error(
        `${where}: counter name ${i + 1} of ${k} at byte ${p} runs past the header end (byte ${h.dataStart})`,
      );
    counters.push(decoder.decode(bytes.subarray(p + 1, p + 1 + len)));
    p += 1 + len;
  }
  return {
    flags,
    heap: (flags & FLAG_HEAP) !== 0,
    compact: (flags & FLAG_COMPACT) !== 0,
    counters,
    declaredSize: view.getUint16(at + 16, true),
  };
}

/** Smallest record: the fixed size, or for compact records one byte per EBV-8 field. */
export function minimumRecordSize(x: ExtendedLayout, times: 1 | 2): number {
  const fields = times + (x.heap ? 3 : 0) + x.counters.length;
  return x.compact
    ? 7 + fields
    : Math.max(x.declaredSize, extendedRecordSize(times, x.heap, x.counters.length));
}

/** Checks the declared record size against the flags and clock; throws naming both when they disagree. */
export function checkExtendedSize(h: Header, x: ExtendedLayout, times: 1 | 2): void {
  const where = `method trace: data header at byte ${h.at}`;
  if (x.compact) {
    if (x.declaredSize !== 0)
      throw new Error(
        `${where}: compact records have no fixed size, but the header declares ${x.declaredSize}`,
      );
    return;
  }
  const size = extendedRecordSize(times, x.heap, x.counters.length);
  if (x.declaredSize !== 0 && x.declaredSize < size)
    throw new Error(
      `${where}: record size ${x.declaredSize} is below the ${size} bytes the flags 0x${x.flags.toString(16)}, ` +
        `${times} clock(s) and ${x.counters.length} counters need`,
    );
}

/** What reading one trace's extended records needs: its data header and layout, and the output. */
export interface ExtendedRead {
  h: Header;
  x: ExtendedLayout;
  times: 1 | 2;
  cols: RecordColumns;
  warnings: string[];
  /** compact records: each thread's previous values, kept from one window to the next */
  deltas: DeltaState;
}

/** Per-thread previous values of compact records, by a slot per thread id in order of appearance. */
export class DeltaState {
  readonly slotOf = new Int32Array(65536).fill(-1);
  slots = 0;
  prev32: Uint32Array;
  prev64: Float64Array;
  constructor(
    readonly u4Fields: number,
    readonly k: number,
  ) {
    this.prev32 = new Uint32Array(16 * u4Fields);
    this.prev64 = new Float64Array(16 * Math.max(1, k));
  }
}

/** Reads extended records from window offset `from` into `cols` until the window ends or `cols` is full. */
export function readExtendedRecords(w: Window, from: number, r: ExtendedRead): Step {
  if (from > w.bytes.length) {
    if (!w.final) return { p: from, stop: "more" };
    r.warnings.push(
      `data header says records start at byte ${w.base + from}, past the end of the file (byte ${w.base + w.bytes.length})`,
    );
    return { p: w.bytes.length, stop: "partial" };
  }
  return r.x.compact ? readCompact(w, from, r) : readFixed(w, from, r);
}

const u32 = (b: Uint8Array, q: number) =>
  (b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24)) >>> 0;

function readFixed({ bytes, base, final }: Window, from: number, r: ExtendedRead): Step {
  const { x, times, cols, warnings } = r;
  const size = minimumRecordSize(x, times);
  const end = bytes.length;
  const w1 = new Uint32Array(cols.time1Ns.buffer);
  const w2 = cols.time2Ns ? new Uint32Array(cols.time2Ns.buffer) : null;
  const mW = new Uint32Array(cols.methodNs.buffer);
  const k = x.counters.length;
  const cap = cols.capacity;
  let n = cols.n;
  let p = from;
  for (; p < end; p += size) {
    if (p + size > end) {
      if (!final) break;
      warnings.push(
        `data cut short at byte ${base + p}: ${end - p} bytes left, an extended record takes ${size}`,
      );
      return ((cols.n = n), { p, stop: "partial" });
    }
    if (n === cap) return ((cols.n = n), { p, stop: "full" });
    const word = u32(bytes, p + 3);
    const a = word & 3;
    if (a === 3) {
      cols.skip(base + p);
      continue;
    }
    const i = n++;
    cols.cpuId![i] = bytes[p]!;
    cols.threadId[i] = bytes[p + 1]! | (bytes[p + 2]! << 8);
    cols.action[i] = a;
    cols.methodId[i] = word - a;
    mW[2 * i] = word - a;
    let q = p + 7;
    putTime(cols.time1, w1, i, u32(bytes, q));
    q += 4;
    if (w2) (putTime(cols.time2!, w2, i, u32(bytes, q)), (q += 4));
    if (cols.heap) {
      for (let f = 0; f < 3; f++) cols.heap[f]![i] = u32(bytes, q + 4 * f);
      q += 12;
    }
    for (let c = 0; c < k; c++, q += 8) cols.counters[c]![i] = u32(bytes, q + 4) * 4294967296 + u32(bytes, q);
  }
  cols.n = n;
  return { p, stop: final ? "end" : "more" };
}

const TWO64 = 2n ** 64n;

/** Compact records: EBV-8 deltas against the same thread's previous record (first record: against 0). */
function readCompact(w: Window, from: number, r: ExtendedRead): Step {
  const { bytes, base, final } = w;
  const { x, times, cols, warnings, deltas } = r;
  const end = bytes.length;
  const { threadId, action, methodId, time1, cpuId, counters } = cols;
  const time2 = cols.time2 ?? time1;
  const w1 = new Uint32Array(cols.time1Ns.buffer);
  const w2 = cols.time2Ns ? new Uint32Array(cols.time2Ns.buffer) : null;
  const mW = new Uint32Array(cols.methodNs.buffer);
  const [h0, h1, h2] = cols.heap ?? [w1, w1, w1];
  const heap = cols.heap !== null;
  const k = x.counters.length;
  const u4Fields = times + (heap ? 3 : 0);
  // A record's fields update the previous values as they are decoded: a record that cannot be decoded stops
  // the reading, and one that may run past a window that is not the last is not begun, so none is rolled back.
  const slotOf = deltas.slotOf;
  let { prev32, prev64 } = deltas;
  const longest = 7 + u4Fields * EBV8_MAX_U32 + k * EBV8_MAX_U64;
  const safeEnd = final ? end : end - longest;
  const fieldName = (f: number) =>
    f < times
      ? times === 2 && f === 1
        ? "wall time"
        : "time"
      : f < u4Fields
        ? ["heap size", "heap allocated", "heap objects"][f - times]!
        : `counter ${x.counters[f - u4Fields]}`;
  const cap = cols.capacity;
  let n = cols.n;
  let p = from;
  // No closure over n or p: V8 would keep them in a heap context instead of registers.
  const stop = (count: number, at: number, message: string): Step => {
    warnings.push(message);
    cols.n = count;
    return { p: at, stop: "partial" };
  };
  while (p < end) {
    if (p > safeEnd) break;
    if (n === cap) return ((cols.n = n), { p, stop: "full" });
    if (p + 7 > end)
      return stop(
        n,
        p,
        `data cut short at byte ${base + p}: ${end - p} bytes left, a compact record takes at least 7`,
      );
    const tid = bytes[p + 1]! | (bytes[p + 2]! << 8);
    let slot = slotOf[tid]!;
    if (slot < 0) {
      slot = slotOf[tid] = deltas.slots++;
      if (deltas.slots * u4Fields > prev32.length) prev32 = deltas.prev32 = grow(prev32, Uint32Array);
      if (deltas.slots * k > prev64.length) prev64 = deltas.prev64 = grow(prev64, Float64Array);
    }
    let q = p + 7;
    // EBV-8 decoded in line (no object per value): up to 7 bytes stay exact in a double.
    const base32 = slot * u4Fields;
    for (let f = 0; f < u4Fields; f++) {
      const from = q;
      let b = q < end ? bytes[q++]! : 0x80;
      let d = b & 0x7f;
      while (b & 0x80) {
        if (q >= end || q - from >= EBV8_MAX_U32)
          return stop(n, p, ebvProblem(w, p, from, EBV8_MAX_U32, fieldName(f)));
        b = bytes[q++]!;
        d = d * 128 + (b & 0x7f);
      }
      if (d > 0xffffffff)
        return stop(
          n,
          p,
          `byte ${base + from}: ${fieldName(f)} delta ${d} in the record at byte ${base + p} exceeds u4; reading stopped`,
        );
      prev32[base32 + f] = prev32[base32 + f]! + d; // stored mod 2^32
    }
    const base64 = slot * k;
    for (let c = 0; c < k; c++) {
      const from = q;
      let b = q < end ? bytes[q++]! : 0x80;
      let d = b & 0x7f;
      while (b & 0x80 && q - from < 7) {
        if (q >= end) return stop(n, p, ebvProblem(w, p, from, EBV8_MAX_U64, fieldName(u4Fields + c)));
        b = bytes[q++]!;
        d = d * 128 + (b & 0x7f);
      }
      const before = prev64[base64 + c]!;
      let v = before + d;
      if (b & 0x80 || v >= 2 ** 53) {
        // Longer than 7 bytes, or past 2^53: exact arithmetic mod 2^64.
        const e = readEbv8(bytes, from, EBV8_MAX_U64);
        if (!e) return stop(n, p, ebvProblem(w, p, from, EBV8_MAX_U64, fieldName(u4Fields + c)));
        v = Number((BigInt(before) + (e.big ?? BigInt(e.value))) % TWO64);
        q = e.next;
      }
      prev64[base64 + c] = v;
    }
    const word = u32(bytes, p + 3);
    const a = word & 3;
    if (a === 3) cols.skip(base + p);
    else {
      const i = n++;
      cpuId![i] = bytes[p]!;
      threadId[i] = tid;
      action[i] = a;
      methodId[i] = word - a;
      mW[2 * i] = word - a;
      putTime(time1, w1, i, prev32[base32]!);
      if (w2) putTime(time2, w2, i, prev32[base32 + 1]!);
      if (heap) {
        h0[i] = prev32[base32 + times]!;
        h1[i] = prev32[base32 + times + 1]!;
        h2[i] = prev32[base32 + times + 2]!;
      }
      for (let c = 0; c < k; c++) counters[c]![i] = prev64[base64 + c]!;
    }
    p = q;
  }
  cols.n = n;
  return { p, stop: final ? "end" : "more" };
}

function ebvProblem({ bytes, base }: Window, record: number, at: number, max: number, field: string): string {
  let q = at;
  while (q < bytes.length && q - at < max && bytes[q]! & 0x80) q++;
  if (q >= bytes.length)
    return `data cut short at byte ${base + record}: the record's ${field} (EBV-8 at byte ${base + at}) runs past the end of the file`;
  return `byte ${base + at}: EBV-8 ${field} in the record at byte ${base + record} is longer than ${max} bytes; reading stopped`;
}

function grow<T extends Uint32Array | Float64Array>(a: T, make: new (n: number) => T): T {
  const b = new make(Math.max(16, a.length * 2));
  b.set(a);
  return b;
}
