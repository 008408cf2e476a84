import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fillBuffer,
  paintRect,
  parseColor,
  type PixelBuffer,
} from "../../../workspace/components/timeline-raster";

const buffer = (width: number, height: number): PixelBuffer => ({
  width,
  height,
  data: new Uint8ClampedArray(width * height * 4),
});
/** The pixel at (x, y) as [r, g, b, a]. */
const at = (b: PixelBuffer, x: number, y: number) =>
  Array.from(b.data.subarray((y * b.width + x) * 4, (y * b.width + x) * 4 + 4));

describe("timeline-raster: boxes as pixels", () => {
  it("parses #rgb and #rrggbb, and names what it cannot read grey", () => {
    expect(parseColor("#1f77b4")).toEqual([0x1f, 0x77, 0xb4]);
    expect(parseColor("#fff")).toEqual([255, 255, 255]);
    expect(parseColor("steelblue")).toEqual([0x88, 0x88, 0x88]);
  });

  it("covers columns [floor(x0), max(floor(x0) + 1, ceil(x1))) and rounded rows, clipped to the buffer", () => {
    const b = buffer(10, 4);
    fillBuffer(b, [255, 255, 255]);
    paintRect(b, 2.4, 2.6, 0.6, 2.4, [0, 0, 0]);
    // a box narrower than a pixel still takes one: column 2, rows 1 (0.6 rounds up) to 2 (2.4 rounds down, exclusive)
    expect(at(b, 2, 1)).toEqual([0, 0, 0, 255]);
    expect(at(b, 2, 0)).toEqual([255, 255, 255, 255]);
    expect(at(b, 2, 2)).toEqual([255, 255, 255, 255]);
    expect(at(b, 3, 1)).toEqual([255, 255, 255, 255]);
    paintRect(b, -5, 100, 3, 10, [10, 20, 30]);
    expect(at(b, 0, 3)).toEqual([10, 20, 30, 255]);
    expect(at(b, 9, 3)).toEqual([10, 20, 30, 255]);
  });

  it("blends a translucent box over what is there (a summary's opacity)", () => {
    const b = buffer(2, 1);
    fillBuffer(b, [200, 100, 0]);
    paintRect(b, 0, 1, 0, 1, [0, 100, 200], 0.25);
    expect(at(b, 0, 0)).toEqual([150, 100, 50, 255]);
    expect(at(b, 1, 0)).toEqual([200, 100, 0, 255]);
  });

  it("property: an opaque box paints exactly the pixels of its rule, nothing else", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -20, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.double({ min: -5, max: 25, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (x0, w, y0, h) => {
          const b = buffer(40, 20);
          paintRect(b, x0, x0 + w, y0, y0 + h, [1, 2, 3]);
          const first = Math.floor(x0);
          const last = Math.max(first + 1, Math.ceil(x0 + w));
          const expected: string[] = [];
          const got: string[] = [];
          for (let y = 0; y < 20; y++)
            for (let x = 0; x < 40; x++) {
              const inside = x >= first && x < last && y >= Math.round(y0) && y < Math.round(y0 + h);
              if (inside) expected.push(`${x},${y}`);
              if (b.data[(y * 40 + x) * 4 + 3] === 255) got.push(`${x},${y}`);
            }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
