import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrameDeduper, frameDeadline, framesTable } from "../../collectors/bundle-tables";
import type { FrameRecord } from "../../collectors/sources/framestats";

const P = 16_666_667n;
const frame = (i: number, w = "win"): FrameRecord => ({
  window: w,
  line: 0,
  values: {
    intended_vsync: 1_000_000_000n + BigInt(i) * P,
    frame_completed: 1_000_000_000n + BigInt(i) * P + 9_000_000n,
  },
});

describe("FrameDeduper", () => {
  it("keeps every frame exactly once whatever the poll times, while polls come before the ring moves on (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.integer({ min: 1, max: 119 }), { minLength: 1, maxLength: 60 }),
        (n, steps) => {
          const d = new FrameDeduper(120);
          let shown = 0;
          for (const step of [...steps, 120]) {
            shown = Math.min(n, shown + step);
            // the device shows the last 120 frames completed so far
            d.add(
              Array.from({ length: Math.min(120, shown) }, (_, k) => frame(shown - Math.min(120, shown) + k)),
              "poll",
            );
            if (shown === n) break;
          }
          if (shown < n) return;
          expect(d.size).toBe(n);
          expect(d.warnings).toEqual([]);
          expect(
            d
              .frames()
              .map((f) => f.values.intended_vsync)
              .sort(),
          ).toEqual(Array.from({ length: n }, (_, i) => frame(i).values.intended_vsync).sort());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("warns when a full ring overlaps nothing seen before (frames evidently lost between polls)", () => {
    const d = new FrameDeduper(120);
    d.add(
      Array.from({ length: 120 }, (_, i) => frame(i)),
      "poll 1",
    );
    d.add(
      Array.from({ length: 120 }, (_, i) => frame(200 + i)),
      "poll 2",
    );
    expect(d.size).toBe(240);
    expect(d.warnings).toHaveLength(1);
    expect(d.warnings[0]).toMatch(/^poll 2: window win: frames lost between polls/);
    // a partial ring after a quiet period is not a loss
    d.add([frame(400)], "poll 3");
    expect(d.warnings).toHaveLength(1);
  });

  // Distinct frames sharing an IntendedVsync (two frames in one vsync, as in real multi-window dumps): frame k of
  // vsync v differs in DrawStart.
  const twin = (v: number, k: number, extra: Record<string, bigint> = {}): FrameRecord => ({
    window: "win",
    line: 0,
    values: {
      intended_vsync: 1_000_000_000n + BigInt(v) * P,
      draw_start: 1_000_000_000n + BigInt(v) * P + 1_000_000n + BigInt(k) * 100_000n,
      frame_completed: 1_000_000_000n + BigInt(v) * P + 9_000_000n + BigInt(k) * 100_000n,
      ...extra,
    },
  });

  it("keeps every row of one poll, even two frames of one vsync or two identical rows", () => {
    const d = new FrameDeduper();
    expect(d.add([twin(0, 0), twin(0, 1), twin(1, 0), twin(1, 0)], "poll 1")).toBe(4);
    expect(d.size).toBe(4);
    // the same dump polled again: each row matches exactly one frame already seen
    expect(d.add([twin(0, 0), twin(0, 1), twin(1, 0), twin(1, 0)], "poll 2")).toBe(0);
    expect(d.size).toBe(4);
    expect(d.duplicates).toBe(4);
  });

  it("takes a frame's late columns from a later poll without counting it twice", () => {
    const d = new FrameDeduper();
    d.add([twin(0, 0, { frame_completed: 0n, display_present_time: 0n })], "poll 1");
    d.add([twin(0, 0, { display_present_time: 1_020_000_000n })], "poll 2");
    expect(d.size).toBe(1);
    expect(d.frames()[0]!.values).toEqual(twin(0, 0, { display_present_time: 1_020_000_000n }).values);
  });

  it("keeps frames sharing an IntendedVsync apart across sliding polls (property, whole identity)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 150 }),
        fc.array(fc.integer({ min: 1, max: 119 }), { minLength: 1, maxLength: 40 }),
        (perVsync, steps) => {
          const all = perVsync.flatMap((n, v) => Array.from({ length: n }, (_, k) => twin(v, k)));
          const d = new FrameDeduper(120);
          let shown = 0;
          for (const step of [...steps, 120]) {
            shown = Math.min(all.length, shown + step);
            d.add(all.slice(Math.max(0, shown - 120), shown), "poll");
            if (shown === all.length) break;
          }
          if (shown < all.length) return;
          // reference: the distinct frames by every value
          expect(d.size).toBe(all.length);
          const key = (f: FrameRecord) =>
            JSON.stringify(Object.entries(f.values).map(([k, v]) => [k, String(v)]));
          expect(d.frames().map(key).sort()).toEqual(all.map(key).sort());
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps windows apart", () => {
    const d = new FrameDeduper();
    d.add([frame(1, "a"), frame(1, "b")], "p");
    d.add([frame(1, "a")], "p");
    expect(d.size).toBe(2);
    expect(d.duplicates).toBe(1);
  });
});

describe("frame deadline and jank", () => {
  it.each([
    [{ intended_vsync: 100n, frame_deadline: 100n + 11_111_111n }, 60, 11_111_111n],
    [{ intended_vsync: 100n }, 90, 11_111_111n],
    [{ intended_vsync: 100n }, null, 16_670_000n],
    [{ intended_vsync: 100n, frame_deadline: 0n }, 60, 16_666_667n],
  ] as const)("%o at %s Hz -> %s", (values, hz, want) => {
    expect(frameDeadline(values as Record<string, bigint>, hz)).toBe(want);
  });
  it("computes duration and jank; keeps a frame without FrameCompleted, to where it got, flagged suspect", () => {
    const f = [
      frame(0),
      { ...frame(1), values: { ...frame(1).values, frame_completed: 1_000_000_000n + P + 20_000_000n } },
      {
        window: "win",
        line: 0,
        values: { intended_vsync: 5n, swap_buffers: 3_000_005n, frame_completed: 0n },
      },
    ];
    const { table, skipped, incomplete } = framesTable("r", f, 60);
    expect([skipped, incomplete]).toEqual([0, 1]);
    expect(Array.from(table.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      3_000_000n,
      9_000_000n,
      20_000_000n,
    ]);
    expect(table.getChild("suspect")!.toArray()).toEqual([
      "not completed when dumped (FrameCompleted 0): duration measured to swap_buffers, a lower bound",
      null,
      null,
    ]);
    expect(Array.from(table.getChild("jank")!.toArray() as ArrayLike<boolean>, Boolean)).toEqual([
      false,
      false,
      true,
    ]);
  });
});
