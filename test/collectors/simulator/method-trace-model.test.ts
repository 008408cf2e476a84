// The simulated phone's `am profile` trace: a window that cuts calls leaves their enter or exit out, as
// ART does; the project's reader and buildCalls (AndroScope TraceBridge §V) must rebuild the calls the
// model says are visible, flagging the cut ones.
import { describe, expect, it } from "vitest";
import { buildCallsWithRepairs } from "../../../collectors/method-trace-calls";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { simMethodTrace } from "../../../collectors/simulator/method-trace-model";
import { buildScenario } from "../../../collectors/simulator/scenarios";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { writeMethodTrace } from "../../../collectors/sources/method-trace-writer";

const S = 1e9;
const timeline = buildScenario("paper-cases", PROFILES["pixel-2"]!, 3, true);

function rebuild(from: number, to: number) {
  const t = simMethodTrace(timeline.sim, from, to, 1_700_000_000_000_000);
  const trace = readMethodTrace(writeMethodTrace(t.spec));
  const { table, repairs } = buildCallsWithRepairs(trace);
  const rows = table.toArray().map(
    (r) =>
      r.toJSON() as {
        method_id: bigint;
        thread_id: number;
        depth: number;
        synthetic_enter: boolean | null;
        synthetic_exit: boolean;
      },
  );
  return { t, trace, rows, repairs };
}

describe("simMethodTrace", () => {
  it("traced from before the first call to after the last: every task and frame, nothing cut", () => {
    const { t, trace, rows, repairs } = rebuild(0, timeline.duration);
    expect(trace.warnings).toEqual([]);
    expect(repairs).toEqual({ unmatchedAtStart: 0, popped: 0, openAtEnd: 0 });
    expect(t.calls.every((c) => c.enterRecorded && c.exitRecorded)).toBe(true);
    // frames: doFrame + performTraversals; tasks: the task's method, inside a dispatch method except on pools
    const sim = timeline.sim;
    // a thread runs one thing at a time: work that starts while its thread is busy (a main-thread message during a
    // frame) is not traced; the rest is, two calls each, one for a task on a pool (no dispatch method around it)
    const work = [
      ...sim.frames.map((f) => ({ tid: sim.pid, start: f.handle_input, end: f.sync_queued, calls: 2 })),
      ...sim.tasks.map((k) => ({
        tid: k.tid,
        start: k.started,
        end: k.ended,
        calls: k.category === "thread_pool_executor" ? 1 : 2,
      })),
    ].sort((a, b) => a.start - b.start);
    const busyUntil = new Map<number, number>();
    let expectedCalls = 0;
    for (const w of work) {
      if (w.start < (busyUntil.get(w.tid) ?? -Infinity)) continue;
      busyUntil.set(w.tid, w.end);
      expectedCalls += w.calls;
    }
    expect(expectedCalls).toBeGreaterThan(2 * sim.frames.length);
    expect(rows.length).toBe(expectedCalls);
    expect(trace.events.numRows).toBe(2 * rows.length);
    expect(Number(trace.properties["num-method-calls"])).toBe(trace.events.numRows);
    expect(trace.threads.find((th) => th.id === sim.pid)?.name).toBe("main");
  });

  it("a window inside the run: calls cut at the start get synthetic enters, at the stop synthetic exits", () => {
    const from = 2.3 * S;
    const to = 9.7 * S;
    const { t, trace, rows, repairs } = rebuild(from, to);
    expect(trace.warnings).toEqual([]);
    expect(rows.length).toBe(t.calls.length);
    const cutAtStart = t.calls.filter((c) => !c.enterRecorded);
    const cutAtStop = t.calls.filter((c) => !c.exitRecorded);
    expect(cutAtStart.length + cutAtStop.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.synthetic_enter).length).toBe(cutAtStart.length);
    expect(rows.filter((r) => r.synthetic_exit).length).toBe(cutAtStop.length);
    expect(repairs.openAtEnd).toBe(cutAtStop.length);
    // records: one per recorded end of each visible call, all inside the window
    expect(trace.events.numRows).toBe(
      t.calls.reduce((n, c) => n + Number(c.enterRecorded) + Number(c.exitRecorded), 0),
    );
    const wall = Array.from(trace.records.wall!);
    expect(Math.max(...wall)).toBeLessThanOrEqual(to - from);
    expect(wall.every((w, i) => i === 0 || w >= wall[i - 1]!)).toBe(true);
    // the calls the model says are visible are exactly those overlapping the window
    const sim = timeline.sim;
    const overlapping = sim.frames.filter((f) => f.sync_queued >= from && f.handle_input <= to).length;
    expect(t.calls.filter((c) => c.method.startsWith("android.view.Choreographer.doFrame")).length).toBe(
      overlapping,
    );
  });
});
