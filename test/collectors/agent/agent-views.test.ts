// The agent's render_ops against the screen itself: a nested, scrolled, translated hierarchy and a popup
// window, driven through the fake framework, read by the collector, turned into DRAW's overdraw depth
// (cells/draw), and compared pixel by pixel with a brute-force raster of the same screen computed here by
// mapping each pixel down the view tree (its own arithmetic, not the agent's or the fake's).
import { describe, expect, it } from "vitest";
import { bundleTableFromRows } from "../../../bundle/table-builder";
import { frameCoverage } from "../../../cells/draw/frame-coverage";
import { overdrawDepth, type Rect } from "../../../cells/draw/overdraw-depth";
import { preprocessRenderOps } from "../../../cells/draw/render-trace";
import { androidOf, fakeAndroid } from "./fake-android";
import type { FakeObj, FakeVm } from "./fake-java";
import { loadAgent, readLines } from "./load-agent";
import { AGENT_TAG } from "../../../collectors/agent/protocol";

const W = 360;
const H = 640;
const SCREEN = { width: W, height: H };

/** A view of the test's screen: where its parent lays it out, and its state. */
interface Node {
  name: string;
  cls: string;
  lp: [number, number, number, number];
  bg?: boolean;
  kids?: Node[];
  tx?: number;
  ty?: number;
  scrollY?: number;
  obj?: FakeObj;
}
interface Win {
  x: number;
  y: number;
  w: number;
  h: number;
  type: number;
  root: Node;
}

const leaf = (name: string, lp: Node["lp"], bg = false): Node => ({
  name,
  cls: "android.widget.TextView",
  lp,
  bg,
});
const group = (name: string, lp: Node["lp"], kids: Node[], bg = false): Node => ({
  name,
  cls: "android.widget.FrameLayout",
  lp,
  kids,
  bg,
});

function screen(): { main: Win; popup: Win; nodes: Map<string, Node> } {
  const items = Array.from({ length: 8 }, (_, i) => leaf(`item${i}`, [0, i * 100, 360, 90], true));
  const main: Win = {
    x: 0,
    y: 0,
    w: W,
    h: H,
    type: 1,
    root: group(
      "decor",
      [0, 0, W, H],
      [
        group(
          "content",
          [0, 0, W, H],
          [
            leaf("toolbar", [0, 0, 360, 56], true),
            group("list", [0, 56, 360, 520], items),
            group("card", [20, 300, 320, 200], [leaf("image", [-30, 150, 100, 100])], true),
            group(
              "tabs",
              [0, 576, 360, 64],
              [0, 1, 2].map((i) => leaf(`tab${i}`, [i * 120, 0, 120, 64])),
              true,
            ),
          ],
        ),
      ],
      true,
    ),
  };
  // Partly off the screen's right edge (260 + 140 > 360): the window is not clipped by the screen, the raster is.
  const popup: Win = {
    x: 260,
    y: 100,
    w: 140,
    h: 200,
    type: 1000,
    // PopupWindow wraps its content in a PopupDecorView that draws the popup's background.
    root: {
      ...group(
        "popupDecor",
        [0, 0, 140, 200],
        [group("menu", [0, 0, 140, 200], [leaf("first", [0, 0, 140, 60]), leaf("second", [0, 60, 140, 60])])],
        true,
      ),
      cls: "android.widget.PopupWindow$PopupDecorView",
    },
  };
  const nodes = new Map<string, Node>();
  const index = (n: Node) => (nodes.set(n.name, n), n.kids?.forEach(index));
  index(main.root);
  index(popup.root);
  return { main, popup, nodes };
}

/** Depth per pixel, brute force: each pixel mapped into every window and down its tree (offset, translation,
 * parent scroll), clipped by every ancestor's bounds; a view paints when it has a background or is a leaf. */
function rasterTruth(wins: Win[]): Int32Array {
  const depth = new Int32Array(W * H);
  const paint = (n: Node, x: number, y: number): number => {
    const [, , w, h] = n.lp;
    if (!(x >= 0 && x < w && y >= 0 && y < h)) return 0;
    let d = n.bg || !n.kids?.length ? 1 : 0;
    for (const c of n.kids ?? [])
      d += paint(c, x + 0 - (c.lp[0] + (c.tx ?? 0)), y + (n.scrollY ?? 0) - (c.lp[1] + (c.ty ?? 0)));
    return d;
  };
  for (let py = 0; py < H; py++)
    for (let px = 0; px < W; px++) {
      let d = 0;
      for (const win of wins) {
        const root = { ...win.root, lp: [0, 0, win.w, win.h] as Node["lp"] };
        d += paint(root, px - win.x, py - win.y);
      }
      depth[py * W + px] = d;
    }
  return depth;
}

/** Depth per pixel from rectangles, with overdraw-depth.ts's pixel model. */
function rasterRects(rects: readonly Rect[]): Int32Array {
  const depth = new Int32Array(W * H);
  for (const r of rects)
    for (let y = Math.max(0, Math.ceil(r.top)); y < Math.min(H, Math.ceil(r.top + r.height)); y++)
      for (let x = Math.max(0, Math.ceil(r.left)); x < Math.min(W, Math.ceil(r.left + r.width)); x++)
        depth[y * W + x]!++;
  return depth;
}

function histogram(depth: Int32Array): number[] {
  const h: number[] = [];
  for (const d of depth) h[d] = (h[d] ?? 0) + 1;
  return Array.from(h, (x) => x ?? 0);
}

/** Builds a window's views; the main one is added to the window manager, the popup shown by a PopupWindow. */
function build(vm: FakeVm, win: Win, popup = false) {
  const a = androidOf(vm);
  const bg = () => vm.newObj("android.graphics.drawable.Drawable");
  const make = (n: Node, parent: FakeObj | null) => {
    n.obj = a.view(n.cls, { lp: n.lp, mBackground: n.bg ? bg() : null }, parent);
    for (const c of n.kids ?? []) make(c, n.obj);
  };
  if (!popup) {
    make(win.root, null);
    a.addWindow(win.root.obj!, win.x, win.y, win.w, win.h, win.type);
    return;
  }
  const content = win.root.kids![0]!;
  make(content, null);
  const pw = vm.newObj("android.widget.PopupWindow", {
    mContentView: content.obj!,
    mBackground: bg(),
    mWidth: win.w,
    mHeight: win.h,
  });
  const GRAVITY_TOP_LEFT = 0x33;
  vm.invoke(pw, "showAtLocation", [content.obj!, GRAVITY_TOP_LEFT, win.x, win.y]);
  win.root.obj = pw.fields.mDecorView as FakeObj;
}

describe.each([23, 29, 35])("the agent's draw ops on API %i", (api) => {
  it("give the overdraw depth of a brute-force raster, per pixel, frame after frame; an invalidated view is the only one re-recorded", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const a = androidOf(vm);
    const { main, popup, nodes } = screen();
    const node = (name: string) => nodes.get(name)!;
    build(vm, main);
    build(vm, popup, true);
    const truths: Int32Array[] = [];
    a.frame();
    truths.push(rasterTruth([main, popup]));

    // Scroll the list, translate an item, the card and the popup's second row (clipped by their parents).
    vm.invoke(node("list").obj!, "scrollTo", [0, 150]);
    node("list").scrollY = 150;
    const move = (name: string, tx: number, ty: number) => {
      vm.invoke(node(name).obj!, "setTranslationX", [tx]);
      vm.invoke(node(name).obj!, "setTranslationY", [ty]);
      Object.assign(node(name), { tx, ty });
    };
    move("item3", 40, 0);
    move("card", 10, -20);
    move("second", 0, 100);
    move("tab1", 0, 30);
    a.frame();
    truths.push(rasterTruth([main, popup]));

    vm.invoke(node("item5").obj!, "invalidate");
    a.frame();
    truths.push(rasterTruth([main, popup]));

    const ops = readLines(vm).renderOps;
    const trace = preprocessRenderOps(bundleTableFromRows("render_ops", "run", ops));
    expect(trace.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    trace.frames.forEach((_, f) => {
      const cov = frameCoverage(trace, f, SCREEN);
      const got = rasterRects(cov.rects);
      let wrong = 0;
      for (let i = 0; i < got.length; i++) if (got[i] !== truths[f]![i]) wrong++;
      expect({ frame: f + 1, wrong }).toEqual({ frame: f + 1, wrong: 0 });
      expect(Array.from(overdrawDepth(cov.rects, SCREEN).histogram)).toEqual(histogram(truths[f]!));
    });
    // The test's screen is not trivial: depth reaches 4 (decor, item, card, popup) in frame 2.
    expect(histogram(truths[1]!).length - 1).toBeGreaterThanOrEqual(4);

    const draws = (frame: number) => ops.filter((o) => o.frame === frame && o.op === "draw");
    const onScreen = nodes.size;
    // Frame 1 records every view; frame 2 only the scrolled list (a ViewGroup without background:
    // dispatchDraw alone); frame 3 only item5. The rest is on screen all the same, replayed at no cost.
    expect([1, 2, 3].map((f) => draws(f).length)).toEqual([onScreen, onScreen, onScreen]);
    expect(draws(1).every((o) => !o.replayed)).toBe(true);
    const recorded = (f: number) => draws(f).filter((o) => !o.replayed);
    expect(recorded(2).map((x) => x.view_id)).toEqual([o(node("list"))]);
    expect(recorded(3).map((o) => o.view_id)).toEqual([o(node("item5"))]);
    expect(recorded(3)[0]!.dur).toBe(200_000n);
    expect(
      draws(3)
        .filter((x) => x.replayed)
        .every((x) => x.dur === 0n),
    ).toBe(true);
    // Volume: in frame 3 only item5 has a line of its own; the views replayed as their last line says are named
    // in `same` lines, which the reader expands into the rows above.
    const lines = vm.log.filter((l) => l.tag === AGENT_TAG).map((l) => l.message.split(" "));
    expect(lines.filter((l) => l[2] === "op" && l[3] === "3").length).toBe(1);
    expect(lines.filter((l) => l[2] === "same" && l[3] === "3").flatMap((l) => l.slice(5, -1)).length).toBe(
      onScreen - 1,
    );
    // No requestLayout after the first frame: no measure or layout.
    expect(ops.filter((x) => x.op !== "draw").every((x) => x.frame === 1)).toBe(true);
    // Popup rows are a window of their own, above the main one, at its position on screen.
    const first = draws(3).find((x) => x.view_id === o(node("first")))!;
    expect(first).toMatchObject({
      left: 260,
      top: 100,
      width: 140,
      height: 60,
      window_left: 0,
      window_top: 0,
    });
    expect(first.window_id).not.toBe(draws(3)[0]!.window_id);
  });
});

/** A view's id as the agent prints it: System.identityHashCode. */
const o = (n: Node) => n.obj!.hash;

describe("a Compose screen", () => {
  it("is reported: DRAW's view analyses do not apply inside its window", async () => {
    const vm = fakeAndroid(34);
    await loadAgent(vm);
    const a = androidOf(vm);
    vm.define({
      name: "androidx.compose.ui.platform.AndroidComposeView",
      extends: "android.view.ViewGroup",
      app: true,
    });
    const decor = a.view("android.widget.FrameLayout", {
      mBackground: vm.newObj("android.graphics.drawable.Drawable"),
    });
    a.view("androidx.compose.ui.platform.AndroidComposeView", { lp: [0, 0, 360, 640] }, decor);
    a.addWindow(decor, 0, 0, 360, 640);
    a.frame();
    const d = readLines(vm);
    const window = d.renderOps[0]!.window_id;
    expect(d.composeWindows).toEqual([window]);
    expect(d.warnings).toEqual([
      `agent: 1 window(s) draw Jetpack Compose (androidx.compose.ui.platform.AndroidComposeView; window ${window}): DRAW's view analyses do not apply inside them: a Compose screen is one View to the framework, so its overdraw, costs and invisible views are those of the whole screen, not of any composable`,
    ]);
  });
});
