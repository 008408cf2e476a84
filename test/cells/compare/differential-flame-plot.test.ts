import { describe, expect, it } from "vitest";
import type { ProfileMethod } from "../../../cells/androscope/method-profile";
import { differentialProfile } from "../../../cells/compare/differential-profile";
import { differentialFlamePlot, differentialFlameRows } from "../../../cells/compare/differential-flame-plot";
import { goldenSvgMismatch, renderSvg } from "../../golden-svg";
import { callsTable, HAND_THREADS, type CallSpec } from "../androscope/call-table";

const named = (ids: Record<string, number>): ProfileMethod[] =>
  Object.entries(ids).map(([m, id]) => ({
    id,
    className: "com.example.Feed",
    methodName: m,
    signature: "()V",
  }));

/** Times ×k: the hand-worked calls (ns) as a chart-sized profile. */
const scaled = (threads: Record<number, CallSpec[]>, k: number): Record<number, CallSpec[]> => {
  const re = ([id, a, b, kids = []]: CallSpec): CallSpec => [id, a * k, b * k, kids.map(re)];
  return Object.fromEntries(Object.entries(threads).map(([t, tops]) => [t, tops.map(re)]));
};

// The same pair as differential-profile.test.ts: baseline the hand-worked calls on 2 frames; candidate A { B { B }, D }
// on 1 frame, with C gone. Times ×10,000, so A is 10 ms.
const CANDIDATE: Record<number, CallSpec[]> = {
  7: [
    [
      10,
      0,
      1500,
      [
        [20, 100, 600, [[20, 200, 300]]],
        [40, 700, 900],
      ],
    ],
  ],
};
const profile = differentialProfile(
  { calls: callsTable(scaled(HAND_THREADS, 1e4), "before"), methods: named({ A: 1, B: 2, C: 3 }), frames: 2 },
  { calls: callsTable(scaled(CANDIDATE, 1e4), "after"), methods: named({ A: 10, B: 20, D: 40 }), frames: 1 },
);

describe("differentialFlamePlot", () => {
  it("lays out each path inside its caller, as wide as both sides' mean inclusive time, worked by hand", () => {
    const rows = differentialFlameRows(profile, { minShare: 0 });
    const ms = (v: number) => Math.round(v * 1e4) / 1e4;
    expect(rows.map((r) => [r.depth, r.label, ms(r.x1), ms(r.x2), Math.round(r.change * 100) / 100])).toEqual(
      [
        [0, "(all threads)", 0, 10.025, 197.03], // (5.05 + 15) / 2 ms; (15 - 5.05) / 5.05
        [1, "Feed.A()", 0, 10, 200],
        [2, "Feed.B()", 0, 2.5375, 6566.67], // (0.075 + 5) / 2
        [3, "Feed.B()", 0, 0.5, Infinity], // only the candidate recurses
        [2, "Feed.C()", 2.5375, 4.0375, -100],
        [3, "Feed.B()", 2.5375, 2.5425, -100],
        [2, "Feed.D()", 4.0375, 5.0375, Infinity],
        [1, "Feed.C()", 10, 10.025, -100], // thread 2's C, after thread 1's A
      ],
    );
    expect(rows[1]!.title).toBe(
      "com.example.Feed.A ()V\ninclusive per frame: baseline 5.000 ms, candidate 15.000 ms (+200.0 %)" +
        "\nself per frame: baseline 1.925 ms, candidate 8.000 ms\ncalls per frame: baseline 0.50, candidate 1.00",
    );
  });

  it("sizes by one side when asked, leaving out what that side never ran and the narrowest paths", () => {
    const candidate = differentialFlameRows(profile, { width: "candidate", minShare: 0 });
    expect(candidate.map((r) => r.label)).toEqual([
      "(all threads)",
      "Feed.A()",
      "Feed.B()",
      "Feed.B()",
      "Feed.D()",
    ]);
    // 0.002 of the root's mean: A/C/B (0.005 ms of 10.025) goes, thread 2's C (0.025 ms) stays
    expect(differentialFlameRows(profile).map((r) => r.id)).not.toContain(5);
    expect(() => differentialFlameRows(profile, { width: "max" as never })).toThrow("invalid width: max");
  });

  it("matches its golden SVG, drawn without a Plot warning", () => {
    const chart = differentialFlamePlot(profile);
    expect(renderSvg(chart)).toMatch(/<rect/);
    expect(goldenSvgMismatch("compare-differential-flame", chart)).toBe("");
  });
});
