import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareValues, tableRows, type ColumnsLike } from "../../../workspace/app/table-rows";

/** A column table over plain arrays, shaped like an Arrow Table for what tableRows reads. */
function table(columns: Record<string, unknown[]>): ColumnsLike {
  const names = Object.keys(columns);
  return {
    numRows: columns[names[0]!]!.length,
    schema: { fields: names.map((name) => ({ name })) },
    getChild: (name) => (columns[name] ? { get: (i) => columns[name]![i] } : null),
  };
}

const runs = table({
  run_id: ["r-b", "r-a", "r-c", "r-d"],
  dur: [16_666_667n, 5_000_000n, null, 33_000_000n],
  janky: [true, false, false, true],
});

describe("tableRows", () => {
  it("keeps every row in order without a query", () => {
    expect(tableRows(runs)).toEqual([0, 1, 2, 3]);
  });
  it("sorts int64 by value, nulls last in both directions", () => {
    expect(tableRows(runs, { sort: { column: "dur", descending: false } })).toEqual([1, 0, 3, 2]);
    expect(tableRows(runs, { sort: { column: "dur", descending: true } })).toEqual([3, 0, 1, 2]);
  });
  it("sorts text and keeps ties in their order", () => {
    expect(tableRows(runs, { sort: { column: "run_id", descending: false } })).toEqual([1, 0, 2, 3]);
    expect(tableRows(runs, { sort: { column: "janky", descending: true } })).toEqual([0, 3, 1, 2]);
  });
  it("filters on the text the table shows (16.67 ms, not 16666667), case-insensitively", () => {
    expect(tableRows(runs, { filter: "16.67 ms" })).toEqual([0]);
    expect(tableRows(runs, { filter: "16666667" })).toEqual([]);
    expect(tableRows(runs, { filter: "R-C" })).toEqual([2]);
    expect(tableRows(runs, { filter: "  " })).toEqual([0, 1, 2, 3]);
  });
  it("filters then sorts", () => {
    expect(tableRows(runs, { filter: "true", sort: { column: "dur", descending: false } })).toEqual([0, 3]);
  });
  it("ignores a sort on a column the table no longer has", () => {
    expect(tableRows(runs, { sort: { column: "gone", descending: true } })).toEqual([0, 1, 2, 3]);
  });

  it("returns a permutation in non-decreasing order, stable, matching a brute-force sort", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }), { maxLength: 40 }),
        (xs) => {
          const rows = tableRows(table({ x: xs }), { sort: { column: "x", descending: false } });
          // reference: non-null values by value then index, then the nulls by index
          const expected = xs
            .map((v, i) => ({ v, i }))
            .sort((a, b) =>
              a.v === null ? (b.v === null ? a.i - b.i : 1) : b.v === null ? -1 : a.v - b.v || a.i - b.i,
            )
            .map((r) => r.i);
          expect(rows).toEqual(expected);
        },
      ),
    );
  });
});

describe("compareValues", () => {
  it.each([
    [1, 2, -1],
    [2n, 1, 1],
    [3n, 3n, 0],
    ["b", "a", 1],
    [null, 1, 1],
    [1, undefined, -1],
    [null, null, 0],
    [false, true, -1],
  ])("%s vs %s -> %i", (a, b, expected) => {
    expect(Math.sign(compareValues(a, b))).toBe(expected);
  });
});
