import { describe, expect, it } from "vitest";
import type { BoundSql, TimelineBox, TimelineQuerySource } from "../../../cells/common/timeline-lod";
import { fitName, timelinePlot } from "../../../workspace/notebook/timeline-plot";
import { JANK_COLOR } from "../../../charts/chart-theme";
import { TimelineView, timeline } from "../../../workspace/notebook/timeline-view";
import { inputsHeldBack } from "../../../workspace/notebook/view-input";

const slices = [
  { track: "frames", start: 0, end: 16e6, name: "frame 1", color: "on time" },
  { track: "frames", start: 16e6, end: 50e6, name: "App Deadline Missed", color: "jank" },
  { track: "main", depth: 1, start: 2e6, end: 3e6, name: "android.view.Choreographer.doFrame" },
];

/** A source whose rows are the boxes themselves; it records the windows it was asked for. */
function fakeSource(asked: [number, number][]): TimelineQuerySource {
  return {
    extent: [0, 1e9],
    tracks: [{ name: "t", rows: 1 }],
    query: (w): BoundSql => {
      asked.push([w[0], w[1]]);
      return { sql: "SELECT 1", params: [w[0], w[1]] };
    },
    boxes: (rows) => rows as TimelineBox[],
  };
}

describe("jb.timeline: the view behind <jb-timeline>", () => {
  it("starts on the slices' extent with their boxes loaded; tracks as deep as their deepest slice", async () => {
    const v = await timeline({ slices }, null);
    expect(v.value).toEqual([0, 50e6]);
    expect(v.tracks).toEqual([
      { name: "frames", rows: 1 },
      { name: "main", rows: 2 },
    ]);
    expect(v.loaded!.boxes.map((b) => b.name)).toEqual(slices.map((s) => s.name));
  });

  it("refuses neither or both of slices and source, and a query source without an engine", () => {
    expect(() => new TimelineView({}, null)).toThrow("give either slices");
    expect(() => new TimelineView({ slices, source: fakeSource([]) }, null)).toThrow("give either slices");
    expect(() => new TimelineView({ source: fakeSource([]) }, null)).toThrow("needs a SQL engine");
  });

  it("one query in flight: a burst of windows runs the first and the last, and the last is what is loaded", async () => {
    const asked: [number, number][] = [];
    const pending: (() => void)[] = [];
    const run = (q: BoundSql) =>
      new Promise<unknown>((resolve) =>
        pending.push(() =>
          resolve([
            { track: "t", depth: 0, start: q.params[0], end: q.params[1], name: "x", count: 1, busy: 0 },
          ]),
        ),
      );
    const v = new TimelineView({ source: fakeSource(asked) }, run);
    let arrived = 0;
    v.addEventListener("boxes", () => arrived++);
    const done = v.load([0, 10], 100);
    void v.load([10, 20], 100);
    void v.load([20, 30], 100);
    await Promise.resolve();
    pending.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    pending.shift()!();
    await done;
    expect(asked).toEqual([
      [0, 10],
      [20, 30],
    ]);
    expect(arrived).toBe(2);
    expect([v.loaded!.boxes[0]!.start, v.loaded!.boxes[0]!.end]).toEqual([20, 30]);
  });

  it("a failed query is reported as an error event, and jb.timeline rejects with it", async () => {
    const failing = () => Promise.reject(new Error("Binder Error: no table calls"));
    await expect(timeline({ source: fakeSource([]) }, failing)).rejects.toThrow("no table calls");
  });

  it("windows are kept inside the extent; null goes back to it; a gesture's input event comes once it pauses", async () => {
    const v = await timeline({ slices }, null);
    v.value = [40e6, 90e6];
    expect(v.value).toEqual([0, 50e6]);
    v.value = [45e6, 60e6];
    expect(v.value).toEqual([35e6, 50e6]);
    v.value = null;
    expect(v.value).toEqual([0, 50e6]);
    let inputs = 0;
    v.addEventListener("input", () => inputs++);
    const heldBefore = inputsHeldBack();
    for (let k = 0; k < 5; k++) v.setWindow([k * 1e6, k * 1e6 + 10e6]);
    expect(inputs).toBe(0);
    // the window on its way is one value held back: the runtime's settled() waits for it (publish, tests)
    expect(inputsHeldBack()).toBe(heldBefore + 1);
    // wait for the window on its way to be let go (a state, not a time: the throttle's own clock decides when)
    while (inputsHeldBack() !== heldBefore) await new Promise((r) => setTimeout(r, 10));
    expect(inputs).toBeLessThanOrEqual(2);
    expect(inputs).toBeGreaterThanOrEqual(1);
    expect(inputsHeldBack()).toBe(heldBefore);
    expect(v.value).toEqual([4e6, 14e6]);
  });

  it("the static plot of published reports: the current window, names where they fit, jank in the palette's red", async () => {
    const v = await timeline({ slices, title: "Frames" }, null);
    const options = timelinePlot(v);
    expect(options.title).toBe("Frames (0.000 ms – 50.000 ms)");
    expect((options.x as { domain: number[] }).domain).toEqual([0, 50]);
    const rows = (options.marks![0] as unknown as { data: { label: string; fill: string }[] }).data;
    // 580 px for 50 ms: "App Deadline Missed" (34 ms, 394 px) fits whole; doFrame (1 ms, 11.6 px) does not
    expect(rows.map((r) => r.label)).toEqual(["frame 1", "App Deadline Missed", ""]);
    expect(rows[1]!.fill).toBe(JANK_COLOR);
  });

  it("a trace's clock since boot is shown from the slices' first start, the absolute time kept in each box's title", async () => {
    // 476,593.396 s since boot: what a real Perfetto trace's timestamps look like
    const boot = 476_593_396_000_000;
    const late = slices.map((x) => ({ ...x, start: x.start + boot, end: x.end + boot }));
    const v = await timeline({ slices: late, title: "Frames" }, null);
    expect(v.origin).toBe(boot);
    const options = timelinePlot(v);
    expect(options.title).toBe("Frames (0.000 ms – 50.000 ms from the start)");
    expect((options.x as { domain: number[]; label: string }).domain).toEqual([0, 50]);
    expect((options.x as { label: string }).label).toBe("time from the start (ms)");
    const rows = (options.marks![0] as unknown as { data: { x1: number; x2: number; title: string }[] }).data;
    expect(rows.map((r) => [r.x1, r.x2])).toEqual([
      [0, 16],
      [16, 50],
      [2, 3],
    ]);
    expect(rows[1]!.title).toBe(
      "App Deadline Missed, 34.000 ms at 16.000 ms from the start (476593412.000 ms on the trace's clock)",
    );
    // an explicit origin wins; a query source counts from 0 (a method trace's clock starts with the trace)
    expect((await timeline({ slices: late, origin: boot - 1e9 }, null)).origin).toBe(boot - 1e9);
    expect(new TimelineView({ source: fakeSource([]) }, async () => null).origin).toBe(0);
  });

  it("fitName keeps a name whole, then drops its package, then cuts it", () => {
    const name = "android.view.Choreographer.doFrame";
    expect(fitName(name, 4 + 6.5 * name.length)).toBe(name);
    expect(fitName(name, 4 + 6.5 * 20)).toBe("Choreographer.doFrame".slice(0, 19) + "…");
    expect(fitName(name, 4 + 6.5 * 21)).toBe("Choreographer.doFrame");
    expect(fitName(name, 10)).toBe("");
  });
});
