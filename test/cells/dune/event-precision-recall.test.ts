import { describe, expect, it } from "vitest";
import { eventPrecisionRecall, eventPrecisionRecallPlot } from "../../../cells/dune/event-precision-recall";

// DUNE Table 3 (§8.4): janks injected at events #3, #7, #16, #17; flagged events and the printed precision/recall.
const table3: [number[], number, number][] = [
  [[3, 5, 7, 16], 0.75, 0.75],
  [[2, 3, 5, 7, 16, 17], 0.67, 1],
  [[3, 5, 7, 16], 0.75, 0.75],
  [[3, 6, 11, 16, 17], 0.6, 0.75],
  [[3, 11, 16, 17], 0.75, 0.75],
  [[3, 6, 11, 16, 17], 0.6, 0.75],
  [[1, 6, 7, 8, 9, 12, 14, 16, 17, 18], 0.3, 0.75],
  [[1, 2, 3, 7, 9, 11, 12, 17, 18], 0.33, 0.75],
  [[1, 2, 3, 6, 7, 8, 9, 11, 12, 16, 17, 18], 0.33, 1],
  [[3, 4, 6, 7, 8, 16, 18], 0.43, 0.75],
  [[3, 4, 6, 7, 8, 16, 18], 0.43, 0.75],
  [[3, 6, 7, 8, 16, 17], 0.67, 1],
  [[2, 3, 4, 6, 7, 8, 16, 17, 18], 0.44, 1],
  [[1, 2, 3, 4, 6, 7, 8, 16, 17, 18], 0.4, 1],
  [[2, 3, 4, 6, 7, 8, 16, 17, 18], 0.44, 1],
];
const janky = [3, 7, 16, 17];

describe("eventPrecisionRecall", () => {
  it.each(table3.map((row, i) => [`T${i + 1}`, ...row] as const))(
    "reproduces Table 3 %s",
    (_t, flagged, precision, recall) => {
      const r = eventPrecisionRecall(flagged, janky);
      expect(+r.precision.toFixed(2)).toBe(precision);
      expect(r.recall).toBe(recall);
    },
  );
  it("averages to the paper's precision 0.53 (recall from the printed rows averages 0.85; the paper prints 0.83)", () => {
    const rs = table3.map(([f]) => eventPrecisionRecall(f, janky));
    expect(+(rs.reduce((s, r) => s + r.precision, 0) / rs.length).toFixed(2)).toBe(0.53);
    expect(rs.reduce((s, r) => s + r.recall, 0) / rs.length).toBeCloseTo(0.85, 10);
  });
  it("lists true positives, false positives and missed events; duplicates count once", () => {
    const r = eventPrecisionRecall([16, 5, 3, 3], janky);
    expect(r).toMatchObject({ truePositives: [3, 16], falsePositives: [5], missed: [7, 17], recall: 0.5 });
    expect(r.precision).toBeCloseTo(2 / 3, 12);
  });
  it("is NaN where the ratio is undefined", () => {
    expect(eventPrecisionRecall([], janky).precision).toBeNaN();
    expect(eventPrecisionRecall([1], []).recall).toBeNaN();
    expect(eventPrecisionRecall([1], []).precision).toBe(0);
  });
  it("plots precision and recall per test", () => {
    const p = eventPrecisionRecallPlot(table3.map(([f]) => eventPrecisionRecall(f, janky)));
    expect((p.layout.x as { domain: string[] }).domain).toHaveLength(15);
  });
});
