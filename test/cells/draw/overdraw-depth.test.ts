import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  overdrawDepth,
  overdrawRegions,
  overdrawDepthPlot,
  type Rect,
} from "../../../cells/draw/overdraw-depth";

// Reference: rasterise every pixel (the definition itself: x in [left, left + width), y likewise).
function raster(rects: Rect[], w: number, h: number): Int32Array {
  const depth = new Int32Array(w * h);
  for (const r of rects)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (x >= r.left && x < r.left + r.width && y >= r.top && y < r.top + r.height) depth[y * w + x]!++;
  return depth;
}

function reference(rects: Rect[], w: number, h: number) {
  const depth = raster(rects, w, h);
  let max = 0;
  for (const d of depth) max = Math.max(max, d);
  const histogram = new Float64Array(max + 1);
  let drawn = 0;
  let sum = 0;
  for (const d of depth) {
    histogram[d]!++;
    if (d > 0) (drawn++, (sum += d));
  }
  return { histogram, max, mean: drawn ? sum / drawn : 0, depth };
}

const rect = (w: number, h: number) =>
  fc.record({
    left: fc.integer({ min: -8, max: w + 4 }),
    top: fc.integer({ min: -8, max: h + 4 }),
    width: fc.integer({ min: -3, max: w + 8 }),
    height: fc.integer({ min: -3, max: h + 8 }),
  });

describe("overdrawDepth", () => {
  it("matches a per-pixel raster on random rectangles, off screen, zero and negative sizes included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.array(rect(24, 24), { maxLength: 30 }),
        (w, h, rects) => {
          const ours = overdrawDepth(rects, { width: w, height: h });
          const ref = reference(rects, w, h);
          expect(ours.max).toBe(ref.max);
          expect([...ours.histogram]).toEqual([...ref.histogram]);
          expect(ours.mean).toBeCloseTo(ref.mean, 12);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("handles fractional coordinates exactly (pixel x covered iff left ≤ x < left + width)", () => {
    const frac = fc.record({
      left: fc.double({ min: -5, max: 20, noNaN: true }),
      top: fc.double({ min: -5, max: 20, noNaN: true }),
      width: fc.double({ min: -2, max: 20, noNaN: true }),
      height: fc.double({ min: -2, max: 20, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(frac, { maxLength: 12 }), (rects) => {
        const ours = overdrawDepth(rects, { width: 16, height: 12 });
        const ref = reference(rects, 16, 12);
        expect([...ours.histogram]).toEqual([...ref.histogram]);
      }),
      { numRuns: 200 },
    );
  });

  it("regions tile exactly the drawn pixels with their depths", () => {
    fc.assert(
      fc.property(fc.array(rect(20, 20), { maxLength: 20 }), (rects) => {
        const ref = reference(rects, 20, 20);
        const painted = new Int32Array(400);
        for (const g of overdrawRegions(rects, { width: 20, height: 20 }))
          for (let y = g.y0; y < g.y1; y++)
            for (let x = g.x0; x < g.x1; x++) painted[y * 20 + x] = painted[y * 20 + x]! + g.depth;
        expect([...painted]).toEqual([...ref.depth]);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ["nothing drawn", [], { histogram: [6], max: 0, mean: 0 }],
    [
      "one full-screen background",
      [{ left: 0, top: 0, width: 3, height: 2 }],
      { histogram: [0, 6], max: 1, mean: 1 },
    ],
    [
      "a child over its parent's background",
      [
        { left: 0, top: 0, width: 3, height: 2 },
        { left: 1, top: 0, width: 2, height: 1 },
      ],
      { histogram: [0, 4, 2], max: 2, mean: 8 / 6 },
    ],
    ["entirely off screen", [{ left: 5, top: 0, width: 3, height: 2 }], { histogram: [6], max: 0, mean: 0 }],
    ["NaN size", [{ left: 0, top: 0, width: NaN, height: 2 }], { histogram: [6], max: 0, mean: 0 }],
  ])("%s", (_name, rects, expected) => {
    const r = overdrawDepth(rects, { width: 3, height: 2 });
    expect([...r.histogram]).toEqual(expected.histogram);
    expect(r.max).toBe(expected.max);
    expect(r.mean).toBeCloseTo(expected.mean, 12);
  });

  it("is resolution independent: a 1080x2400 screen costs no per-pixel work", () => {
    const r = overdrawDepth([{ left: -10, top: 100, width: 2000, height: 200 }], {
      width: 1080,
      height: 2400,
    });
    expect([...r.histogram]).toEqual([1080 * 2400 - 1080 * 200, 1080 * 200]);
  });

  it("rejects an invalid screen", () => {
    expect(() => overdrawDepth([], { width: -1, height: 5 })).toThrow(/invalid screen size -1x5/);
  });

  it("plots one rect per region", () => {
    const regions = overdrawRegions([{ left: 0, top: 0, width: 4, height: 4 }], { width: 4, height: 4 });
    const spec = overdrawDepthPlot(regions, { screen: { width: 4, height: 4 } });
    expect([spec.mark, spec.data, spec.under]).toEqual([
      "rect",
      [{ x0: 0, x1: 4, y0: 0, y1: 4, depth: 1, tip: "depth 1" }],
      [{ mark: "frame" }],
    ]);
    expect(regions).toEqual([{ x0: 0, x1: 4, y0: 0, y1: 4, depth: 1 }]);
  });
});
