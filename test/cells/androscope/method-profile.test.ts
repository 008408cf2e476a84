import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../cells/androscope/calls";
import { methodProfile, methodProfilePlot } from "../../../cells/androscope/method-profile";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";

const fixture = (f: string) => readMethodTrace(new Uint8Array(readFileSync(`test/fixtures/dmtrace/${f}`)));
const expected = JSON.parse(readFileSync("test/fixtures/dmtrace/dmtracedump-expected.json", "utf8")).files as Record<string, Record<string, [number, number]>>;

describe("methodProfile", () => {
  it.each(Object.keys(expected))("%s: calls and thread-CPU inclusive time per method as dmtracedump prints them", (file) => {
    const t = fixture(file);
    const rows = new Map(methodProfile(buildCalls(t), t.methods).map((r) => [r.name, r]));
    for (const [name, [calls, incUs]] of Object.entries(expected[file]!)) {
      const r = rows.get(name);
      expect(r, name).toBeDefined();
      expect([r!.calls, r!.cpuInclusive! / 1000], name).toEqual([calls, incUs]);
    }
  });

  it("counts a recursive method's inclusive time once, and sums exclusive time per class", () => {
    // f { f { g } } on one thread, wall µs: f 0..100, inner f 10..60, g 20..30.
    const methods = [
      { id: 0x10, className: "p.A", methodName: "f", signature: "()V" },
      { id: 0x14, className: "p.A", methodName: "g", signature: "()V" },
    ];
    const rec = (methodId: number, action: number, wallUs: number) => ({ threadId: 1, methodId, action, wallUs, threadCpuUs: wallUs / 2 });
    const t = readMethodTrace(
      writeMethodTrace({ dataVersion: 3, clock: "dual", threads: [{ id: 1, name: "main" }], methods, records: [rec(0x10, 0, 0), rec(0x10, 0, 10), rec(0x14, 0, 20), rec(0x14, 1, 30), rec(0x10, 1, 60), rec(0x10, 1, 100)] }),
    );
    const byMethod = methodProfile(buildCalls(t), t.methods);
    expect(byMethod.map((r) => [r.name, r.calls, r.recursiveCalls, r.inclusive, r.exclusive, r.cpuInclusive])).toEqual([
      ["p.A.f ()V", 2, 1, 100_000, 90_000, 50_000],
      ["p.A.g ()V", 1, 0, 10_000, 10_000, 5_000],
    ]);
    const byClass = methodProfile(buildCalls(t), t.methods, { by: "class" });
    expect(byClass.map((r) => [r.name, r.calls, r.inclusive, r.exclusive])).toEqual([["p.A", 3, 100_000, 100_000]]);
    expect(methodProfilePlot(byMethod).marks).toHaveLength(3);
  });

  it("filters by thread and names what it needs", () => {
    const t = fixture("aosp-perflib_basic.trace");
    expect(methodProfile(buildCalls(t), t.methods, { threadId: 1 })).toEqual([]);
    expect(methodProfile(buildCalls(t), t.methods, { threadId: 11 }).length).toBe(7);
    expect(() => methodProfile(t.events, t.methods)).toThrow(/missing column parent \(int32\) in calls/);
  });
});
