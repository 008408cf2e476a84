import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MIN_SPAN_NS,
  clampWindow,
  panWindow,
  zoomWindow,
  type TimeWindow,
} from "../../../cells/common/time-window";

describe("zoomWindow and panWindow: the timeline's zoom and pan", () => {
  it.each([
    // window, factor, anchor, bounds, expected (by hand)
    [[0, 1000_000], 0.5, 500_000, null, [250_000, 750_000]],
    [[0, 1000_000], 0.5, 0, null, [0, 500_000]],
    [[0, 1000_000], 2, 1000_000, null, [-1000_000, 1000_000]],
    [[0, 1000_000], 2, 1000_000, [0, 1500_000], [0, 1500_000]],
    [[100_000, 200_000], 4, 150_000, [0, 1000_000], [0, 400_000]],
    [[0, 4_000], 0.001, 2_000, null, [1_500, 2_500]],
  ] as const)("zoom case %#", (w, factor, anchor, bounds, expected) => {
    expect(zoomWindow(w as TimeWindow, factor, anchor, bounds as TimeWindow | null)).toEqual(expected);
  });

  it.each([
    [[0, 100], 30, null, [30, 130]],
    [[0, 100], 950, [0, 1000], [900, 1000]],
    [[0, 100], -30, [0, 1000], [0, 100]],
    [[0, 2000], 5, [0, 1000], [0, 1000]],
  ] as const)("pan case %#", (w, dt, bounds, expected) => {
    expect(panWindow(w as TimeWindow, dt, bounds as TimeWindow | null)).toEqual(expected);
  });

  it("refuses a zoom factor that is not a positive number", () => {
    expect(() => zoomWindow([0, 1], 0, 0)).toThrow("invalid zoom factor: 0");
    expect(() => zoomWindow([0, 1], NaN, 0)).toThrow("invalid zoom factor: NaN");
  });

  it("property: the point under the cursor stays under it, and zooming back out returns the window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: MIN_SPAN_NS * 4, max: 1e11 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.25, max: 4, noNaN: true }),
        (t0, span, share, factor) => {
          const w: TimeWindow = [t0, t0 + span];
          const anchor = t0 + share * span;
          const z = zoomWindow(w, factor, anchor);
          if (span * factor < MIN_SPAN_NS) return;
          expect((anchor - z[0]) / (z[1] - z[0])).toBeCloseTo(share, 6);
          expect(z[1] - z[0]).toBeCloseTo(span * factor, 0);
          const back = zoomWindow(z, 1 / factor, anchor);
          expect(back[0]).toBeCloseTo(w[0], -1);
          expect(back[1]).toBeCloseTo(w[1], -1);
        },
      ),
    );
  });

  it("property: inside bounds, a clamped window keeps its span and lies inside", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 2e9 }),
        (t0, span, boundsSpan) => {
          const bounds: TimeWindow = [0, boundsSpan];
          const c = clampWindow([t0, t0 + span], bounds);
          if (span >= boundsSpan) expect(c).toEqual(bounds);
          else {
            expect(c[1] - c[0]).toBe(span);
            expect(c[0]).toBeGreaterThanOrEqual(0);
            expect(c[1]).toBeLessThanOrEqual(boundsSpan);
          }
        },
      ),
    );
  });
});
