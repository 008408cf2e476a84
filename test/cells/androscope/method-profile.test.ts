import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import { methodProfile, methodProfilePlot } from "../../../cells/androscope/method-profile";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";
import { makeBundleTable } from "../../../bundle/table-builder";
import { attributeCounters } from "../../../cells/androscope/counter-attribution";
import { callsTable, flatten, type CallSpec, type FlatCall } from "./call-table";

const fixture = (f: string) => readMethodTrace(new Uint8Array(readFileSync(`test/fixtures/dmtrace/${f}`)));
const expected = JSON.parse(readFileSync("test/fixtures/dmtrace/dmtracedump-expected.json", "utf8"))
  .files as Record<string, Record<string, [number, number]>>;

describe("methodProfile", () => {
  it.each(Object.keys(expected))(
    "%s: calls and thread-CPU inclusive time per method as dmtracedump prints them",
    (file) => {
      const t = fixture(file);
      const rows = new Map(methodProfile(buildCalls(t), t.methods).map((r) => [r.name, r]));
      for (const [name, [calls, incUs]] of Object.entries(expected[file]!)) {
        const r = rows.get(name);
        expect(r, name).toBeDefined();
        expect([r!.calls, r!.cpuInclusive! / 1000], name).toEqual([calls, incUs]);
      }
    },
  );

  it("counts a recursive method's inclusive time once, and sums exclusive time per class", () => {
    // f { f { g } } on one thread, wall µs: f 0..100, inner f 10..60, g 20..30.
    const methods = [
      { id: 0x10, className: "p.A", methodName: "f", signature: "()V" },
      { id: 0x14, className: "p.A", methodName: "g", signature: "()V" },
    ];
    const rec = (methodId: number, action: number, wallUs: number) => ({
      threadId: 1,
      methodId,
      action,
      wallUs,
      threadCpuUs: wallUs / 2,
    });
    const t = readMethodTrace(
      writeMethodTrace({
        dataVersion: 3,
        clock: "dual",
        threads: [{ id: 1, name: "main" }],
        methods,
        records: [
          rec(0x10, 0, 0),
          rec(0x10, 0, 10),
          rec(0x14, 0, 20),
          rec(0x14, 1, 30),
          rec(0x10, 1, 60),
          rec(0x10, 1, 100),
        ],
      }),
    );
    const byMethod = methodProfile(buildCalls(t), t.methods);
    expect(
      byMethod.map((r) => [r.name, r.calls, r.recursiveCalls, r.inclusive, r.exclusive, r.cpuInclusive]),
    ).toEqual([
      ["p.A.f ()V", 2, 1, 100_000, 90_000, 50_000],
      ["p.A.g ()V", 1, 0, 10_000, 10_000, 5_000],
    ]);
    const byClass = methodProfile(buildCalls(t), t.methods, { by: "class" });
    expect(byClass.map((r) => [r.name, r.calls, r.inclusive, r.exclusive])).toEqual([
      ["p.A", 3, 100_000, 100_000],
    ]);
    // Inclusive bars (editable), exclusive bars over them, in ms: 100 µs = 0.1 ms, 90 µs = 0.09 ms.
    const chart = methodProfilePlot(byMethod);
    expect(
      (chart.data as { inclusive: number; exclusive: number }[]).map((d) => [d.inclusive, d.exclusive]),
    ).toEqual([
      [0.1, 0.09],
      [0.01, 0.01],
    ]);
    expect([chart.mark, chart.x, chart.over!.map((l) => l.mark)]).toEqual([
      "barX",
      "inclusive",
      ["barX", "ruleX"],
    ]);
  });

  it("filters by thread and names what it needs", () => {
    const t = fixture("aosp-perflib_basic.trace");
    expect(methodProfile(buildCalls(t), t.methods, { threadId: 1 })).toEqual([]);
    expect(methodProfile(buildCalls(t), t.methods, { threadId: 11 }).length).toBe(7);
    expect(() => methodProfile(t.events, t.methods)).toThrow(/missing column parent \(int32\) in calls/);
  });
});

describe("methodProfile with a window and counters", () => {
  // thread 1: A 0..100 { B 20..60 { A 30..40 } }, thread 2: B 50..90 (cpu time = wall / 2)
  const threads: Record<number, CallSpec[]> = {
    1: [[1, 0, 100, [[2, 20, 60, [[1, 30, 40]]]]]],
    2: [[2, 50, 90]],
  };
  const names = [1, 2].map((id) => ({ id, className: "p.C", methodName: "AB"[id - 1]!, signature: "()V" }));
  const calls = callsTable(threads, "t", 0.5);
  const hpc = makeBundleTable("hpc_samples", "t", {
    ts: [50, 100, 50, 100],
    counter: ["cpu-cycles", "cpu-cycles", "instructions", "instructions"],
    value: Float64Array.from([1000, 1000, 500, 2000]),
  });

  it("cuts times to the window: only overlapping calls, exclusive time minus the callees' shown time", () => {
    const rows = methodProfile(calls, names, { window: [35, 55] });
    const get = (n: string) => rows.find((r) => r.name === `p.C.${n} ()V`)!;
    // A: outer 35..55 (20), recursive inner 35..40 (5); B: 35..55 on thread 1 (20), 50..55 on thread 2 (5)
    expect([get("A").calls, get("A").recursiveCalls, get("A").inclusive, get("A").exclusive]).toEqual([
      2,
      1,
      20,
      0 + 5,
    ]);
    expect([get("B").calls, get("B").inclusive, get("B").exclusive]).toEqual([2, 25, 15 + 5]);
    // thread CPU scaled by the shown share: outer A 100 wall / 50 cpu, 20 shown -> 10
    expect(get("A").cpuInclusive).toBeCloseTo(10, 9);
    // a window after every call shows nothing
    expect(methodProfile(calls, names, { window: [200, 300] })).toEqual([]);
    expect(() => methodProfile(calls, names, { window: [3, 1] })).toThrow(/invalid window/);
  });

  it("sums attributed counters per method and gives IPC = instructions / cpu-cycles (outermost calls)", () => {
    const counters = attributeCounters(calls, hpc);
    const rows = methodProfile(calls, names, { counters });
    for (const r of rows) {
      const ids = r.name === "p.C.A ()V" ? 1 : 2;
      // brute force: each outermost call's inclusive counters
      const flat = flatten(threads);
      const outer = flat
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => c.method === ids && !ancestors(flat, c).some((a) => a.method === ids));
      const sum = (name: string) => outer.reduce((s, { i }) => s + counters.inclusive[name]![i]!, 0);
      expect(r.counters!["cpu-cycles"]).toBeCloseTo(sum("cpu-cycles"), 9);
      expect(r.ipc).toBeCloseTo(sum("instructions") / sum("cpu-cycles"), 9);
    }
    // (50, 100]: both threads run, each at half CPU (thread-CPU = wall / 2), 45 weighted ns of 50:
    // B on thread 2 gets 1000 * (40 * 0.5) / 50
    const b2 = counters.exclusive["cpu-cycles"]![3]!;
    expect(b2).toBeCloseTo(400, 9);
    expect(methodProfile(calls, names).every((r) => r.counters === null && r.ipc === null)).toBe(true);
    expect(() => methodProfile(calls, names, { counters, window: [0, 10] })).toThrow(/different window/);
    const windowed = attributeCounters(calls, hpc, { window: [0, 10] });
    // (0, 50] cut to 0..10 counts 200; A's own 0..10 at half CPU covers half of it
    expect(
      methodProfile(calls, names, { counters: windowed, window: [0, 10] })[0]!.counters!["cpu-cycles"],
    ).toBeCloseTo(100, 9);
  });
});

function ancestors(flat: FlatCall[], c: FlatCall): FlatCall[] {
  const out: FlatCall[] = [];
  for (let p = c.parent; p >= 0; p = flat[p]!.parent) out.push(flat[p]!);
  return out;
}
