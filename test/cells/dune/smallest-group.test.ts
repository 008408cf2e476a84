// The smallest comparison group that can flag a new run (DUNE §5.3.3, the new run among the values), worked by
// hand with Hyndman-Fan type 6 quartiles and OF = 1.5, then held against random histories.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  deviationLabels,
  deviationLabelsPlot,
  iqrFlags,
  smallestFlaggingGroup,
} from "../../../cells/dune/index";

describe("smallestFlaggingGroup", () => {
  it("is 5 at the paper's OF 1.5: with h = 4 equal values c and a new x, Q3 sits halfway to x", () => {
    // n = 5: Q3 at position 4.5 = c + (x − c)/2, Q1 = c, IQR = (x − c)/2: x − Q3 = IQR, never > 1.5·IQR.
    expect(iqrFlags([0, 0, 0, 0, 1e9]).flags[4]).toBe(0);
    // n = 6: Q3 at position 5.25 = c + (x − c)/4 = IQR: x − Q3 = 3/4 (x − c) > 1.5 · 1/4 (x − c).
    expect(iqrFlags([0, 0, 0, 0, 0, 1]).flags[5]).toBe(1);
    expect(smallestFlaggingGroup()).toBe(5);
  });

  it("no history of fewer runs flags a new run, whatever the values", () => {
    const h = smallestFlaggingGroup();
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: h - 1 }),
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        (history, x) => iqrFlags([...history, x]).flags[history.length] === 0,
      ),
      { numRuns: 2000 },
    );
  });

  it("grows with OF: a larger factor needs more runs", () => {
    expect(smallestFlaggingGroup({ outlierFactor: 3 })).toBeGreaterThan(smallestFlaggingGroup());
  });
});

describe("deviationLabels on a small group", () => {
  const run = (frames: number, sdk: string) => ({ context: { sdk }, metrics: { frames } });
  const history = [100, 101, 99, 100].map((f) => run(f, "13"));
  it("says the group is too small, and the chart's title says so, where the label can only be N", () => {
    const r = deviationLabels(run(1e9, "13"), history, { dimensions: ["sdk"], metrics: ["frames"] });
    expect([r.coarse.label, r.members.length, r.smallestGroup, r.tooSmall]).toEqual(["N", 4, 5, true]);
    expect(JSON.stringify(deviationLabelsPlot(r))).toContain(
      "compared with 4 runs: fewer than 5 can flag nothing",
    );
  });
  it("one more run and the same value is flagged", () => {
    const r = deviationLabels(run(1e9, "13"), [...history, run(100, "13")], {
      dimensions: ["sdk"],
      metrics: ["frames"],
    });
    expect([r.coarse.label, r.tooSmall]).toEqual(["Outlier+", false]);
  });
});
