// Reused tids against a brute-force model: threads are created (task_newtask, CLONE_THREAD, from a main thread of
// process 100 or 200), switched in and freed (sched_process_free) at random; every running interval must carry the
// pid of the lifetime its tid had at that moment, and the threads table one row per named lifetime.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { threadStateRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto } from "../../../collectors/sources/perfetto/trace-decoder";
import { trace, type Field } from "./pb";

const CLONE_THREAD = 0x10000;
const TIDS = [1000, 1001, 1002];
const PROCS = [100, 200];

// ftrace event fields (ftrace_event.proto): timestamp 1, pid 2, sched_switch 4, task_newtask 235,
// sched_process_free 240.
const newtask = (ts: number, src: number, tid: number, comm: string): Field[] => [
  { f: 1, v: ts },
  { f: 2, v: src },
  {
    f: 235,
    m: [
      { f: 1, v: tid },
      { f: 2, s: comm },
      { f: 3, v: CLONE_THREAD },
    ],
  },
];
const free = (ts: number, tid: number): Field[] => [
  { f: 1, v: ts },
  { f: 240, m: [{ f: 2, v: tid }] },
];
const switchTo = (ts: number, tid: number, comm: string): Field[] => [
  { f: 1, v: ts },
  {
    f: 4,
    m: [
      { f: 5, s: comm },
      { f: 6, v: tid },
    ],
  },
];

const step = fc.record({
  kind: fc.constantFrom("spawn" as const, "run" as const, "free" as const),
  tid: fc.constantFrom(...TIDS),
  proc: fc.constantFrom(...PROCS),
});

describe("process tracker: tid reuse", () => {
  it("property: each running interval has the pid of its tid's lifetime at that time", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const events: Field[][] = [];
        const live = new Map<number, { pid: number; comm: string }>();
        const expected: string[] = [];
        const lifetimes: string[] = [];
        let ts = 10;
        let n = 0;
        for (const s of steps) {
          ts += 10;
          if (s.kind === "spawn" && !live.has(s.tid)) {
            const comm = `t${n++}`;
            live.set(s.tid, { pid: s.proc, comm });
            lifetimes.push(`${s.tid} ${s.proc} ${comm}`);
            events.push(newtask(ts, s.proc, s.tid, comm));
          } else if (s.kind === "run" && live.has(s.tid)) {
            const t = live.get(s.tid)!;
            expected.push(`${ts} ${s.tid} ${t.pid} ${t.comm}`);
            events.push(switchTo(ts, s.tid, t.comm));
          } else if (s.kind === "free" && live.has(s.tid)) {
            live.delete(s.tid);
            events.push(free(ts, s.tid));
          }
        }
        // process_tree (packet 2) at ts 1: processes 100 and 200 (pid 1, cmdline 3).
        const tree: Field[] = [
          { f: 8, v: 1 },
          {
            f: 2,
            m: PROCS.map((pid) => ({
              f: 1,
              m: [
                { f: 1, v: pid },
                { f: 3, s: `proc${pid}` },
              ],
            })),
          },
        ];
        const d = decodePerfetto(
          trace([tree, [{ f: 1, m: [{ f: 1, v: 0 }, ...events.map((e) => ({ f: 2, m: e }))] }]]),
        );
        const running = threadStateRows(d.rows.threadStateColumns ?? emptyStates())
          .filter((r) => r.state === "running")
          .map((r) => `${r.ts} ${r.tid} ${r.pid} ${r.thread_name}`);
        expect(running).toEqual(expected);
        const threads = d.rows.threads.filter((t) => t.tid >= 1000).map((t) => `${t.tid} ${t.pid} ${t.name}`);
        expect(threads).toEqual([...lifetimes].sort((a, b) => Number(a.slice(0, 4)) - Number(b.slice(0, 4))));
      }),
      { numRuns: 150 },
    );
  });
});

function emptyStates() {
  return {
    length: 0,
    ts: new Float64Array(0),
    dur: new Float64Array(0),
    tid: new Int32Array(0),
    state: new Uint8Array(0),
    cpu: new Int32Array(0),
    names: new Map(),
    pids: new Map(),
  };
}
