import fc from "fast-check";
import { bitFlips, flipBits } from "../../support/bit-flips";
import { describe, expect, it } from "vitest";
import { importMethodTrace } from "../../../collectors/import/method-trace";
import { readMethodTrace, type MethodTrace, type TraceClock } from "../../../collectors/sources/method-trace";
import { extendedRecordSize } from "../../../collectors/sources/method-trace-extended";
import { traceHeapSamples } from "../../../collectors/sources/method-trace-samples";
import {
  writeMethodTrace,
  type TraceRecordSpec,
  type WriteTraceSpec,
} from "../../../collectors/sources/method-trace-writer";
import { buildCalls } from "../../../collectors/method-trace-calls";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
const threads = [
  { id: 5, name: "main" },
  { id: 9, name: "RenderThread" },
];
const methods = [
  { id: 0x10, className: "a.B", methodName: "run", signature: "()V" },
  { id: 0x14, className: "a.C", methodName: "draw", signature: "(I)Z" },
];
const dataOf = (bytes: Uint8Array) => {
  const at = bytes.indexOf(0x53, new TextDecoder().decode(bytes).indexOf("*end\n")); // "SLOW"
  const len = bytes[at + 6]! | (bytes[at + 7]! << 8);
  return { header: bytes.subarray(at, at + len), data: bytes.subarray(at + len) };
};
const col = (t: MethodTrace, name: string) =>
  Array.from(t.events.getChild(name)!.toArray() as ArrayLike<unknown>, (v) =>
    typeof v === "bigint" ? Number(v) : v,
  );

describe("extended records: bytes worked by hand", () => {
  // Clock wall, one counter, compact: deltas against the same thread's previous record (first: against 0).
  const records: TraceRecordSpec[] = [
    { threadId: 5, methodId: 0x10, action: 0, wallUs: 300, cpu: 2, counters: [1000] },
    { threadId: 5, methodId: 0x14, action: 0, wallUs: 428, cpu: 2, counters: [17384] },
    { threadId: 9, methodId: 0x14, action: 1, wallUs: 429, cpu: 3, counters: [5] },
    { threadId: 5, methodId: 0x14, action: 1, wallUs: 500, cpu: 2, counters: [17383] },
  ];
  const compact = writeMethodTrace({
    dataVersion: 3,
    clock: "wall",
    threads,
    methods,
    records,
    extended: { counters: ["cpu-cycles"], compact: true },
  });

  it("writes the header flags, counter count and names", () => {
    const { header } = dataOf(compact);
    expect(header.length).toBe(32 + 1 + "cpu-cycles".length);
    expect(hex(header.subarray(16, 22))).toBe("00 00 05 00 01 00"); // size 0 (variable), flags extended|compact, 1 counter
    expect(hex(header.subarray(32))).toBe("0a " + hex(new TextEncoder().encode("cpu-cycles")));
  });

  it("encodes CPU id, thread id and method|action raw, then EBV-8 deltas of time and counter", () => {
    expect(hex(dataOf(compact).data)).toBe(
      [
        "02 05 00 10 00 00 00 82 2c 87 68", // wall 300 = 2*128+44; cycles 1000 = 7*128+104
        "02 05 00 14 00 00 00 81 00 81 80 00", // +128 (Fig. 10); +16384 (Fig. 10)
        "03 09 00 15 00 00 00 83 2d 05", // thread 9's first record: 429 = 3*128+45; 5
        "02 05 00 15 00 00 00 48 81 ff ff ff ff ff ff ff ff 7f", // +72; -1 mod 2^64
      ].join(" "),
    );
  });

  it("reads them back: values, CPU ids, the cycles column", () => {
    const t = readMethodTrace(compact);
    expect(t.partial).toBe(false);
    expect(t.warnings).toEqual([]);
    expect(t.extended).toEqual({ flags: 5, heap: false, compact: true, counters: ["cpu-cycles"] });
    expect([...t.records.wall!]).toEqual([300_000, 428_000, 429_000, 500_000]);
    expect(t.records.threadCpu).toBeNull();
    expect([...t.records.cpu!]).toEqual([2, 2, 3, 2]);
    expect(t.records.counters).toEqual([
      { name: "cpu-cycles", values: Float64Array.of(1000, 17384, 5, 17383) },
    ]);
    expect(col(t, "cycles")).toEqual([1000, 17384, 5, 17383]);
    expect(col(t, "cpu")).toEqual([2, 2, 3, 2]);
    expect(t.events.getChild("instructions")!.nullCount).toBe(4);
  });

  it("fixed records: the paper's 54 bytes for heap and four counters, plus one for the 2-byte thread id", () => {
    expect(extendedRecordSize(1, true, 4)).toBe(55);
    const b = writeMethodTrace({
      dataVersion: 3,
      clock: "dual",
      threads,
      methods,
      records: [
        {
          threadId: 9,
          methodId: 0x10,
          action: 2,
          threadCpuUs: 7,
          wallUs: 0x01020304,
          cpu: 1,
          heap: [4096, 1000, 3],
          counters: [2 ** 40 + 1],
        },
      ],
      extended: { heap: true, counters: ["instructions"] },
    });
    const { header, data } = dataOf(b);
    expect(hex(header.subarray(16, 21))).toBe("23 00 03 00 01"); // 35 bytes, flags extended|heap, 1 counter
    expect(hex(data)).toBe(
      "01 09 00 12 00 00 00 07 00 00 00 04 03 02 01 00 10 00 00 e8 03 00 00 03 00 00 00 01 00 00 00 00 01 00 00",
    );
    const t = readMethodTrace(b);
    expect(t.records.heap).toEqual({
      size: Uint32Array.of(4096),
      allocated: Uint32Array.of(1000),
      objects: Uint32Array.of(3),
    });
    expect(col(t, "heap_bytes")).toEqual([1000]);
    expect(col(t, "instructions")).toEqual([2 ** 40 + 1]);
    expect(t.events.getChild("action")!.get(0)).toBe("unwind");
  });
});

/** Random extended traces: 1-3 threads, any clock, heap or not, 0-3 counters, fixed or compact. */
const traceArb = fc
  .record({
    clock: fc.constantFrom<TraceClock>("wall", "thread-cpu", "dual"),
    heap: fc.boolean(),
    compact: fc.boolean(),
    counters: fc.integer({ min: 0, max: 3 }),
    rows: fc.array(
      fc.record({
        threadId: fc.constantFrom(5, 9, 300),
        method: fc.constantFrom(0x10, 0x14),
        action: fc.integer({ min: 0, max: 2 }),
        t1: fc.nat({ max: 2 ** 32 - 1 }),
        t2: fc.nat({ max: 2 ** 32 - 1 }),
        cpu: fc.nat({ max: 255 }),
        heap: fc.tuple(
          fc.nat({ max: 2 ** 32 - 1 }),
          fc.nat({ max: 2 ** 32 - 1 }),
          fc.nat({ max: 2 ** 32 - 1 }),
        ),
        counters: fc.tuple(fc.maxSafeNat(), fc.nat(), fc.nat({ max: 1000 })),
      }),
      { maxLength: 40 },
    ),
  })
  .map(({ clock, heap, compact, counters, rows: raw }) => {
    // A thread's clocks only move forward (trace.cc): the reader flags a step back, so each thread's times
    // are its drawn values in ascending order.
    const rows = raw.map((r) => ({ ...r }));
    for (const tid of new Set(rows.map((r) => r.threadId))) {
      const mine = rows.filter((r) => r.threadId === tid);
      const t1 = mine.map((r) => r.t1).sort((a, b) => a - b);
      const t2 = mine.map((r) => r.t2).sort((a, b) => a - b);
      mine.forEach((r, i) => ((r.t1 = t1[i]!), (r.t2 = t2[i]!)));
    }
    const spec: WriteTraceSpec = {
      dataVersion: 3,
      clock,
      threads: [...threads, { id: 300, name: "pool-1" }],
      methods,
      records: rows.map((r) => ({
        threadId: r.threadId,
        methodId: r.method,
        action: r.action,
        threadCpuUs: r.t1,
        wallUs: r.t2,
        cpu: r.cpu,
        heap: r.heap,
        counters: r.counters.slice(0, counters),
      })),
      extended: {
        heap,
        compact,
        counters: ["cpu-cycles", "instructions", "L1_DATA_MISS"].slice(0, counters),
      },
    };
    return spec;
  });

describe("extended records round-trip the writer (fast-check)", () => {
  it("every field of every record comes back, in both encodings", () => {
    fc.assert(
      fc.property(traceArb, (spec) => {
        const t = readMethodTrace(writeMethodTrace(spec));
        const rs = spec.records as TraceRecordSpec[];
        const x = spec.extended!;
        expect(t.partial).toBe(false);
        expect(t.warnings).toEqual([]);
        expect(t.clock).toBe(spec.clock);
        expect(t.extended).toMatchObject({ heap: !!x.heap, compact: !!x.compact, counters: x.counters });
        expect([...t.records.threadId]).toEqual(rs.map((r) => r.threadId));
        expect([...t.records.methodId]).toEqual(rs.map((r) => r.methodId));
        expect([...t.records.action]).toEqual(rs.map((r) => r.action));
        expect([...t.records.cpu!]).toEqual(rs.map((r) => r.cpu));
        const cpuUs = spec.clock === "wall" ? null : rs.map((r) => r.threadCpuUs! * 1000);
        const wallUs =
          spec.clock === "thread-cpu"
            ? null
            : rs.map((r) => (spec.clock === "dual" ? r.wallUs! : r.wallUs!) * 1000);
        expect(t.records.threadCpu && [...t.records.threadCpu]).toEqual(cpuUs);
        expect(t.records.wall && [...t.records.wall]).toEqual(wallUs);
        if (x.heap) {
          expect([...t.records.heap!.size]).toEqual(rs.map((r) => r.heap![0]));
          expect([...t.records.heap!.allocated]).toEqual(rs.map((r) => r.heap![1]));
          expect([...t.records.heap!.objects]).toEqual(rs.map((r) => r.heap![2]));
          expect(col(t, "heap_bytes")).toEqual(rs.map((r) => r.heap![1]));
        } else expect(t.records.heap ?? null).toBeNull();
        t.records.counters!.forEach((c, k) => expect([...c.values]).toEqual(rs.map((r) => r.counters![k])));
        if (x.counters!.length >= 2) expect(col(t, "instructions")).toEqual(rs.map((r) => r.counters![1]));
        expect(col(t, "cpu")).toEqual(rs.map((r) => r.cpu));
      }),
      { numRuns: 300 },
    );
  });

  it("the compact encoding holds the same records, in fewer bytes when deltas are small", () => {
    const records = Array.from({ length: 200 }, (_, i) => ({
      threadId: 5 + (i % 2) * 4,
      methodId: 0x10,
      action: i % 4 < 2 ? 0 : 1,
      threadCpuUs: 10 * i,
      wallUs: 20 * i,
      cpu: i % 4,
      heap: [1 << 20, 5000 + 64 * i, 100 + i] as [number, number, number],
      counters: [3000 * i, 2000 * i, 7 * i],
    }));
    const spec = { dataVersion: 3 as const, clock: "dual" as const, threads, methods, records };
    const counters = ["cpu-cycles", "instructions", "L1_DATA_MISS"];
    const fixed = writeMethodTrace({ ...spec, extended: { heap: true, counters } });
    const compact = writeMethodTrace({ ...spec, extended: { heap: true, counters, compact: true } });
    expect(compact.length).toBeLessThan(fixed.length * 0.5);
    const [a, b] = [readMethodTrace(fixed), readMethodTrace(compact)];
    expect(b.records).toEqual(a.records);
    expect(buildCalls(b).numRows).toBe(buildCalls(a).numRows);
  });
});

describe("extended records: bad headers and damaged data", () => {
  const base: WriteTraceSpec = {
    dataVersion: 3,
    clock: "dual",
    threads,
    methods,
    records: Array.from({ length: 30 }, (_, i) => ({
      threadId: 5 + 4 * (i % 2),
      methodId: 0x10,
      action: i % 2,
      threadCpuUs: i * 3,
      wallUs: i * 300,
      cpu: i % 2,
      heap: [9000, 100 * i, i] as const,
      counters: [i * 100_000, i],
    })),
  };
  const fixed = writeMethodTrace({
    ...base,
    extended: { heap: true, counters: ["cpu-cycles", "instructions"] },
  });
  const compact = writeMethodTrace({
    ...base,
    extended: { heap: true, counters: ["cpu-cycles", "instructions"], compact: true },
  });
  const headerAt = dataOf(fixed).header.byteOffset;
  const patched = (bytes: Uint8Array, at: number, ...values: number[]) => {
    const b = bytes.slice();
    values.forEach((v, i) => (b[at + i] = v));
    return b;
  };

  it.each([
    [
      "unknown flag bits",
      patched(fixed, headerAt + 18, 0x13),
      /data header at byte \d+: unknown flags 0x13 \(known: 0x1 extended, 0x2 heap, 0x4 compact\)/,
    ],
    [
      "heap without the extended flag",
      patched(fixed, headerAt + 18, 0x02),
      /flags 0x2 set without the extended flag 0x1/,
    ],
    [
      "a record size below the flags' layout",
      patched(fixed, headerAt + 16, 20, 0),
      /record size 20 is below the 43 bytes the flags 0x3, 2 clock\(s\) and 2 counters need/,
    ],
    [
      "compact with a fixed size",
      patched(compact, headerAt + 16, 47, 0),
      /compact records have no fixed size, but the header declares 47/,
    ],
    [
      "counter names past the header",
      patched(fixed, headerAt + 20, 9),
      /counter name 3 of 9 at byte \d+ runs past the header end/,
    ],
  ])("rejects %s", (_, bytes, message) => {
    expect(() => readMethodTrace(bytes)).toThrow(message);
  });

  it("rejects extended flags on a streaming trace and refuses to write one", () => {
    const streaming = writeMethodTrace({ ...base, streaming: true });
    expect(() => readMethodTrace(patched(streaming, 18, 0x01))).toThrow(
      /extended records \(flags 0x1\) need the key-section layout, not streaming 0xf3/,
    );
    expect(() => writeMethodTrace({ ...base, streaming: true, extended: {} })).toThrow(
      /extended records need data version 3 without streaming/,
    );
  });

  it("stops at an EBV-8 field longer than its type allows, keeping the records before it", () => {
    const { data } = dataOf(compact);
    const at = data.byteOffset; // first record's first EBV-8 field starts 7 bytes in
    const bad = compact.slice();
    bad.fill(0xff, at + 7, at + 13); // six continuation bytes: longer than a u4's 5
    const t = readMethodTrace(bad);
    expect(t.partial).toBe(true);
    expect(t.events.numRows).toBe(0);
    expect(t.warnings.join("\n")).toMatch(
      new RegExp(`byte ${at + 7}: EBV-8 time in the record at byte ${at} is longer than 5 bytes`),
    );
  });

  it("a compact trace cut anywhere gives a prefix of its records, marked partial when cut mid-record", () => {
    const full = readMethodTrace(compact);
    const start = dataOf(compact).data.byteOffset;
    for (let cut = start; cut <= compact.length; cut++) {
      const t = readMethodTrace(compact.subarray(0, cut));
      const n = t.events.numRows;
      expect([...t.records.wall!]).toEqual([...full.records.wall!.subarray(0, n)]);
      expect([...t.records.counters![0]!.values]).toEqual([
        ...full.records.counters![0]!.values.subarray(0, n),
      ]);
      if (t.partial) expect(t.warnings.join("\n")).toMatch(/data cut short at byte \d+/);
      if (cut === compact.length) expect(t.partial).toBe(false);
    }
  });

  // Never hangs, never throws anything but an Error with a message; results stay consistent.
  const check = (bytes: Uint8Array) => {
    try {
      const t = readMethodTrace(bytes);
      expect(t.events.numRows).toBe(t.records.action.length);
      if (t.records.cpu) expect(t.records.cpu.length).toBe(t.events.numRows);
      expect(buildCalls(t).numRows).toBeLessThanOrEqual(t.events.numRows);
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toMatch(/method trace|not a method trace/);
    }
  };

  it("truncations and bit flips never hang or crash", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(fixed, compact),
        fc.double({ min: 0, max: 1, noNaN: true }),
        bitFlips({ maxLength: 6 }),
        (bytes, frac, flips) => {
          const b = bytes.slice(0, Math.floor(bytes.length * frac));
          flipBits(b, flips);
          check(b);
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe("heap values as heap_samples", () => {
  it("one step series per kind: the first record, then each change", () => {
    const records = [
      { threadId: 5, methodId: 0x10, action: 0, wallUs: 1, heap: [100, 10, 1] as const },
      { threadId: 9, methodId: 0x10, action: 0, wallUs: 2, heap: [100, 30, 2] as const },
      { threadId: 5, methodId: 0x10, action: 1, wallUs: 3, heap: [100, 30, 2] as const },
      { threadId: 9, methodId: 0x10, action: 1, wallUs: 4, heap: [200, 5, 1] as const },
    ];
    const bytes = writeMethodTrace({
      dataVersion: 3,
      clock: "wall",
      threads,
      methods,
      records,
      extended: { heap: true, compact: true },
    });
    const heap = traceHeapSamples(readMethodTrace(bytes))!;
    const rows = heap.toArray().map((r) => [Number(r.ts), r.kind, Number(r.value)]);
    expect(rows).toEqual([
      [1000, "heap_size", 100],
      [1000, "heap_allocated", 10],
      [1000, "heap_objects", 1],
      [2000, "heap_allocated", 30],
      [2000, "heap_objects", 2],
      [4000, "heap_size", 200],
      [4000, "heap_allocated", 5],
      [4000, "heap_objects", 1],
    ]);
    const imported = importMethodTrace(bytes, "ext.trace", "r1");
    expect(imported.tables.heap_samples!.numRows).toBe(8);
    expect(imported.tables.method_events!.getChild("heap_bytes")!.toArray()).toEqual(
      BigInt64Array.of(10n, 30n, 30n, 5n),
    );
    expect(
      traceHeapSamples(
        readMethodTrace(writeMethodTrace({ dataVersion: 3, clock: "wall", threads, methods, records })),
      ),
    ).toBeNull();
  });
});
