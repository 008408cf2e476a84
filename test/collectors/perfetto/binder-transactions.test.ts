// Binder pairing on hand-built ftrace (binder.proto field numbers), worked by hand: a nested synchronous call, a
// one-way call, and events of one call spread over two CPUs' bundles.
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { trace, type Field } from "./pb";

const txn = (ts: number, tid: number, id: number, toProc: number, reply = 0, flags = 0): Field[] => [
  { f: 1, v: ts },
  { f: 2, v: tid },
  {
    f: 50,
    m: [
      { f: 1, v: id },
      { f: 3, v: toProc },
      { f: 5, v: reply },
      { f: 6, v: 7 },
      { f: 7, v: flags },
    ],
  },
];
const rcv = (ts: number, tid: number, id: number): Field[] => [
  { f: 1, v: ts },
  { f: 2, v: tid },
  { f: 51, m: [{ f: 1, v: id }] },
];
const bundle = (cpu: number, events: Field[][]): Field[] => [
  { f: 1, m: [{ f: 1, v: cpu }, ...events.map((m) => ({ f: 2, m }))] },
];

describe("binder_transactions", () => {
  it("pairs a nested call, its replies and a one-way call across CPUs", () => {
    // A (tid 7, pid 1) calls B (tid 2) at 10; B, serving it, calls C (tid 3) at 13; C replies at 15, B gets it at
    // 16 and replies at 17; A gets that at 18. Then a one-way call from A to C at 20, received at 21.
    const bytes = trace([
      [
        {
          f: 2,
          m: [
            {
              f: 1,
              m: [
                { f: 1, v: 1 },
                { f: 3, s: "a" },
              ],
            },
            {
              f: 1,
              m: [
                { f: 1, v: 2 },
                { f: 3, s: "b" },
              ],
            },
            {
              f: 1,
              m: [
                { f: 1, v: 3 },
                { f: 3, s: "c" },
              ],
            },
            {
              f: 2,
              m: [
                { f: 1, v: 7 },
                { f: 3, v: 1 },
                { f: 2, s: "a.worker" },
              ],
            },
          ],
        },
      ],
      bundle(0, [txn(10, 7, 100, 2), rcv(18, 7, 105), txn(20, 7, 106, 3, 0, 1)]),
      bundle(1, [rcv(12, 2, 100), txn(13, 2, 101, 3), rcv(16, 2, 103), txn(17, 2, 105, 1, 1)]),
      bundle(2, [rcv(14, 3, 101), txn(15, 3, 103, 2, 1), rcv(21, 3, 106)]),
    ]);
    const imp = importPerfetto(bytes, "b.pftrace", "r");
    const rows = imp.tables.binder_transactions!.toArray().map((r: { toJSON(): Record<string, unknown> }) => {
      const x = r.toJSON();
      const n = (v: unknown) => (v === null ? null : Number(v));
      return [
        n(x.ts),
        n(x.dur),
        x.client_tid,
        x.client_pid,
        x.client_thread,
        x.server_tid,
        n(x.server_ts),
        n(x.server_dur),
        x.one_way,
      ];
    });
    expect(rows).toEqual([
      [10, 8, 7, 1, "a.worker", 2, 12, 5, false],
      [13, 3, 2, 2, null, 3, 14, 1, false],
      [20, null, 7, 1, "a.worker", 3, 21, null, true],
    ]);
  });
});
