import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCalls, CallBuilder, type ThreadCalls } from "../../collectors/method-trace-calls";
import { CallWalk, walkSums } from "../../collectors/method-trace-call-walk";
import { Paged } from "../../collectors/paged-column";
import { readMethodTrace, type TraceRecords } from "../../collectors/sources/method-trace";

/** Each thread's pairing state, as FinishedCalls gets it (its private field: what the walk is given). */
function threadsOf(r: TraceRecords): ThreadCalls[] {
  const b = new CallBuilder(r.threadCpu !== null);
  b.add(r);
  return (b.finish() as unknown as { threads: ThreadCalls[] }).threads;
}

const sums = () => [
  new Paged<Uint32Array | Float64Array>(Uint32Array, 1000),
  new Paged<Uint32Array | Float64Array>(Uint32Array, 1000),
];

/** The walk's rows: [call number, depth, parent row] each, or null when the thread needs sorting. */
function walked(t: ThreadCalls): [number, number, number][] | null {
  const w = new CallWalk(t);
  const [sum, cpu] = sums();
  if (!walkSums(t, w, sum!, cpu!)) return null;
  return Array.from({ length: t.count }, () => (w.step(), [w.id, w.depth, w.parentRow]));
}

const records = (ev: [number, number, number, number][]): TraceRecords => ({
  threadId: Int32Array.from(ev, () => 1),
  methodId: Float64Array.from(ev, (e) => e[0]),
  action: Uint8Array.from(ev, (e) => e[1]),
  wall: Float64Array.from(ev, (e) => e[2] * 1000),
  threadCpu: Float64Array.from(ev, (e) => e[3] * 1000),
});

describe("CallWalk", () => {
  it("mismatched.trace: the calls made for exits without entries first, last made first, then the rest as made", () => {
    const trace = readMethodTrace(
      new Uint8Array(readFileSync("test/fixtures/dmtrace/aosp-perflib_mismatched.trace")),
    );
    const [t] = threadsOf(trace.records);
    const rows = walked(t!)!;
    // Tracing began five frames deep (perflib's VmTraceParserTest tree for it is in method-trace-calls.test.ts).
    const adopted = Array.from({ length: t!.count }, (_, i) => i).filter((i) => t!.flags.at(i) & 2);
    expect(adopted.length).toBe(5);
    expect(rows.slice(0, 5).map((r) => r[0])).toEqual([...adopted].reverse());
    expect(rows.slice(5).map((r) => r[0])).toEqual(
      Array.from({ length: t!.count }, (_, i) => i).filter((i) => !adopted.includes(i)),
    );
    // Depths and parent rows are the sorted table's (buildCalls: one thread, so its rows are this thread's).
    const table = buildCalls(trace);
    const parent = table.getChild("parent")!;
    expect(rows.map((r) => [r[1], r[2]])).toEqual(
      Array.from({ length: table.numRows }, (_, i) => [
        table.getChild("depth")!.get(i),
        parent.isValid(i) ? parent.get(i) : -1,
      ]),
    );
  });

  it("one sum slot for each call made for an exit without entry and each other call with children", () => {
    // a { b { } c { d } }: a and c have children; e exits without entry, so it is a call that encloses a.
    const A = 4,
      B = 8,
      C = 12,
      D = 16,
      E = 20;
    const [t] = threadsOf(
      records([
        [A, 0, 1, 1],
        [B, 0, 2, 2],
        [B, 1, 3, 3],
        [C, 0, 4, 4],
        [D, 0, 5, 5],
        [D, 1, 6, 6],
        [C, 1, 7, 7],
        [A, 1, 8, 8],
        [E, 1, 9, 9],
      ]),
    );
    const w = new CallWalk(t!);
    expect(w.slots).toBe(3);
    const [sum, cpu] = sums();
    expect(walkSums(t!, w, sum!, cpu!)).toBe(true);
    // Slots in row order: e (a, 7 µs), then a (b 1 + c 3), then c (d 1).
    expect([0, 1, 2].map((s) => sum!.at(s) / 1000)).toEqual([7, 4, 1]);
  });

  it("leaves a thread whose clock went back, or whose calls tie at one time in falling depth, to the sort", () => {
    const A = 4,
      B = 8,
      C = 12;
    // b's entry is before a's: the clock went back.
    const back = records([
      [A, 0, 10, 1],
      [B, 0, 5, 2],
      [B, 1, 11, 3],
      [A, 1, 12, 4],
    ]);
    // a { b } c all at 5 µs: the table puts c (depth 0) before b (depth 1), against the order made.
    const tie = records([
      [A, 0, 5, 1],
      [B, 0, 5, 2],
      [B, 1, 5, 3],
      [A, 1, 5, 4],
      [C, 0, 5, 5],
      [C, 1, 5, 6],
    ]);
    expect(walked(threadsOf(back)[0]!)).toBeNull();
    expect(walked(threadsOf(tie)[0]!)).toBeNull();
    const rows = (r: TraceRecords) => {
      const table = buildCalls({ records: r } as Parameters<typeof buildCalls>[0]);
      return Array.from({ length: table.numRows }, (_, i) => Number(table.getChild("method_id")!.get(i)));
    };
    expect(rows(back)).toEqual([B, A]);
    expect(rows(tie)).toEqual([A, C, B]);
    // The same calls a µs apart are walked, as made.
    const apart = records([
      [A, 0, 5, 1],
      [B, 0, 6, 2],
      [B, 1, 7, 3],
      [A, 1, 8, 4],
      [C, 0, 9, 5],
      [C, 1, 10, 6],
    ]);
    expect(walked(threadsOf(apart)[0]!)).toEqual([
      [0, 0, -1],
      [1, 1, 0],
      [2, 0, -1],
    ]);
  });
});
