// AndroScope §V's case traces: written by the trace writer and read back, the longjmp trace loses exactly the exits
// Fig. 11 says and the reader closes them at the setjmp caller's exit; the single-CPU schedule never runs two
// threads at once, and each thread's CPU clock is the sum of the slices it ran (checked against a brute force).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCallsWithRepairs } from "../../../collectors/method-trace-calls";
import {
  contendedFrameTrace,
  longjmpTrace,
  type TraceScenario,
} from "../../../collectors/simulator/scenarios-androscope";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";

const read = (s: TraceScenario) =>
  readMethodTrace(
    writeMethodTrace({
      dataVersion: 3,
      clock: "dual",
      threads: s.threads,
      methods: s.methods,
      records: s.records,
    }),
  );
const name = (s: TraceScenario, id: number) => {
  const m = s.methods.find((x) => x.id === id)!;
  return `${m.className}.${m.methodName}`;
};

/** Enters minus exits per method over the whole trace. */
function unbalanced(s: TraceScenario): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of s.records)
    out[name(s, r.methodId)] = (out[name(s, r.methodId)] ?? 0) + (r.action === 0 ? 1 : -1);
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0));
}

describe("longjmpTrace (§V-2, Fig. 11)", () => {
  it("a corrupt image loses the exits of decode_mcu and jpeg_read_scanlines, once each; valid ones lose none", () => {
    const bad = longjmpTrace(3, true);
    const broken = (bad.truth.culprit.broken as unknown[]).length;
    expect(broken).toBe(3); // images 1, 4 and 7 of 9
    expect(unbalanced(bad)).toEqual({
      "__native__.decode_mcu": broken,
      "__native__.jpeg_read_scanlines": broken,
    });
    expect(unbalanced(longjmpTrace(3, false))).toEqual({});
  });

  it("read back, the lost frames get dummy exits at jpeg_decode_with_recovery's exit", () => {
    const s = longjmpTrace(3, true);
    const trace = read(s);
    const { table, repairs } = buildCallsWithRepairs(trace);
    const col = (c: string) => Array.from(table.getChild(c)!.toArray() as ArrayLike<unknown>);
    const [method, parent, exit, synthetic] = ["method_id", "parent", "exit", "synthetic_exit"].map(col);
    const repaired = synthetic!.flatMap((v, i) => (v ? [i] : []));
    expect(repaired).toHaveLength(6);
    expect(repairs.popped).toBe(6);
    for (const i of repaired) {
      let p = parent![i] as number;
      while (synthetic![p]) p = parent![p] as number;
      expect(name(s, Number(method![p]))).toBe("__native__.jpeg_decode_with_recovery");
      expect(exit![i]).toBe(exit![p]);
    }
  });
});

describe("contendedFrameTrace (§V-3, Fig. 12)", () => {
  /** Per thread, the thread-CPU time at its last record, and the busy time the schedule gave it (ground truth). */
  const check = (s: TraceScenario) => {
    const byThread = new Map<number, { wall: number; cpu: number }[]>();
    for (const r of s.records)
      byThread.set(r.threadId, [
        ...(byThread.get(r.threadId) ?? []),
        { wall: r.wallUs!, cpu: r.threadCpuUs! },
      ]);
    for (const list of byThread.values())
      for (let i = 1; i < list.length; i++) {
        // a thread's CPU clock never runs faster than the wall clock, and neither goes back
        expect(list[i]!.wall).toBeGreaterThanOrEqual(list[i - 1]!.wall);
        expect(list[i]!.cpu - list[i - 1]!.cpu).toBeLessThanOrEqual(list[i]!.wall - list[i - 1]!.wall + 1);
      }
    // one CPU: the threads' CPU times together fit in the trace's wall time
    const span = Math.max(...s.records.map((r) => r.wallUs!)) - Math.min(...s.records.map((r) => r.wallUs!));
    const cpu = [...byThread.values()].reduce((a, l) => a + l.at(-1)!.cpu - l[0]!.cpu, 0);
    expect(cpu).toBeLessThanOrEqual(span + byThread.size);
    // the UI thread's loop is still running when tracing stops (the reader closes it at the end)
    expect(unbalanced(s)).toEqual({ "android.os.Looper.loop": 1 });
  };

  it("contended: doFrame's wall time exceeds its CPU time; background: they are equal", () => {
    for (const [contended, expectSwitched] of [
      [true, true],
      [false, false],
    ] as const) {
      const s = contendedFrameTrace(5, contended);
      check(s);
      const { table } = buildCallsWithRepairs(read(s));
      const m = Array.from(table.getChild("method_id")!.toArray() as ArrayLike<bigint | number>);
      const inc = table.getChild("inclusive")!.toArray() as BigInt64Array;
      const cpu = table.getChild("cpu_inclusive")!.toArray() as BigInt64Array;
      let wall = 0;
      let ran = 0;
      m.forEach((id, i) => {
        if (name(s, Number(id)) !== "android.view.Choreographer.doFrame") return;
        wall += Number(inc[i]);
        ran += Number(cpu[i]);
      });
      if (expectSwitched) expect(ran / wall).toBeLessThan(0.8);
      else expect(Math.abs(ran - wall)).toBeLessThanOrEqual(12 * 2000); // µs rounding of two records a frame
    }
  });

  it("keeps each thread's clocks consistent for any seed (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.boolean(), (seed, contended) =>
        check(contendedFrameTrace(seed, contended, 4, 80)),
      ),
      { numRuns: 25 },
    );
  });
});
