// GrowableColumns against plain arrays: any run of adds, appends and front drops leaves the same rows, whatever
// the starting room (1 row grows many times).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GrowableColumns } from "../../../collectors/sources/perfetto/growable-columns";

type Cols = { x: Float64Array; k: Uint8Array };
const make = (room: number) =>
  new GrowableColumns<Cols>({ x: new Float64Array(room), k: new Uint8Array(room) });
const rowsOf = (g: GrowableColumns<Cols>) => {
  const v = g.views();
  return { x: [...v.x], k: [...v.k] };
};

type Op = { add: number } | { append: number[] } | { drop: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ add: fc.double({ noNaN: true }) }),
  fc.record({ append: fc.array(fc.integer({ min: -1e6, max: 1e6 }), { maxLength: 40 }) }),
  fc.record({ drop: fc.nat(50) }),
);

describe("GrowableColumns", () => {
  it("property: adds, appends and drops keep what plain arrays keep", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 60 }), (room, ops) => {
        const g = make(room);
        const ref = { x: [] as number[], k: [] as number[] };
        const put = (into: GrowableColumns<Cols>, x: number) => {
          const i = into.add();
          into.cols.x[i] = x;
          // k keeps the row's index in its own Uint8Array, to see that every column moves together.
          into.cols.k[i] = i & 0xff;
        };
        for (const o of ops) {
          if ("add" in o) {
            ref.k.push(ref.x.length & 0xff);
            ref.x.push(o.add);
            put(g, o.add);
          } else if ("append" in o) {
            const other = make(room);
            o.append.forEach((x, j) => {
              put(other, x);
              ref.x.push(x);
              ref.k.push(j & 0xff);
            });
            g.append(other);
          } else {
            const head = Math.min(o.drop, g.n);
            g.dropFront(head);
            ref.x.splice(0, head);
            ref.k.splice(0, head);
          }
          expect(g.n).toBe(ref.x.length);
        }
        expect(rowsOf(g)).toEqual(ref);
      }),
    );
  });

  it("append into an empty one takes the other's arrays; into a full one copies after its rows", () => {
    const empty = make(4);
    const other = make(2);
    // add() before reading cols: a growing add replaces the arrays.
    for (const x of [1, 2, 3]) {
      const i = other.add();
      other.cols.x[i] = x;
    }
    const taken = other.cols.x;
    empty.append(other);
    expect(empty.cols.x).toBe(taken);
    expect(rowsOf(empty).x).toEqual([1, 2, 3]);
    const more = make(1);
    more.add();
    more.cols.x[0] = 9;
    empty.append(more);
    expect(rowsOf(empty).x).toEqual([1, 2, 3, 9]);
  });

  it("doubles its room when full, and grows to what an append needs when that is more", () => {
    const g = make(2);
    for (let i = 0; i < 3; i++) g.add();
    expect(g.cols.x.length).toBe(4);
    expect(g.cols.k.length).toBe(4);
    const big = make(16);
    for (let i = 0; i < 10; i++) big.add();
    g.append(big);
    expect(g.n).toBe(13);
    expect(g.cols.x.length).toBe(13);
  });
});
