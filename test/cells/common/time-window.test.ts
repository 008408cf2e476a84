import { describe, expect, it } from "vitest";
import { timeWindow } from "../../../cells/common/time-window";

describe("timeWindow: the one rule for a [t0, t1] ns window", () => {
  it.each([
    [null, null],
    [undefined, null],
    [
      [0, 0],
      [0, 0],
    ],
    [
      [5n, 7n],
      [5, 7],
    ],
    [
      [-3, 2.5],
      [-3, 2.5],
    ],
    [
      [2 ** 52 - 1, 2 ** 52 - 1],
      [2 ** 52 - 1, 2 ** 52 - 1],
    ],
  ] as const)("accepts case %#", (w, expected) => {
    expect(timeWindow(w as never)).toEqual(expected);
  });
  it.each([
    [[2, 1]],
    [[0, NaN]],
    [[0, Infinity]],
    [[-Infinity, 0]],
    [[0, 2 ** 52]],
    [[-(2 ** 52), 0]],
    [["a", 1]],
  ])("refuses %s, naming it", (w) => {
    expect(() => timeWindow(w as never)).toThrow(
      `invalid window: [${w[0]}, ${w[1]}] (expected [t0, t1] ns with t0 <= t1, |t| < 2^52)`,
    );
  });
});
