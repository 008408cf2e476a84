import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visiblePixels } from "../../../cells/draw/frame-coverage";
import type { Rect } from "../../../cells/draw/overdraw-depth";
import { renderingEfficiency } from "../../../cells/draw/rendering-efficiency";
import { preprocessRenderOps } from "../../../cells/draw/render-trace";
import { renderOps, type OpRow } from "./render-ops-fixture";

const MS = 1_000_000;

describe("visiblePixels", () => {
  it("equals a per-pixel 'last painter wins' raster", () => {
    const rect = fc.record({
      left: fc.integer({ min: -5, max: 20 }),
      top: fc.integer({ min: -5, max: 20 }),
      width: fc.integer({ min: -2, max: 25 }),
      height: fc.integer({ min: -2, max: 25 }),
    });
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 15 }), (rects: Rect[]) => {
        const w = 18,
          h = 16;
        const owner = new Int32Array(w * h).fill(-1);
        rects.forEach((r, i) => {
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
              if (x >= r.left && x < r.left + r.width && y >= r.top && y < r.top + r.height)
                owner[y * w + x] = i;
        });
        const expected = rects.map((_, i) => owner.filter((o) => o === i).length);
        expect(Array.from(visiblePixels(rects, { width: w, height: h }))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("renderingEfficiency (Equations 1-2)", () => {
  it("FaceQ: a background fully covered by its children has U = 0, RES = 1 / its own cost", () => {
    // GridView (blue background) 300x300 with nine 100x100 ImageViews over it; the grid's draw (10 ms)
    // includes the images' draws (1 ms each), so its own cost is 1 ms (the paper's footnote 1).
    const rows: OpRow[] = [
      {
        view: 10,
        cls: "android.widget.GridView",
        op: "draw",
        start: 0,
        dur: 10 * MS,
        rect: [0, 0, 300, 300],
        bg: true,
        xml: "grid",
        layout: "res/layout/editor.xml",
      },
    ];
    for (let i = 0; i < 9; i++)
      rows.push({
        view: 11 + i,
        parent: 10,
        cls: "android.widget.ImageView",
        op: "draw",
        start: (1 + i) * MS - MS / 2,
        dur: MS,
        rect: [(i % 3) * 100, Math.floor(i / 3) * 100, 100, 100],
      });
    const ranking = renderingEfficiency(preprocessRenderOps(renderOps(rows)), {
      screen: { width: 1080, height: 1920 },
      lastFrameSeconds: 0.5,
    });
    const grid = ranking[0]!;
    expect(grid).toMatchObject({
      viewId: 10,
      viewClass: "android.widget.GridView",
      xmlId: "grid",
      layoutFile: "res/layout/editor.xml",
      utility: 0,
    });
    expect(grid.cost).toBeCloseTo(0.001, 12);
    expect(grid.res).toBeCloseTo(1 / 0.001, 6);
    const image = ranking.find((r) => r.viewId === 11)!;
    expect(image.utility).toBeCloseTo(100 * 100 * 0.5, 9);
    expect(image.res).toBeCloseTo((5000 + 1) / 0.001, 3);
  });

  it("PicsPlay: an off-screen submenu has U = 0; a visible view's pixels count for each frame's display time", () => {
    const rows: OpRow[] = [
      {
        frame: 0,
        view: 1,
        cls: "android.widget.TextView",
        op: "measure",
        start: 0,
        dur: MS,
        rect: [1080, 0, 400, 200],
        layout: "res/layout/main_submenu2.xml",
      },
      {
        frame: 0,
        view: 1,
        cls: "android.widget.TextView",
        op: "draw",
        start: 1 * MS,
        dur: 2 * MS,
        rect: [1080, 0, 400, 200],
        layout: "res/layout/main_submenu2.xml",
      },
      {
        frame: 0,
        view: 2,
        cls: "android.widget.TextView",
        op: "draw",
        start: 3 * MS,
        dur: 2 * MS,
        rect: [0, 0, 100, 50],
      },
      {
        frame: 1,
        view: 2,
        cls: "android.widget.TextView",
        op: "draw",
        start: 16 * MS,
        dur: 2 * MS,
        rect: [0, 0, 100, 50],
      },
    ];
    // Frame 0 ends at 5 ms, frame 1 at 18 ms: frame 0 shows for 13 ms, the last frame for the median (13 ms).
    const ranking = renderingEfficiency(preprocessRenderOps(renderOps(rows)), {
      screen: { width: 1080, height: 1920 },
    });
    expect(ranking.map((r) => r.viewId)).toEqual([1, 2]);
    expect(ranking[0]!.utility).toBe(0);
    expect(ranking[0]!.res).toBeCloseTo(1 / 0.003, 6);
    expect(ranking[1]!.utility).toBeCloseTo(5000 * 0.013 * 2, 9);
    expect(ranking[1]!.res).toBeCloseTo((130 + 1) / 0.004, 6);
  });

  it("gives invisible (gone) views no utility and containers without background none either", () => {
    const rows: OpRow[] = [
      { view: 1, op: "draw", start: 0, dur: 10 * MS, rect: [0, 0, 500, 500] },
      { view: 2, parent: 1, op: "draw", start: MS, dur: MS, rect: [0, 0, 100, 100], vis: "gone" },
      { view: 3, parent: 1, op: "draw", start: 3 * MS, dur: MS, rect: [0, 0, 100, 100] },
    ];
    const r = renderingEfficiency(preprocessRenderOps(renderOps(rows)), {
      screen: { width: 500, height: 500 },
      lastFrameSeconds: 1,
    });
    const by = new Map(r.map((x) => [x.viewId, x]));
    expect(by.get(1)!.utility).toBe(0);
    expect(by.get(2)!.utility).toBe(0);
    expect(by.get(3)!.utility).toBe(10000);
  });
});
