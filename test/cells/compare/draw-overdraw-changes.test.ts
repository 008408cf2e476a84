// DRAW views' overdraw depth compared, on a pair of one-frame runs worked by hand (screen 100 × 100): a full-screen
// background with an image over its top-left quarter; the candidate adds an overlay over the same quarter.
import { describe, expect, it } from "vitest";
import { compareRuns } from "../../../cells/compare/compare-runs";
import { renderOps, type OpRow } from "../draw/render-ops-fixture";

const MS = 1e6;
const base: OpRow[] = [
  {
    view: 1,
    cls: "android.widget.FrameLayout",
    op: "draw",
    start: 0,
    dur: MS,
    rect: [0, 0, 100, 100],
    bg: true,
  },
  {
    view: 2,
    parent: 1,
    cls: "android.widget.ImageView",
    xml: "photo",
    op: "draw",
    start: MS,
    dur: MS,
    // pixels 1 .. 51 each way, 50 × 50 of them
    rect: [1, 1, 50, 50],
  },
];
const overlay: OpRow = {
  view: 3,
  parent: 1,
  cls: "android.view.View",
  xml: "overlay",
  op: "draw",
  start: 2 * MS,
  dur: MS,
  rect: [0, 0, 50, 50],
};

describe("drawOverdrawChanges", () => {
  it("gives each view the mean number of layers over the pixels it paints, worked by hand", () => {
    const c = compareRuns(
      {
        render_ops: new Map([
          ["a", renderOps(base)],
          ["b", renderOps([...base, overlay])],
        ]),
        screens: new Map([
          ["a", { width: 100, height: 100 }],
          ["b", { width: 100, height: 100 }],
        ]),
      },
      { a: ["a"], b: ["b"] },
    );
    const row = (subject: string) => c.rows.find((r) => r.key === `draw:${subject}:overdraw`)!;
    // A: the background's 10,000 pixels, 2,500 of them under the photo: (7,500 × 1 + 2,500 × 2) / 10,000
    expect(row("android.widget.FrameLayout").a).toBe(1.25);
    // B: the overlay's pixels 0 .. 50 meet the photo's 1 .. 51 on 49 × 49; the background under both:
    // (10,000 + 2,500 + 2,500) / 10,000
    expect(row("android.widget.FrameLayout").b).toBe(1.5);
    // the photo: 2 layers everywhere in A; in B its 2,500 pixels have background and photo, 2,401 the overlay too
    expect(row("android.widget.ImageView #photo").a).toBe(2);
    expect(row("android.widget.ImageView #photo").b).toBe((2 * 2500 + 2401) / 2500);
    expect(row("android.widget.ImageView #photo").better).toBe("lower");
    // the overlay: only in B, (2,500 + 2,401 + 2,500) / 2,500 layers
    expect(row("android.view.View #overlay").status).toBe("new");
    expect(row("android.view.View #overlay").b).toBe((2500 + 2401 + 2500) / 2500);
  });
});
