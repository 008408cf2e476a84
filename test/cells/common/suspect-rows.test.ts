import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { suspectRows } from "../../../cells/common/suspect-rows";

describe("suspectRows", () => {
  it("marks the rows whose suspect is set", () => {
    const t = makeBundleTable("frames", "r", {
      intended_vsync: [1n, 2n, 3n],
      duration: [1n, -1n, 2n],
      deadline: [1n, 1n, 1n],
      jank: [false, false, true],
      suspect: [null, "negative duration", null],
    });
    expect(Array.from(suspectRows(t)!)).toEqual([0, 1, 0]);
  });
  it("is null without the column, and names a mistyped one", () => {
    expect(suspectRows(tableFromArrays({ intended_vsync: new BigInt64Array([1n]) }))).toBeNull();
    expect(() => suspectRows(tableFromArrays({ suspect: new Int32Array([1]) }))).toThrow(
      "column suspect in frames is int32, expected utf8",
    );
  });
});
