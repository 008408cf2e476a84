import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { buildCalls, CallBuilder } from "../../collectors/method-trace-calls";
import { readMethodTrace, type MethodTrace, type TraceRecords } from "../../collectors/sources/method-trace";
import { writeMethodTrace, type TraceRecordSpec } from "../../collectors/sources/method-trace-writer";
import { makeBundleTable } from "../../bundle/table-builder";

interface Row {
  call_id: number;
  thread_id: number;
  method_id: bigint;
  depth: number;
  parent: number | null;
  enter: bigint;
  exit: bigint;
  inclusive: bigint;
  exclusive: bigint;
  cpu_inclusive: bigint | null;
  cpu_exclusive: bigint | null;
  synthetic_exit: boolean;
  synthetic_enter: boolean | null;
  unwound: boolean | null;
}
const rows = (t: Table): Row[] => t.toArray().map((r) => r.toJSON() as unknown as Row);

const fixture = (f: string) => readMethodTrace(new Uint8Array(readFileSync(`test/fixtures/dmtrace/${f}`)));

/** The call tree of one thread as indented "Class.method: sig" lines, in perflib's naming. */
function tree(trace: MethodTrace, threadName: string): string[] {
  const tid = trace.threads.find((t) => t.name === threadName)!.id;
  const names = new Map(trace.methods.map((m) => [m.id, `${m.className}.${m.methodName}: ${m.signature}`]));
  return rows(buildCalls(trace))
    .filter((r) => r.thread_id === tid)
    .map((r) => "  ".repeat(r.depth) + names.get(Number(r.method_id)));
}

describe("buildCalls on the perflib traces (trees as VmTraceParserTest expects them)", () => {
  it("basic.trace: tracing began inside startMethodTracing; stopMethodTracing never returns", () => {
    expect(tree(fixture("aosp-perflib_basic.trace"), "AsyncTask #1")).toEqual([
      "android/os/Debug.startMethodTracing: (Ljava/lang/String;)V",
      "  android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V",
      "    dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V",
      "com/test/android/traceview/Basic.foo: ()V",
      "  com/test/android/traceview/Basic.bar: ()I",
      "android/os/Debug.stopMethodTracing: ()V",
      "  dalvik/system/VMDebug.stopMethodTracing: ()V",
    ]);
  });

  it("mismatched.trace: calls begun before tracing adopt the calls made inside them (baz under bar)", () => {
    expect(tree(fixture("aosp-perflib_mismatched.trace"), "AsyncTask #1")).toEqual([
      "com/test/android/traceview/MisMatched.foo: ()V",
      "  com/test/android/traceview/MisMatched.bar: ()V",
      "    android/os/Debug.startMethodTracing: (Ljava/lang/String;)V",
      "      android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V",
      "        dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V",
      "    com/test/android/traceview/MisMatched.baz: ()I",
      "android/os/Debug.stopMethodTracing: ()V",
      "  dalvik/system/VMDebug.stopMethodTracing: ()V",
    ]);
  });

  it("exception.trace: frames left by unwind records close like exits and are marked unwound", () => {
    const t = fixture("aosp-perflib_exception.trace");
    expect(tree(t, "AsyncTask #1")).toEqual([
      "android/os/Debug.startMethodTracing: (Ljava/lang/String;)V",
      "  android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V",
      "    dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V",
      "com/test/android/traceview/Exceptions.foo: ()V",
      "  com/test/android/traceview/Exceptions.bar: ()V",
      "    com/test/android/traceview/Exceptions.baz: ()V",
      "      java/lang/RuntimeException.<init>: ()V",
      "        java/lang/Exception.<init>: ()V",
      "          java/lang/Throwable.<init>: ()V",
      "            java/util/Collections.emptyList: ()Ljava/util/List;",
      "            java/lang/Throwable.fillInStackTrace: ()Ljava/lang/Throwable;",
      "              java/lang/Throwable.nativeFillInStackTrace: ()Ljava/lang/Object;",
      "android/os/Debug.stopMethodTracing: ()V",
      "  dalvik/system/VMDebug.stopMethodTracing: ()V",
    ]);
    const names = new Map(t.methods.map((m) => [m.id, m.methodName]));
    const unwound = rows(buildCalls(t))
      .filter((r) => r.unwound)
      .map((r) => names.get(Number(r.method_id)));
    expect(unwound).toEqual(["foo", "bar", "baz"]);
  });

  it("every call has entry <= exit in both clocks (perflib testCallDurations), and children nest inside parents", () => {
    for (const f of [
      "aosp-perflib_basic.trace",
      "aosp-perflib_mismatched.trace",
      "aosp-perflib_exception.trace",
      "Grigory-Rylov-android-methods-profiler_legacy.trace",
    ]) {
      const r = rows(buildCalls(fixture(f)));
      for (const c of r) {
        expect(c.enter <= c.exit, f).toBe(true);
        expect(c.cpu_inclusive! >= 0n, f).toBe(true);
        if (c.parent !== null) {
          const p = r[c.parent]!;
          expect(p.depth, f).toBe(c.depth - 1);
          expect(p.enter <= c.enter && c.exit <= p.exit, f).toBe(true);
        }
      }
    }
  });
});

const M = { a: 0x10, b: 0x14, c: 0x18, d: 0x1c };
function trace(records: TraceRecordSpec[]): MethodTrace {
  const methods = Object.entries(M).map(([n, id]) => ({
    id,
    className: "X",
    methodName: n,
    signature: "()V",
  }));
  return readMethodTrace(
    writeMethodTrace({
      dataVersion: 3,
      clock: "dual",
      threads: [
        { id: 1, name: "main" },
        { id: 2, name: "t2" },
      ],
      methods,
      records,
    }),
  );
}
const ev = (
  threadId: number,
  m: number,
  action: number,
  wallUs: number,
  threadCpuUs = wallUs,
): TraceRecordSpec => ({ threadId, methodId: m, action, wallUs, threadCpuUs });

describe("buildCalls on hand-made traces", () => {
  it("pairs per thread with inclusive and exclusive times in both clocks", () => {
    // main: a[10..50] { b[12..20], c[25..45] }, t2 interleaved: d[15..30]; thread CPU = wall / 2.
    const recs = [
      ev(1, M.a, 0, 10, 5),
      ev(1, M.b, 0, 12, 6),
      ev(2, M.d, 0, 15, 1),
      ev(1, M.b, 1, 20, 10),
      ev(1, M.c, 0, 25, 12),
      ev(2, M.d, 1, 30, 8),
      ev(1, M.c, 1, 45, 22),
      ev(1, M.a, 1, 50, 25),
    ];
    const r = rows(buildCalls(trace(recs)));
    expect(
      r.map((c) => [
        c.thread_id,
        Number(c.method_id),
        c.depth,
        c.parent,
        c.enter,
        c.exit,
        c.inclusive,
        c.exclusive,
        c.cpu_inclusive,
        c.cpu_exclusive,
        c.synthetic_exit,
      ]),
    ).toEqual([
      [1, M.a, 0, null, 10_000n, 50_000n, 40_000n, 12_000n, 20_000n, 6_000n, false],
      [1, M.b, 1, 0, 12_000n, 20_000n, 8_000n, 8_000n, 4_000n, 4_000n, false],
      [1, M.c, 1, 0, 25_000n, 45_000n, 20_000n, 20_000n, 10_000n, 10_000n, false],
      [2, M.d, 0, null, 15_000n, 30_000n, 15_000n, 15_000n, 7_000n, 7_000n, false],
    ]);
    expect(r.map((c) => c.call_id)).toEqual([0, 1, 2, 3]);
  });

  it("longjmp: an exit below the top closes the frames above it at the same time, marked synthetic (§V-2)", () => {
    // a { b { c { d  ... exit a at 40: b, c, d never returned.
    const r = rows(
      buildCalls(
        trace([
          ev(1, M.a, 0, 10),
          ev(1, M.b, 0, 12),
          ev(1, M.c, 0, 14),
          ev(1, M.d, 0, 16),
          ev(1, M.a, 1, 40),
        ]),
      ),
    );
    expect(r.map((c) => [Number(c.method_id), c.depth, c.exit, c.synthetic_exit])).toEqual([
      [M.a, 0, 40_000n, false],
      [M.b, 1, 40_000n, true],
      [M.c, 2, 40_000n, true],
      [M.d, 3, 40_000n, true],
    ]);
    expect(r.map((c) => c.exclusive)).toEqual([2_000n, 2_000n, 2_000n, 24_000n]);
  });

  it("exits without entries become calls from the trace start; calls open at the end close at the thread's last record", () => {
    // Tracing began inside a: b runs, a exits; then c is entered and never exits; t2's last record is at 70.
    const r = rows(
      buildCalls(
        trace([
          ev(1, M.b, 0, 20),
          ev(1, M.b, 1, 30),
          ev(1, M.a, 1, 35),
          ev(1, M.c, 0, 40),
          ev(2, M.d, 0, 50),
          ev(1, M.d, 0, 60),
          ev(2, M.d, 1, 70),
        ]),
      ),
    );
    expect(
      r.map((c) => [
        c.thread_id,
        Number(c.method_id),
        c.depth,
        c.parent,
        c.enter,
        c.exit,
        c.synthetic_enter,
        c.synthetic_exit,
      ]),
    ).toEqual([
      [1, M.a, 0, null, 0n, 35_000n, true, false],
      [1, M.b, 1, 0, 20_000n, 30_000n, false, false],
      [1, M.c, 0, null, 40_000n, 60_000n, false, true],
      [1, M.d, 1, 2, 60_000n, 60_000n, false, true],
      [2, M.d, 0, null, 50_000n, 70_000n, false, false],
    ]);
  });

  it("reads the events table when the trace has no typed records (a bundle read back)", () => {
    const t = fixture("aosp-perflib_exception.trace");
    const e = t.events;
    const copy = makeBundleTable("method_events", "trace", {
      thread_id: e.getChild("thread_id")!.toArray() as Int32Array,
      method_id: e.getChild("method_id")!.toArray() as BigInt64Array,
      action: Array.from({ length: e.numRows }, (_, i) => e.getChild("action")!.get(i) as string),
      wall: e.getChild("wall")!.toArray() as BigInt64Array,
      thread_cpu: e.getChild("thread_cpu")!.toArray() as BigInt64Array,
    });
    const fromTable = rows(buildCalls({ ...t, events: copy, records: undefined as never }));
    expect(fromTable).toEqual(rows(buildCalls(t)));
  });
});

describe("buildCalls against a brute-force reference (fast-check)", () => {
  // Random well-nested call trees per thread, serialised as enter/exit records and interleaved.
  interface Node {
    m: number;
    children: Node[];
  }
  const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.record({
      m: fc.constantFrom(M.a, M.b, M.c, M.d),
      children: fc.oneof(
        { maxDepth: 5, depthIdentifier: "tree" },
        fc.constant([] as Node[]),
        fc.array(tie("node"), { maxLength: 3 }),
      ),
    }),
  })).node;

  it("well-nested traces: one call per enter, times and depths as in the tree, no synthetic exits", () => {
    fc.assert(
      fc.property(
        fc.array(node, { minLength: 1, maxLength: 4 }),
        fc.array(node, { maxLength: 3 }),
        fc.array(fc.boolean(), { maxLength: 200 }),
        (f1, f2, picks) => {
          // Reference: preorder of each forest with depth, enter and exit in clock ticks.
          const expected: [number, number, number, number, number][] = [];
          const serial = (forest: Node[], tid: number) => {
            const out: { m: number; a: number }[] = [];
            const walk = (n: Node, depth: number) => {
              const slot = expected.length;
              expected.push([tid, n.m, depth, out.length, -1]);
              out.push({ m: n.m, a: 0 });
              for (const c of n.children) walk(c, depth + 1);
              expected[slot]![4] = out.length;
              out.push({ m: n.m, a: 1 });
            };
            for (const n of forest) walk(n, 0);
            return out;
          };
          const s1 = serial(f1, 1);
          const s2 = serial(f2, 2);
          // Each thread's k-th record is at time k µs (own clock per thread); interleave by the picks.
          const recs: TraceRecordSpec[] = [];
          let i = 0,
            j = 0,
            p = 0;
          while (i < s1.length || j < s2.length) {
            const take1 =
              j >= s2.length || (i < s1.length && (picks[p++ % Math.max(1, picks.length)] ?? true));
            if (take1) (recs.push(ev(1, s1[i]!.m, s1[i]!.a, i, i)), i++);
            else (recs.push(ev(2, s2[j]!.m, s2[j]!.a, j, j)), j++);
          }
          const r = rows(buildCalls(trace(recs)));
          // Rows come thread by thread in order of first appearance.
          const first = recs[0]!.threadId;
          const ordered = [
            ...expected.filter((e) => e[0] === first),
            ...expected.filter((e) => e[0] !== first),
          ];
          expect(
            r.map((c) => [
              c.thread_id,
              Number(c.method_id),
              c.depth,
              Number(c.enter) / 1000,
              Number(c.exit) / 1000,
            ]),
          ).toEqual(ordered);
          expect(r.every((c) => !c.synthetic_exit && !c.synthetic_enter)).toBe(true);
          // Exclusive times of a thread add up to its outermost calls' inclusive time.
          for (const tid of [1, 2]) {
            const mine = r.filter((c) => c.thread_id === tid);
            const ex = mine.reduce((s, c) => s + c.exclusive, 0n);
            const top = mine.filter((c) => c.depth === 0).reduce((s, c) => s + c.inclusive, 0n);
            expect(ex).toBe(top);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("buildCalls agrees with AOSP dmtracedump", () => {
  // dmtracedump reads the first time of each record (thread CPU in dual-clock files) and counts a method's
  // inclusive time over its outermost calls only; the expected numbers are its output (SOURCES.md).
  const expected = JSON.parse(readFileSync("test/fixtures/dmtrace/dmtracedump-expected.json", "utf8"))
    .files as Record<string, Record<string, [number, number]>>;
  it.each(Object.keys(expected))("%s: per-method call counts and inclusive times", (file) => {
    const t = fixture(file);
    const c = buildCalls(t);
    const names = new Map(t.methods.map((m) => [m.id, `${m.className}.${m.methodName} ${m.signature}`]));
    const mid = c.getChild("method_id")!.toArray() as BigInt64Array;
    const parent = c.getChild("parent")!;
    const inc = c.getChild("cpu_inclusive")!.toArray() as BigInt64Array;
    const agg = new Map<string, [number, number]>();
    for (let i = 0; i < c.numRows; i++) {
      let p = parent.isValid(i) ? (parent.get(i) as number) : -1;
      let recursive = false;
      while (p >= 0 && !recursive) {
        recursive = mid[p] === mid[i];
        p = parent.isValid(p) ? (parent.get(p) as number) : -1;
      }
      const name = names.get(Number(mid[i])) ?? "(unknown)";
      const a = agg.get(name) ?? [0, 0];
      a[0]++;
      if (!recursive) a[1] += Number(inc[i]) / 1000;
      agg.set(name, a);
    }
    const want = expected[file]!;
    expect(Object.keys(want).length).toBeGreaterThan(5);
    for (const [name, v] of Object.entries(want)) expect(agg.get(name), name).toEqual(v);
  });
});

describe("CallBuilder: records in batches", () => {
  const slice = (r: TraceRecords, from: number, to: number): TraceRecords => ({
    threadId: r.threadId.subarray(from, to),
    methodId: r.methodId.subarray(from, to),
    action: r.action.subarray(from, to),
    wall: r.wall && r.wall.subarray(from, to),
    threadCpu: r.threadCpu && r.threadCpu.subarray(from, to),
  });
  /** Each column's values, table after table (cheaper to compare than row objects). */
  const columns = (tables: Iterable<Table>): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {};
    for (const t of tables)
      for (const f of t.schema.fields) (out[f.name] ??= []).push(...t.getChild(f.name)!.toArray());
    return out;
  };
  const inBatches = (r: TraceRecords, cuts: number[], batchRows: number) => {
    const b = new CallBuilder(r.threadCpu !== null);
    const at = [0, ...cuts.sort((x, y) => x - y), r.action.length];
    for (let k = 1; k < at.length; k++) b.add(slice(r, at[k - 1]!, at[k]!));
    return columns(b.finish().tables("trace", batchRows));
  };
  const legacy = fixture("Grigory-Rylov-android-methods-profiler_legacy.trace");

  it("cut anywhere and written in tables of any size, gives buildCalls' rows (property)", () => {
    const expected = columns([buildCalls(legacy)]);
    const n = legacy.records.action.length;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: n }), { maxLength: 6 }),
        fc.integer({ min: 700, max: 9000 }),
        (cuts, batchRows) => {
          expect(inBatches(legacy.records, cuts, batchRows)).toEqual(expected);
        },
      ),
      { numRuns: 15 },
    );
  });

  it("a thread out of entry order written after another, in tables of 1 to 4 rows: rows and parents across them", () => {
    // t2 d[5..8] first; then t1 b[20..30] inside a that began before tracing (exits at 35), then c[40..45].
    const r = trace([
      ev(2, M.d, 0, 5),
      ev(2, M.d, 1, 8),
      ev(1, M.b, 0, 20),
      ev(1, M.b, 1, 30),
      ev(1, M.a, 1, 35),
      ev(1, M.c, 0, 40),
      ev(1, M.c, 1, 45),
    ]).records;
    // Rows by thread (t2 first), then entry: d; a (made after b, entered at the trace start), b under a; c.
    const want = {
      call_id: [0, 1, 2, 3],
      thread_id: [2, 1, 1, 1],
      method_id: [M.d, M.a, M.b, M.c].map(BigInt),
      depth: [0, 0, 1, 0],
      inclusive: [3_000n, 35_000n, 10_000n, 5_000n],
      exclusive: [3_000n, 25_000n, 10_000n, 5_000n],
    };
    for (const batchRows of [1, 2, 3, 4]) {
      const got = inBatches(r, [3], batchRows);
      for (const [name, v] of Object.entries(want)) expect(got[name], `${name} in ${batchRows}s`).toEqual(v);
      const b = new CallBuilder(true);
      b.add(r);
      // Each table read before the next is taken: their arrays are reused.
      const parents: (number | null)[] = [];
      for (const t of b.finish().tables("trace", batchRows)) parents.push(...rows(t).map((c) => c.parent));
      expect(parents, `parents in ${batchRows}s`).toEqual([null, null, 1, null]);
    }
  });

  it("times that are not whole µs, method ids past u4 or thread ids past u2 arriving after compact ones stay exact", () => {
    const r = legacy.records;
    const n = r.action.length;
    const half = n >> 1;
    // Shift the second half's times by 1 ns and make its method ids 2^33 larger: the state widens mid-way.
    const odd = (a: Float64Array | null, by: number) =>
      a && Float64Array.from(a, (v, i) => (i >= half ? v + by : v));
    const shifted: TraceRecords = {
      ...r,
      threadId: Int32Array.from(r.threadId, (v, i) => (i >= half ? v + 70_000 : v)),
      methodId: Float64Array.from(r.methodId, (v, i) => (i >= half ? v + 2 ** 33 : v)),
      wall: odd(r.wall, 1),
      threadCpu: odd(r.threadCpu, 1),
    };
    const whole = buildCalls({ ...legacy, records: shifted });
    const made = rows(whole);
    expect(made.some((c) => c.method_id > 2n ** 33n && c.enter % 1000n === 1n && c.thread_id > 70_000)).toBe(
      true,
    );
    // Independent of the builder: each thread's calls are its enter records, plus one per exit without an enter.
    const enters = (tid: number) =>
      shifted.action.filter((a, i) => a === 0 && shifted.threadId[i] === tid).length;
    const tid = made.find((c) => c.thread_id > 70_000)!.thread_id;
    expect(made.filter((c) => c.thread_id === tid && !c.synthetic_enter).length).toBe(enters(tid));
    expect(inBatches(shifted, [half], 1000)).toEqual(columns([whole]));
  });
});
