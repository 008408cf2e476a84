// CallBuilder's calls table against a brute-force pairing written from the rules alone (AndroScope TraceBridge
// §V-1, §V-2): one stack per thread over the event list, depths from parent chains, children found by search.
import fc from "fast-check";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { CallBuilder } from "../../collectors/method-trace-calls";
import type { TraceRecords } from "../../collectors/sources/method-trace";

interface Ev {
  tid: number;
  m: number;
  /** 0 enter, 1 exit, 2 unwind */
  a: number;
  wall: number;
  cpu: number;
}

interface Call {
  m: number;
  made: number;
  parent: Call | null;
  enter: number;
  exit: number;
  cpuEnter: number;
  cpuExit: number;
  syntheticExit: boolean;
  syntheticEnter: boolean;
  unwound: boolean;
}

/** The calls table's columns as the rules give them, and the repairs counted. */
function reference(events: Ev[]) {
  const threads = new Map<number, { calls: Call[]; stack: Call[]; last: Ev }>();
  const repairs = { unmatchedAtStart: 0, popped: 0, openAtEnd: 0 };
  const close = (c: Call, e: Ev, synthetic: boolean) => {
    c.exit = e.wall;
    c.cpuExit = e.cpu;
    c.syntheticExit = synthetic;
  };
  const call = (
    t: { calls: Call[] },
    m: number,
    parent: Call | null,
    enter: number,
    cpuEnter: number,
  ): Call => {
    const c: Call = {
      m,
      made: t.calls.length,
      parent,
      enter,
      exit: enter,
      cpuEnter,
      cpuExit: cpuEnter,
      syntheticExit: false,
      syntheticEnter: false,
      unwound: false,
    };
    t.calls.push(c);
    return c;
  };
  for (const e of events) {
    let t = threads.get(e.tid);
    if (!t) threads.set(e.tid, (t = { calls: [], stack: [], last: e }));
    t.last = e;
    if (e.a === 0) {
      t.stack.push(call(t, e.m, t.stack.at(-1) ?? null, e.wall, e.cpu));
      continue;
    }
    const k = t.stack.map((c) => c.m).lastIndexOf(e.m);
    if (k < 0) {
      // Began before tracing: everything open is closed, and a call from time 0 takes every caller-less call.
      while (t.stack.length) (close(t.stack.pop()!, e, true), repairs.popped++);
      const orphans = t.calls.filter((c) => c.parent === null);
      const c = call(t, e.m, null, 0, 0);
      for (const o of orphans) o.parent = c;
      c.syntheticEnter = true;
      c.unwound = e.a === 2;
      close(c, e, false);
      repairs.unmatchedAtStart++;
      continue;
    }
    while (t.stack.length > k + 1) (close(t.stack.pop()!, e, true), repairs.popped++);
    const c = t.stack.pop()!;
    close(c, e, false);
    c.unwound = e.a === 2;
  }
  const out: Record<string, unknown[]> = {};
  const put = (name: string, v: unknown) => (out[name] ??= []).push(v);
  const rowOf = new Map<Call, number>();
  const depth = (c: Call): number => (c.parent ? depth(c.parent) + 1 : 0);
  const ordered: [number, Call][] = [];
  for (const [tid, t] of threads) {
    while (t.stack.length) (close(t.stack.pop()!, t.last, true), repairs.openAtEnd++);
    const mine = [...t.calls].sort((x, y) => x.enter - y.enter || depth(x) - depth(y) || x.made - y.made);
    for (const c of mine) (rowOf.set(c, ordered.length), ordered.push([tid, c]));
  }
  const all = ordered.map(([, c]) => c);
  for (const [tid, c] of ordered) {
    const children = all.filter((o) => o.parent === c);
    const inclusive = c.exit - c.enter;
    const cpu = c.cpuExit - c.cpuEnter;
    put("call_id", rowOf.get(c));
    put("thread_id", tid);
    put("method_id", BigInt(c.m));
    put("depth", depth(c));
    put("parent", c.parent ? rowOf.get(c.parent)! : null);
    put("enter", BigInt(c.enter));
    put("exit", BigInt(c.exit));
    put("inclusive", BigInt(inclusive));
    put("exclusive", BigInt(inclusive - children.reduce((s, o) => s + o.exit - o.enter, 0)));
    put("cpu_inclusive", BigInt(cpu));
    put("cpu_exclusive", BigInt(cpu - children.reduce((s, o) => s + o.cpuExit - o.cpuEnter, 0)));
    put("synthetic_exit", c.syntheticExit);
    put("synthetic_enter", c.syntheticEnter);
    put("unwound", c.unwound);
  }
  return { columns: out, repairs };
}

/** Each table's rows read as it comes (the builder reuses its arrays for the next table). */
function columns(tables: Iterable<Table>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of tables)
    for (const r of t.toArray()) {
      const row = r.toJSON() as Record<string, unknown>;
      for (const f of t.schema.fields) if (f.name !== "run_id") (out[f.name] ??= []).push(row[f.name]);
    }
  return out;
}

function records(events: Ev[]): TraceRecords {
  return {
    threadId: Int32Array.from(events, (e) => e.tid),
    methodId: Float64Array.from(events, (e) => e.m),
    action: Uint8Array.from(events, (e) => e.a),
    wall: Float64Array.from(events, (e) => e.wall),
    threadCpu: Float64Array.from(events, (e) => e.cpu),
  };
}

const slice = (r: TraceRecords, from: number, to: number): TraceRecords => ({
  threadId: r.threadId.subarray(from, to),
  methodId: r.methodId.subarray(from, to),
  action: r.action.subarray(from, to),
  wall: r.wall!.subarray(from, to),
  threadCpu: r.threadCpu!.subarray(from, to),
});

/** Events on up to 3 interleaved threads over 4 methods: exits that match the top, a frame further down (the
 * frames above unwound without exits) or nothing (the call began before tracing); times in µs steps that tie
 * and, unless `ordered`, go back; `odd` times are not whole µs. */
const traces = fc
  .record({
    steps: fc.array(
      fc.record({
        tid: fc.integer({ min: 1, max: 3 }),
        m: fc.constantFrom(0x10, 0x14, 0x18, 0x1c),
        a: fc.constantFrom(0, 0, 0, 1, 1, 2),
        dWall: fc.integer({ min: -3, max: 4 }),
        dCpu: fc.integer({ min: -2, max: 3 }),
      }),
      { maxLength: 80 },
    ),
    ordered: fc.boolean(),
    odd: fc.boolean(),
  })
  .map(({ steps, ordered, odd }) => {
    let wall = 1000;
    const cpu = new Map<number, number>();
    return steps.map((s): Ev => {
      wall += ordered ? Math.abs(s.dWall) : s.dWall;
      const c = (cpu.get(s.tid) ?? 100) + (ordered ? Math.abs(s.dCpu) : s.dCpu);
      cpu.set(s.tid, c);
      const ns = (us: number) => us * 1000 + (odd ? 7 : 0);
      return { tid: s.tid, m: s.m, a: s.a, wall: ns(wall), cpu: ns(c) };
    });
  });

describe("CallBuilder against a brute-force pairing (fast-check)", () => {
  it("exits without entries, unwinds, longjmps, clocks going back and interleaved threads: every column", () => {
    fc.assert(
      fc.property(
        traces,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.integer({ min: 1, max: 40 }),
        (events, cuts, batchRows) => {
          const want = reference(events);
          const r = records(events);
          const b = new CallBuilder(true);
          const at = [0, ...cuts.map((c) => c % (events.length + 1)).sort((x, y) => x - y), events.length];
          for (let k = 1; k < at.length; k++) b.add(slice(r, at[k - 1]!, at[k]!));
          const done = b.finish();
          expect(done.repairs).toEqual(want.repairs);
          const got = columns(done.tables("trace", batchRows));
          if (events.length === 0) expect(got.call_id ?? []).toEqual([]);
          else expect(got).toEqual(want.columns);
        },
      ),
      { numRuns: 400 },
    );
  });
});
