import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { bitFlips, flipBits } from "../../support/bit-flips";
import { describe, expect, it } from "vitest";
import { readMethodTrace, type TraceClock } from "../../../collectors/sources/method-trace";
import { writeMethodTrace, type WriteTraceSpec } from "../../../collectors/sources/method-trace-writer";
import { buildCalls } from "../../../collectors/method-trace-calls";

const DIR = "test/fixtures/dmtrace/";
const load = (f: string) => new Uint8Array(readFileSync(DIR + f));
const actions = (t: ReturnType<typeof readMethodTrace>) => {
  const c = [0, 0, 0];
  for (const a of t.records.action) c[a]!++;
  return c;
};

describe("readMethodTrace on the real fixtures", () => {
  // Record counts: the key's num-method-calls line (written by the VM) where there is one.
  it.each([
    ["aosp-perflib_basic-api10.trace", 1, 1, "thread-cpu", 10, [5, 5, 0]],
    ["aosp-perflib_basic.trace", 3, 3, "dual", 9, [4, 5, 0]],
    ["aosp-perflib_exception.trace", 3, 3, "dual", 23, [11, 9, 3]],
    ["aosp-perflib_mismatched.trace", 3, 3, "dual", 9, [3, 6, 0]],
    ["Grigory-Rylov-android-methods-profiler_legacy.trace", 3, 3, "dual", 16472, [8251, 8221, 0]],
    ["firefox-profiler_art-trace-regular.trace", 3, 3, "dual", 13295, [6777, 6518, 0]],
  ])("%s: key v%i, data v%i, clock %s, %i records", (file, version, dataVersion, clock, records, acts) => {
    const t = readMethodTrace(load(file));
    expect(t.version).toBe(version);
    expect(t.dataVersion).toBe(dataVersion);
    expect(t.clock).toBe(clock);
    expect(t.partial).toBe(false);
    expect(t.events.numRows).toBe(records);
    expect(Number(t.properties["num-method-calls"])).toBe(records);
    expect(actions(t)).toEqual(acts);
    expect(t.events.getChild("action")!.get(0)).toMatch(/^(enter|exit|unwind)$/);
  });

  it("reads the perflib key section: threads, methods with source file and line", () => {
    const t = readMethodTrace(load("aosp-perflib_basic.trace"));
    expect(t.threads).toContainEqual({ id: 11, name: "AsyncTask #1" });
    expect(t.threads).toContainEqual({ id: 1, name: "main" });
    expect(t.properties.vm).toBe("dalvik");
    const foo = t.methods.find((m) => m.methodName === "foo")!;
    expect(foo).toMatchObject({ className: "com/test/android/traceview/Basic", signature: "()V" });
    // All of this trace's records are on AsyncTask #1; times ascend from the trace start.
    expect(new Set(t.records.threadId)).toEqual(new Set([11]));
    const wall = t.records.wall!;
    for (let i = 1; i < wall.length; i++) expect(wall[i]).toBeGreaterThanOrEqual(wall[i - 1]!);
  });

  it("reads the ART streaming format: inline threads and methods, the summary at the end", () => {
    const t = readMethodTrace(load("firefox-profiler_art-trace-streaming.trace"));
    expect(t.streaming).toBe(true);
    expect(t.dataVersion).toBe(0xf3);
    expect(t.clock).toBe("dual");
    expect(t.version).toBe(3);
    expect(t.partial).toBe(false);
    expect(t.properties.vm).toBe("art");
    expect(t.threads.find((x) => x.name === "main")).toBeDefined();
    // The first method defined inline is ZygoteInit.main with id 0 (ART prints %#x, so "0").
    expect(t.methods.find((m) => m.id === 0)).toMatchObject({
      className: "com.android.internal.os.ZygoteInit",
      methodName: "main",
    });
    const threadIds = new Set(t.threads.map((x) => x.id));
    for (const id of new Set(t.records.threadId)) expect(threadIds.has(id)).toBe(true);
    const [enters, exits] = actions(t);
    expect(enters! + exits!).toBe(t.events.numRows);
    expect(enters).toBeGreaterThan(10000);
  });

  it("parses every file in the fixtures directory except the header-only one", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".trace"));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      if (f === "aosp-perflib_header.trace") continue;
      const t = readMethodTrace(load(f));
      expect(t.events.numRows, f).toBeGreaterThan(0);
      expect(t.partial, f).toBe(false);
    }
  });

  it("rejects the header-only file, naming the placeholder text and its offset", () => {
    expect(() => readMethodTrace(load("aosp-perflib_header.trace"))).toThrow(
      /data header at byte 557.*version 25610.*text at byte 557: "SLOW\\ndata section follows/,
    );
  });

  it("rejects gzip data and text that is not a trace, saying what they look like", () => {
    expect(() => readMethodTrace(gzipSync(load("aosp-perflib_basic.trace")))).toThrow(
      /gzip-compressed data \(magic 1f 8b at byte 0/,
    );
    expect(() => readMethodTrace(new TextEncoder().encode("# tracer: nop\n#\n"))).toThrow(
      /not a method trace: systrace\/ftrace text/,
    );
    expect(() => readMethodTrace(new Uint8Array())).toThrow(/empty file/);
  });

  it("returns a partial result naming the byte offset when the data is cut mid-record", () => {
    const bytes = load("aosp-perflib_basic.trace");
    const t = readMethodTrace(bytes.subarray(0, bytes.length - 5));
    expect(t.partial).toBe(true);
    expect(t.events.numRows).toBe(8);
    expect(t.warnings.join("\n")).toMatch(
      new RegExp(`data cut short at byte ${bytes.length - 14}: 9 bytes left, a record takes 14`),
    );
  });

  it("returns a partial result when a streaming trace has no summary", () => {
    const bytes = load("firefox-profiler_art-trace-streaming.trace");
    const t = readMethodTrace(bytes.subarray(0, 500_000));
    expect(t.partial).toBe(true);
    expect(t.warnings.join("\n")).toMatch(/byte \d+/);
    expect(t.methods.length).toBeGreaterThan(0);
  });
});

describe("readMethodTrace round-trips the writer", () => {
  const threads = [
    { id: 1, name: "main" },
    { id: 7, name: "RenderThread" },
  ];
  const methods = [
    { id: 0x100, className: "a.B", methodName: "run", signature: "()V", sourceFile: "B.java" },
    { id: 0x104, className: "a.C", methodName: "draw", signature: "(I)Z" },
  ];
  const records = [
    { threadId: 1, methodId: 0x100, action: 0, threadCpuUs: 0, wallUs: 10 },
    { threadId: 7, methodId: 0x104, action: 0, threadCpuUs: 0, wallUs: 12 },
    { threadId: 1, methodId: 0x104, action: 0, threadCpuUs: 3, wallUs: 15 },
    { threadId: 1, methodId: 0x104, action: 2, threadCpuUs: 5, wallUs: 19 },
    { threadId: 7, methodId: 0x104, action: 1, threadCpuUs: 4, wallUs: 30 },
    { threadId: 1, methodId: 0x100, action: 1, threadCpuUs: 9, wallUs: 4_000_000_000 },
  ];
  it.each([
    [1, "thread-cpu", false],
    [2, "wall", false],
    [2, "thread-cpu", false],
    [3, "dual", false],
    [3, "dual", true],
    [2, "wall", true],
  ] as [1 | 2 | 3, TraceClock, boolean][])(
    "data v%i clock %s streaming %s",
    (dataVersion, clock, streaming) => {
      const spec: WriteTraceSpec = {
        dataVersion,
        clock,
        streaming,
        threads,
        methods,
        records,
        startTimeUs: 1_700_000_000_000_000,
      };
      const t = readMethodTrace(writeMethodTrace(spec));
      expect(t.partial).toBe(false);
      expect(t.warnings).toEqual([]);
      expect(t.clock).toBe(clock);
      expect(t.streaming).toBe(streaming);
      expect(t.startTimeUs).toBe(1_700_000_000_000_000);
      expect(t.threads).toEqual(threads);
      expect(t.methods).toEqual(methods);
      expect([...t.records.threadId]).toEqual(records.map((r) => r.threadId));
      expect([...t.records.methodId]).toEqual(records.map((r) => r.methodId));
      expect(t.events.getChild("action")!.toArray().length).toBe(6);
      expect([0, 1, 2, 3, 4, 5].map((i) => t.events.getChild("action")!.get(i))).toEqual([
        "enter",
        "enter",
        "enter",
        "unwind",
        "exit",
        "exit",
      ]);
      const wallNs = t.events.getChild("wall")!;
      const cpuNs = t.events.getChild("thread_cpu")!;
      if (clock === "thread-cpu") expect(wallNs.nullCount).toBe(6);
      else
        expect([...(wallNs.toArray() as BigInt64Array)]).toEqual(
          records.map((r) => BigInt(r.wallUs) * 1000n),
        );
      if (clock === "wall") expect(cpuNs.nullCount).toBe(6);
      else
        expect([...(cpuNs.toArray() as BigInt64Array)]).toEqual(
          records.map((r) => BigInt(r.threadCpuUs) * 1000n),
        );
    },
  );
});

describe("readMethodTrace under corruption (fast-check)", () => {
  const fixtures = [
    "aosp-perflib_basic.trace",
    "aosp-perflib_basic-api10.trace",
    "aosp-perflib_exception.trace",
    "aosp-perflib_mismatched.trace",
  ].map(load);
  const big = load("firefox-profiler_art-trace-streaming.trace").subarray(0, 60_000);
  const regular = load("Grigory-Rylov-android-methods-profiler_legacy.trace").subarray(0, 60_000);
  const all = [...fixtures, big, regular];
  // Never hangs, never throws anything but an Error with a message; results stay consistent.
  const check = (bytes: Uint8Array) => {
    try {
      const t = readMethodTrace(bytes);
      expect(t.events.numRows).toBe(t.records.action.length);
      const calls = buildCalls(t);
      expect(calls.numRows).toBeLessThanOrEqual(t.events.numRows);
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message.length).toBeGreaterThan(10);
    }
  };

  it("truncations", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: all.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (k, frac) => {
          const b = all[k]!;
          const cut = b.subarray(0, Math.floor(b.length * frac));
          check(cut);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("bit flips", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: all.length - 1 }),
        bitFlips({ minLength: 1, maxLength: 8 }),
        (k, flips) => {
          const b = all[k]!.slice();
          flipBits(b, flips);
          check(b);
        },
      ),
      { numRuns: 300 },
    );
  });
});
