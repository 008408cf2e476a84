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
  it("computes duration and jank and leaves out frames without FrameCompleted", () => {
    const f = [
      frame(0),
      { ...frame(1), values: { ...frame(1).values, frame_completed: 1_000_000_000n + P + 20_000_000n } },
      { window: "win", line: 0, values: { intended_vsync: 5n, frame_completed: 0n } },
    ];
    const { table, skipped } = framesTable("r", f, 60);
    expect(skipped).toBe(1);
    expect(Array.from(table.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      9_000_000n,
      20_000_000n,
    ]);
    expect(Array.from(table.getChild("jank")!.toArray() as ArrayLike<boolean>, Boolean)).toEqual([
      false,
      true,
    ]);
  });
});
