// readMethodTraceChunks: a trace read chunk by chunk into column batches gives what readMethodTrace gives
// for the whole buffer (records, columns, metadata, warnings with the same byte offsets, partial), whatever
// the chunk size, the batch size and the reads' lengths: records, definitions, EBV-8 fields and the key
// cut at every boundary.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { bitFlips, flipBits } from "../../support/bit-flips";
import { describe, expect, it } from "vitest";
import { eventColumns, readMethodTrace, type MethodTrace } from "../../../collectors/sources/method-trace";
import { readMethodTraceChunks, type ByteSource } from "../../../collectors/sources/method-trace-file";
import {
  writeMethodTrace,
  type TraceRecordSpec,
  type WriteTraceSpec,
} from "../../../collectors/sources/method-trace-writer";

const DIR = "test/fixtures/dmtrace/";
const load = (f: string) => new Uint8Array(readFileSync(DIR + f));

/** The bytes as a source whose reads return at most `most` bytes (short reads, as a pipe may give). */
function memorySource(bytes: Uint8Array, most = Infinity): ByteSource {
  return {
    size: bytes.length,
    read(into, position) {
      const n = Math.max(0, Math.min(into.length, bytes.length - position, most));
      into.set(bytes.subarray(position, position + n));
      return n;
    },
  };
}

/** What readMethodTrace says of a trace, from either reader, as plain values. */
function summary(
  info: Omit<MethodTrace, "events" | "records" | "runId">,
  columns: Record<string, unknown[]>,
) {
  return { ...info, columns };
}

function whole(bytes: Uint8Array) {
  const t = readMethodTrace(bytes);
  const columns: Record<string, unknown[]> = {};
  for (const f of t.events.schema.fields)
    if (f.name !== "run_id" && t.events.getChild(f.name)!.nullCount < t.events.numRows)
      columns[f.name] = [...t.events.getChild(f.name)!].map(String);
  const { events: _e, records: _r, runId: _id, ...info } = t;
  return summary(info, columns);
}

function chunked(bytes: Uint8Array, chunkBytes: number, batchRows: number, most = Infinity) {
  const columns: Record<string, unknown[]> = {};
  const r = readMethodTraceChunks(memorySource(bytes, most), {
    chunkBytes,
    batchRows,
    onBatch(cols, clock, start) {
      expect(cols.n).toBeGreaterThan(0);
      expect(cols.n).toBeLessThanOrEqual(batchRows);
      const { columns: batch } = eventColumns(cols, clock, start.extended);
      for (const [name, values] of Object.entries(batch)) {
        const list = (columns[name] ??= []);
        if ("indices" in values) for (const i of values.indices) list.push(values.dictionary[i]);
        else for (const v of values as Iterable<number | bigint>) list.push(String(v));
      }
    },
  });
  const { key, clock, warnings, partial } = r.end;
  const x = r.start.extended;
  return summary(
    {
      version: key.version,
      dataVersion: r.start.header.version,
      streaming: r.start.streaming,
      clock,
      startTimeUs: r.start.header.startTimeUs,
      properties: key.properties,
      threads: key.threads,
      methods: key.methods,
      extended: x && { flags: x.flags, heap: x.heap, compact: x.compact, counters: x.counters },
      partial,
      warnings,
    },
    columns,
  );
}

/** A small trace of every layout the writer makes: records on 3 threads with nested calls. */
function smallTrace(layout: number, count: number, seed: number): Uint8Array {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const stacks: number[][] = [[], [], []];
  const clocks = [0, 0, 0];
  let wall = 0;
  const records: TraceRecordSpec[] = [];
  for (let i = 0; i < count; i++) {
    const t = Math.floor(rand() * 3);
    const st = stacks[t]!;
    const enter = st.length === 0 || rand() < 0.5;
    const methodId = enter ? (1 + Math.floor(rand() * 5)) << 2 : st[st.length - 1]!;
    if (enter) st.push(methodId);
    else st.pop();
    wall += Math.floor(rand() * 300);
    clocks[t] = clocks[t]! + Math.floor(rand() * 200);
    records.push({
      threadId: t + 1,
      methodId,
      action: enter ? 0 : 1,
      threadCpuUs: clocks[t]!,
      wallUs: wall,
      cpu: t,
      heap: [1 << 20, wall * 3, i],
      counters: [clocks[t]! * 1000, 2 ** 40 + wall],
    });
  }
  const spec: WriteTraceSpec = {
    dataVersion: 3,
    clock: "dual",
    threads: [1, 2, 3].map((id) => ({ id, name: `t${id}` })),
    methods: [1, 2, 3, 4, 5].map((m) => ({
      id: m << 2,
      className: "a.B",
      methodName: `m${m}`,
      signature: "()V",
    })),
    records,
  };
  const extended = { heap: true, counters: ["cpu-cycles", "instructions"] };
  const layouts: Partial<WriteTraceSpec>[] = [
    {},
    { streaming: true },
    { dataVersion: 1, clock: "thread-cpu" },
    { dataVersion: 2, clock: "wall", streaming: true },
    { extended },
    { extended: { ...extended, compact: true } },
  ];
  return writeMethodTrace({ ...spec, ...layouts[layout % layouts.length] });
}

describe("readMethodTraceChunks", () => {
  const fixtures = [
    "aosp-perflib_basic.trace",
    "aosp-perflib_basic-api10.trace",
    "aosp-perflib_exception.trace",
    "aosp-perflib_mismatched.trace",
    "firefox-profiler_art-trace-streaming.trace",
    "firefox-profiler_art-trace-regular.trace",
    "Grigory-Rylov-android-methods-profiler_legacy.trace",
  ];

  it.each(fixtures)("reads %s as readMethodTrace does, in 4 KiB and 100-byte chunks", (f) => {
    const bytes = load(f);
    const expected = whole(bytes);
    expect(chunked(bytes, 4096, 1000)).toEqual(expected);
    // Chunks smaller than the key section and than a streaming definition: the buffer grows for them.
    expect(chunked(bytes, 100, 65_536)).toEqual(expected);
  });

  it("reads every layout cut anywhere with any chunk, batch and read size as readMethodTrace does (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 64, max: 400 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 200 }),
        (layout, count, seed, cut, chunkBytes, batchRows, most) => {
          const full = smallTrace(layout, count, seed);
          // Half the cases whole, half cut at any byte (a record, an EBV-8 field or the summary cut short).
          const bytes = seed % 2 ? full : full.subarray(0, Math.floor(full.length * cut));
          let expected;
          try {
            expected = whole(bytes);
          } catch (e) {
            expect(() => chunked(bytes, chunkBytes, batchRows, most)).toThrow((e as Error).message);
            return;
          }
          expect(chunked(bytes, chunkBytes, batchRows, most)).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("corrupt bytes give the same records, warnings and partial in chunks as whole (property)", () => {
    const all = fixtures.slice(0, 4).map(load);
    all.push(load(fixtures[4]!).subarray(0, 40_000));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: all.length - 1 }),
        bitFlips({ minLength: 1, maxLength: 6 }),
        fc.integer({ min: 64, max: 3000 }),
        (k, flips, chunkBytes) => {
          const b = all[k]!.slice();
          flipBits(b, flips);
          let expected;
          try {
            expected = whole(b);
          } catch (e) {
            expect(() => chunked(b, chunkBytes, 100)).toThrow((e as Error).message);
            return;
          }
          expect(chunked(b, chunkBytes, 100)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses what is not a trace with readMethodTrace's message", () => {
    for (const bytes of [new Uint8Array(), new TextEncoder().encode("hello world, not a trace\n")]) {
      expect(() => readMethodTrace(bytes)).toThrow();
      let message = "";
      try {
        readMethodTrace(bytes);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(() => chunked(bytes, 64, 10)).toThrow(message);
    }
  });
});
