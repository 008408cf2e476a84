import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timelineLod, type TimelineBox, type TimelineSlice } from "../../../cells/common/timeline-lod";

/** Pixels an interval covers, by the spec in the test: [floor(x0), max(floor(x0) + 1, ceil(x1))), in the plot. */
function coverPixels(into: Set<number>, start: number, end: number, w: [number, number], width: number) {
  const s = Math.max(start, w[0]);
  const e = Math.min(end, w[1]);
  const x0 = ((s - w[0]) / (w[1] - w[0])) * width;
  const x1 = ((e - w[0]) / (w[1] - w[0])) * width;
  const first = Math.floor(x0);
  const last = Math.max(first + 1, Math.ceil(x1));
  for (let p = first; p < last; p++) into.add(p);
}

/** Brute force: per lane, the pixels of every visible slice (the union the boxes must cover exactly). */
function pixelsByLane(
  items: readonly { track: string; depth?: number; start: number; end: number }[],
  w: [number, number],
  width: number,
  visibleOnly: boolean,
): Map<string, number[]> {
  const lanes = new Map<string, Set<number>>();
  for (const s of items) {
    const visible = s.start < w[1] && (s.end > w[0] || (s.end === s.start && s.start >= w[0]));
    if (visibleOnly && !visible) continue;
    const key = `${s.track}/${s.depth ?? 0}`;
    const set = lanes.get(key) ?? new Set<number>();
    coverPixels(set, s.start, s.end, w, width);
    lanes.set(key, set);
  }
  return new Map([...lanes].map(([k, v]) => [k, [...v].sort((a, b) => a - b)]));
}

const slice = (track: string, start: number, end: number, name = "s", depth = 0): TimelineSlice => ({
  track,
  depth,
  start,
  end,
  name,
});

describe("timelineLod: slices merged to the pixel per track", () => {
  it("keeps slices a pixel wide or more, merges touching narrower ones, counts and sums them", () => {
    // 100 ns in 10 px: a pixel is 10 ns
    const w: [number, number] = [0, 100];
    const boxes = timelineLod(
      [
        slice("a", 0, 30, "wide"),
        slice("a", 40, 42, "n1"),
        slice("a", 43, 47, "n2"),
        slice("a", 51, 52, "n3"),
        slice("a", 80, 81, "alone"),
        slice("b", 95, 120, "cut"),
        slice("b", 200, 300, "outside"),
      ],
      w,
      10,
    );
    expect(boxes.map((b) => [b.track, b.name, b.start, b.end, b.count, b.busy])).toEqual([
      ["a", "wide", 0, 30, 1, 30],
      // n1 (pixel 4), n2 (pixel 4), n3 (pixel 5, touching): one box named after the longest, n2
      ["a", "n2", 40, 52, 3, 2 + 4 + 1],
      ["a", "alone", 80, 81, 1, 1],
      ["b", "cut", 95, 120, 1, 25],
    ]);
  });

  it("draws an instant at the window's start and drops slices ending at it", () => {
    const boxes = timelineLod([slice("a", 10, 10, "instant"), slice("a", 0, 10, "before")], [10, 20], 10);
    expect(boxes.map((b) => b.name)).toEqual(["instant"]);
  });

  it("names the file's faults: a slice ending before it starts, a bad width", () => {
    expect(() => timelineLod([slice("t", 5, 4, "bad")], [0, 10], 10)).toThrow(
      "slice bad on t: end 4 before start 5",
    );
    expect(() => timelineLod([], [0, 10], 0)).toThrow("invalid widthPx: 0");
  });

  it("property: the boxes cover exactly the pixels of the visible slices, lane by lane", () => {
    const arbSlice = fc
      .record({
        track: fc.constantFrom("main", "render", "pool-1"),
        depth: fc.integer({ min: 0, max: 2 }),
        start: fc.integer({ min: -500, max: 10_500 }),
        len: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 3_000 })),
      })
      .map((r) => slice(r.track, r.start, r.start + r.len, `m${r.len}`, r.depth));
    fc.assert(
      fc.property(
        fc.array(arbSlice, { maxLength: 200 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 400 }),
        (slices, t0, span, width) => {
          const w: [number, number] = [t0, t0 + span];
          const boxes = timelineLod(slices, w, width);
          expect(pixelsByLane(boxes, w, width, false)).toEqual(pixelsByLane(slices, w, width, true));
          // every visible slice is counted once
          const visible = slices.filter(
            (s) => s.start < w[1] && (s.end > w[0] || (s.end === s.start && s.start >= w[0])),
          );
          expect(boxes.reduce((n, b) => n + b.count, 0)).toBe(visible.length);
          // a summary box is narrower than it would be drawn as its parts: at most one per pixel run
          const perLane = new Map<string, TimelineBox[]>();
          for (const b of boxes.filter((x) => x.count > 1))
            perLane.set(`${b.track}/${b.depth}`, [...(perLane.get(`${b.track}/${b.depth}`) ?? []), b]);
          for (const list of perLane.values()) expect(list.length).toBeLessThanOrEqual(width);
        },
      ),
      { numRuns: 300 },
    );
  });
});
