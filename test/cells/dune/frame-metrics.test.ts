import { describe, expect, it } from "vitest";
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../../../bundle/table-builder";
import { frameMetrics, frameMetricsPlot, toRunMetrics } from "../../../cells/dune/frame-metrics";

const t = (ms: number) => BigInt(Math.round(ms * 1e6));

// Run "a" (Android 12+): frames every 16 ms with FrameDeadline = IntendedVsync + 16.6 ms, except frame 3 which
// only has FrameInterval 11.1 ms (a 90 Hz interval). Durations (ms): 10, 20, 16, 12, 30, 8.
function runA(): Table {
  const start = [0, 16, 32, 48, 64, 80].map((x) => t(1000 + x));
  const dur = [10, 20, 16, 12, 30, 8].map(t);
  return makeBundleTable("frames", "a", {
    intended_vsync: start,
    duration: dur,
    deadline: dur.map(() => 0n),
    jank: dur.map(() => false),
    frame_deadline: start.map((s, i) => (i === 3 ? null : s + t(16.6))),
    frame_interval: start.map((_, i) => (i === 3 ? t(11.1) : null)),
  });
}
// Run "b" (older Android): no deadline columns; 90 Hz per the runs table, so the deadline is 11.11 ms.
function runB(): Table {
  const dur = [5, 12, 11, 40].map(t);
  return makeBundleTable("frames", "b", {
    intended_vsync: [t(0), t(11), t(22), t(33)],
    duration: dur,
    deadline: dur.map(() => 0n),
    jank: dur.map(() => false),
  });
}
// Run "c": nothing known but the fixed 16.67 ms.
function runC(): Table {
  const dur = [16.6, 16.7, 50].map(t);
  return makeBundleTable("frames", "c", {
    intended_vsync: [t(0), t(20), t(40)],
    duration: dur,
    deadline: dur.map(() => 0n),
    jank: dur.map(() => false),
  });
}
const runs = makeBundleTable("runs", "b", {
  app: ["x"],
  refresh_hz: [90],
  complete: [true],
  synthetic: [true],
  warnings: [[]],
});
// Two UI events in run a: at 1020 ms (between frames 1 and 2) and exactly at frame 4's IntendedVsync (1064 ms).
const events = makeBundleTable("ui_events", "a", {
  ts: [t(1064), t(1020)],
  seq: [1, 0],
  kind: ["scroll", "click"],
});

describe("frameMetrics", () => {
  const [a, b, c] = frameMetrics(runA().concat(runB(), runC()), { uiEvents: events, runs });
  it("judges each frame by its own deadline where framestats has one, and says which rule it used", () => {
    // a: janky = 20 > 16.6, 30 > 16.6, and frame 3 (12 > 11.1 by FrameInterval); 16 <= 16.6 is not
    expect(a!.runId).toBe("a");
    expect(a!.rule).toEqual({ frame_deadline: 5, frame_interval: 1, refresh_rate: 0, fixed: 0 });
    expect(Array.from(a!.timeline.jank)).toEqual([0, 1, 0, 1, 1, 0]);
    expect(a!.total).toMatchObject({ frames: 6, jankyFrames: 3, smoothRatio: 0.5 });
    expect(a!.total.meanFrameMs).toBeCloseTo(16, 9);
    // nearest rank: p90 = 6th of 6 sorted (ceil(5.4)), p99 = 6th
    expect(a!.total.p90FrameMs).toBe(30);
    expect(a!.ruleText).toBe(
      "jank = duration > deadline, deadline from FrameDeadline − IntendedVsync (Android 12+) for 5 frames; FrameInterval (vsync period) for 1 frame",
    );
  });
  it("falls back to the device refresh rate, then to 16.67 ms", () => {
    expect(b!.rule).toEqual({ frame_deadline: 0, frame_interval: 0, refresh_rate: 4, fixed: 0 });
    expect(Array.from(b!.timeline.jank)).toEqual([0, 1, 0, 1]);
    expect(b!.timeline.deadlineMs[0]).toBeCloseTo(11.111, 3);
    expect(c!.rule.fixed).toBe(3);
    expect(Array.from(c!.timeline.jank)).toEqual([0, 1, 1]);
    expect(c!.ruleText).toContain("fixed deadline 16.67 ms for 3 frames");
    const paper = frameMetrics(runC(), { fixedDeadlineMs: 16 });
    expect(paper[0]!.total.jankyFrames).toBe(3);
  });
  it("splits a run into N + 1 buckets around its N UI events (§5.2.2)", () => {
    expect(a!.buckets.map((x) => x.frames)).toEqual([2, 2, 2]);
    expect(a!.buckets.map((x) => x.jankyFrames)).toEqual([1, 1, 1]);
    expect(a!.buckets[0]!.event).toBeNull();
    expect(a!.buckets[1]!.event).toEqual({ ts: 1_020_000_000, seq: 0, kind: "click" });
    expect(a!.buckets[2]!.meanFrameMs).toBe(19);
    // runs without events have one bucket, equal to the whole run
    expect(b!.buckets).toHaveLength(1);
    expect(b!.buckets[0]).toMatchObject({ ...b!.total, bucket: 0 });
  });
  it("defines empty buckets as 0 frames with NaN ratios", () => {
    const ev = makeBundleTable("ui_events", "c", {
      ts: [t(100), t(200)],
      seq: [0, 1],
      kind: ["click", "click"],
    });
    const [r] = frameMetrics(runC(), { uiEvents: ev });
    expect(r!.buckets.map((x) => x.frames)).toEqual([3, 0, 0]);
    expect(r!.buckets[2]!.smoothRatio).toBeNaN();
    expect(r!.buckets[2]!.p99FrameMs).toBeNaN();
  });
  it("leaves out frames with non-zero Flags only when asked", () => {
    const dur = [10, 40, 12].map(t);
    const table = makeBundleTable("frames", "f", {
      intended_vsync: [t(0), t(16), t(32)],
      duration: dur,
      deadline: dur.map(() => 0n),
      jank: dur.map(() => false),
      flags: [0n, 8n, null], // 8 = SkippedFrame (bit 3)
    });
    expect(frameMetrics(table)[0]!.total).toMatchObject({ frames: 3, jankyFrames: 1 });
    const [r] = frameMetrics(table, { skipFlaggedFrames: true });
    expect(r!.total).toMatchObject({ frames: 2, jankyFrames: 0, smoothRatio: 1 });
    expect(r!.flaggedSkipped).toBe(1);
    expect(r!.ruleText).toContain("1 frame(s) with non-zero Flags left out");
  });
  it("leaves out suspect frames by default, counts them, and includes them when asked", () => {
    // 10 ms, a -1,501 s frame and a 9-year frame (both real in a multi-window dump), 20 ms; deadline 16.67 ms.
    const dur = [t(10), -1_501_000_000_000n, 288_208_950_000_000_000n, t(20)];
    const table = makeBundleTable("frames", "s", {
      intended_vsync: [t(0), t(16), t(32), t(48)],
      duration: dur,
      deadline: dur.map(() => 0n),
      jank: dur.map(() => false),
      suspect: [null, "negative duration", "duration 288208950 s", null],
    });
    const [r] = frameMetrics(table);
    expect(r!.suspectSkipped).toBe(2);
    expect(r!.total).toMatchObject({ frames: 2, jankyFrames: 1, smoothRatio: 0.5, meanFrameMs: 15 });
    expect(r!.ruleText).toContain("2 suspect frame(s) (impossible times) left out");
    const [all] = frameMetrics(table, { includeSuspect: true });
    expect(all!.suspectSkipped).toBe(0);
    expect(all!.total.frames).toBe(4);
    // (10 - 1,501,000 + 288,208,950,000 + 20) ms / 4, the mean the default keeps out
    expect(all!.total.meanFrameMs).toBeCloseTo((10 - 1_501_000 + 288_208_950_000 + 20) / 4, 0);
  });
  it("treats a frames table without a suspect column as all plausible", () => {
    expect(frameMetrics(runC())[0]!.suspectSkipped).toBe(0);
  });
  it("feeds deviationLabels through toRunMetrics", () => {
    const m = toRunMetrics(a!);
    expect(m).toMatchObject({ frames: 6, smoothRatio: 0.5 });
    expect(m.events!.map((e) => e.frames)).toEqual([2, 2, 2]);
  });
  it("names a missing column and the table", () => {
    const bad = makeBundleTable("ui_events", "a", { ts: [t(1)], seq: [0], kind: ["click"] });
    expect(() => frameMetrics(bad)).toThrow("missing column intended_vsync (int64) in frames");
  });
  it("plots frames over time with the deadline and the UI events (Figure 3)", () => {
    const p = frameMetricsPlot([a!, b!, c!], { runId: "a" });
    expect(p.title).toBe("a: 6 frames, 3 janky (" + a!.ruleText + ")");
    // Frames as rules of their duration coloured by jank; the deadline, the event rules and their names over them.
    expect([p.mark, p.x, p.stroke, (p.data as unknown[]).length]).toEqual(["ruleX", "t", "jank", 6]);
    expect(p.over!.map((l) => l.mark)).toEqual(["line", "ruleX", "text"]);
    expect(() => frameMetricsPlot([a!], { runId: "zz" })).toThrow("no frame metrics for run zz");
  });
});
