// The records of an AndroScope extended method trace (§IV-5/6, Fig. 9), fixed-size or compact (EBV-8
// deltas against the same thread's previous record, mod 2^32 for u4 fields and 2^64 for u8 counters).
// The layout is method-trace-extended.ts's; the writer is the tests' and benchmarks' source of traces.
import type { TraceClock } from "./method-trace";
import { writeEbv8 } from "./ebv8";
import { extendedRecordSize } from "./method-trace-extended";
import type { TraceRecordSpec } from "./method-trace-writer";

const TWO32 = 4294967296;
const TWO64 = 2n ** 64n;

interface ThreadState {
  u4: number[];
  u8: (number | bigint)[];
}

/** The data section (records only) of an extended trace. */
export function encodeExtendedRecords(
  records: readonly TraceRecordSpec[] | { length: number; at(i: number): TraceRecordSpec },
  clock: TraceClock,
  heap: boolean,
  counters: number,
  compact: boolean,
): Uint8Array {
  const n = records.length;
  const times = clock === "dual" ? 2 : 1;
  const fixed = extendedRecordSize(times, heap, counters);
  // Compact records are at most as long as fixed ones plus one byte per u4 field and two per counter.
  let out = new Uint8Array(
    compact ? Math.max(64, n * (7 + times + (heap ? 3 : 0) + counters * 2)) : n * fixed,
  );
  let dv = new DataView(out.buffer);
  const u4 = new Array<number>(times + (heap ? 3 : 0));
  const state = new Map<number, ThreadState>();
  let p = 0;
  for (let i = 0; i < n; i++) {
    const r = records.at(i)!;
    if (compact && p + 7 + 5 * u4.length + 10 * counters > out.length) {
      const bigger = new Uint8Array(Math.max(out.length * 2, p + 7 + 5 * u4.length + 10 * counters));
      bigger.set(out.subarray(0, p));
      out = bigger;
      dv = new DataView(out.buffer);
    }
    out[p] = check(r.cpu ?? 0, 0xff, "cpu", i);
    dv.setUint16(p + 1, check(r.threadId, 0xffff, "threadId", i), true);
    dv.setUint32(p + 3, (r.methodId | r.action) >>> 0, true);
    p += 7;
    // Dual clock: thread CPU, then wall (trace.cc EncodeEventEntry); a single clock writes its own time.
    u4[0] = clock === "wall" ? (r.wallUs ?? 0) : (r.threadCpuUs ?? 0);
    if (times === 2) u4[1] = r.wallUs ?? 0;
    if (heap) for (let f = 0; f < 3; f++) u4[times + f] = r.heap?.[f] ?? 0;
    for (let f = 0; f < u4.length; f++) check(u4[f]!, TWO32 - 1, "time or heap value", i);
    if (!compact) {
      for (const v of u4) (dv.setUint32(p, v, true), (p += 4));
      for (let c = 0; c < counters; c++, p += 8) dv.setBigUint64(p, u8(r.counters?.[c] ?? 0, i), true);
      continue;
    }
    let s = state.get(r.threadId);
    if (!s)
      state.set(
        r.threadId,
        (s = { u4: new Array<number>(u4.length).fill(0), u8: new Array<number>(counters).fill(0) }),
      );
    for (let f = 0; f < u4.length; f++) {
      p = writeEbv8(out, p, (u4[f]! - s.u4[f]! + TWO32) % TWO32);
      s.u4[f] = u4[f]!;
    }
    for (let c = 0; c < counters; c++) {
      const v = r.counters?.[c] ?? 0;
      const before = s.u8[c]!;
      // Numbers while both are safe and the count grows (the usual case), else exact mod-2^64 arithmetic.
      const d =
        typeof v === "number" && typeof before === "number" && v >= before && Number.isSafeInteger(v)
          ? v - before
          : (((u8(v, i) - BigInt(before)) % TWO64) + TWO64) % TWO64;
      p = writeEbv8(out, p, d);
      s.u8[c] = v;
    }
  }
  return out.subarray(0, p);
}

function check(v: number, max: number, what: string, i: number): number {
  if (!Number.isInteger(v) || v < 0 || v > max)
    throw new RangeError(`writeMethodTrace: record ${i}: ${what} ${v} is outside 0..${max}`);
  return v;
}

function u8(v: number | bigint, i: number): bigint {
  const b = BigInt(v);
  if (b < 0n || b >= TWO64 || (typeof v === "number" && !Number.isSafeInteger(v)))
    throw new RangeError(
      `writeMethodTrace: record ${i}: counter value ${v} is not a u8 (use a bigint above 2^53)`,
    );
  return b;
}
