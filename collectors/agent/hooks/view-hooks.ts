// DRAW §III on a hardware-accelerated phone (docs/agent-protocol.md, "Frames"). A frame is a
// Choreographer.doFrame; measure and layout run only after requestLayout (ViewRootImpl.performTraversals), and
// a view's draw(Canvas) runs only when its display list is re-recorded (View.updateDisplayListIfDirty; a
// ViewGroup without background re-records through dispatchDraw alone, PFLAG_SKIP_DRAW); every other view on
// screen is replayed from its RenderNode at no Java cost. So the agent times each re-recording and, when a
// window drew (ViewRootImpl.performDraw), walks every window of the app at the frame's end, in z-order, and
// prints one draw op per view on screen in drawing order: re-recorded ones with their cost, the others
// flagged replayed, each with its on-screen rectangle (view-geometry.ts).
import type { RenderOp } from "../protocol";
import { exactHook, Java, startingWith, type Agent, type HookSpec, type JavaObject } from "./hook-kit";
import { viewOps, VISIBLE } from "./view-ops";
import { WindowList } from "./window-list";

const V = "android.view.View";

interface Recording {
  self: JavaObject;
  id: number | null;
  start: bigint;
  recorded: boolean;
}
interface Drawn {
  view: JavaObject;
  start: bigint;
  dur: bigint;
  hw: boolean;
}

export function viewHooks(a: Agent): HookSpec[] {
  let frame = 0;
  let inFrame = false;
  let drew = false;
  let frameStart = 0n;
  const { layoutOf, geometry, printer, described, parentOf, layoutFileOf, emitOp, placeOf } = viewOps(
    a,
    () => frame,
  );
  const windows = new WindowList(a);
  /** updateDisplayListIfDirty calls in progress, innermost last */
  const recording: Recording[] = [];
  /** views whose draw ran in this frame (re-recorded, or drawn in software), by identity hash */
  const drawn = new Map<number, Drawn>();

  /** The frame's draw ops: every window's views on screen in drawing order (ViewGroup.dispatchDraw draws its
   * VISIBLE children in index order), then any view drawn outside them (software, or detached since). */
  function walk() {
    let last = frameStart;
    for (const w of windows.live()) {
      const root = w.root.getView();
      if (root === null) continue;
      const place = { window: w.id, offset: geometry.windowOffset(root) };
      const hw = Boolean(root.isHardwareAccelerated());
      const visit = (v: JavaObject, parent: number | null, layout: string | null) => {
        if (Number(v.getVisibility()) !== VISIBLE) return;
        const id = a.id(v);
        const own = layoutOf.get(id) ?? layout;
        const rec = drawn.get(id);
        drawn.delete(id);
        const start = rec ? rec.start : last;
        if (start > last) last = start;
        // The walk runs at the end of doFrame: on the UI thread.
        const flags = { hw, replayed: !rec, ui: true };
        emitOp(v, id, parent, "draw", start, rec ? rec.dur : 0n, flags, place, own);
        if (!described.get(id)!.group) return;
        const n = Number(v.getChildCount());
        for (let i = 0; i < n; i++) {
          const c = v.getChildAt(i);
          if (c !== null) visit(c, id, own);
        }
      };
      visit(root, null, null);
    }
    for (const [id, d] of drawn) {
      const parent = parentOf(d.view);
      const flags = { hw: d.hw, replayed: false, visibility: Number(d.view.getVisibility()) };
      emitOp(
        d.view,
        id,
        parent && a.id(parent),
        "draw",
        d.start,
        d.dur,
        flags,
        placeOf(d.view),
        layoutFileOf(d.view),
      );
    }
    drawn.clear();
    printer.flush();
  }

  const sameView = (r: Recording, v: JavaObject) => (r.id ??= a.id(r.self)) === a.id(v);
  const measured = (op: RenderOp) => (original: Java.Method) =>
    function (this: JavaObject, ...args: unknown[]) {
      const s = a.now();
      const r = original.call(this, ...args);
      a.guard(`View.${op}`, () => {
        const parent = parentOf(this);
        const flags = {
          hw: Boolean(this.isHardwareAccelerated()),
          replayed: false,
          visibility: Number(this.getVisibility()),
        };
        emitOp(
          this,
          a.id(this),
          parent && a.id(parent),
          op,
          s,
          a.now() - s,
          flags,
          placeOf(this),
          layoutFileOf(this),
        );
      });
      return r;
    };

  return [
    {
      hook: "Choreographer.doFrame",
      group: "frames",
      cls: "android.view.Choreographer",
      method: "doFrame",
      want: "doFrame(long,int,...)",
      // (long, int) up to API 30; (long, int, DisplayEventReceiver$VsyncEventData) from API 31.
      pick: startingWith("long", "int"),
      impl: (original) =>
        function (this: JavaObject, ...args: unknown[]) {
          frame++;
          inFrame = true;
          drew = false;
          frameStart = a.now();
          try {
            return original.call(this, ...args);
          } finally {
            inFrame = false;
            if (drew) a.guard("Choreographer.doFrame", walk);
            drawn.clear();
          }
        },
    },
    {
      hook: "ViewRootImpl.performDraw",
      group: "views",
      cls: "android.view.ViewRootImpl",
      method: "performDraw",
      want: "performDraw(...)",
      // performDraw() to API 32 (void) and 33 (boolean); performDraw(SurfaceSyncGroup) from API 34.
      pick: (o) => (o.length ? o.indexOf(o.reduce((x, y) => (y.length < x.length ? y : x))) : -1),
      impl: (original) =>
        function (this: JavaObject, ...args: unknown[]) {
          a.guard("ViewRootImpl.performDraw", () => windows.note(this));
          try {
            return original.call(this, ...args);
          } finally {
            drew = true;
            // Without Choreographer.doFrame hooked, each window's draw is its own frame.
            if (!inFrame) a.guard("ViewRootImpl.performDraw", walk);
          }
        },
    },
    exactHook(
      "views",
      V,
      "updateDisplayListIfDirty",
      [],
      (original) =>
        function (this: JavaObject) {
          const r: Recording = { self: this, id: null, start: a.now(), recorded: false };
          recording.push(r);
          try {
            return original.call(this);
          } finally {
            recording.pop();
            if (r.recorded)
              a.guard("View.updateDisplayListIfDirty", () =>
                drawn.set(r.id ?? a.id(this), {
                  view: Java.retain(this),
                  start: r.start,
                  dur: a.now() - r.start,
                  hw: true,
                }),
              );
          }
        },
    ),
    exactHook(
      "views",
      V,
      "draw",
      ["android.graphics.Canvas"],
      (original) =>
        function (this: JavaObject, canvas: JavaObject) {
          const top = recording[recording.length - 1];
          let own = false;
          a.guard("View.draw", () => (own = top !== undefined && !top.recorded && sameView(top, this)));
          if (own) {
            top!.recorded = true;
            return original.call(this, canvas);
          }
          // Drawn outside its own re-recording: software rendering (every view in the dirty region, each frame).
          const s = a.now();
          try {
            return original.call(this, canvas);
          } finally {
            a.guard("View.draw", () =>
              drawn.set(a.id(this), {
                view: Java.retain(this),
                start: s,
                dur: a.now() - s,
                hw: Boolean(canvas.isHardwareAccelerated()),
              }),
            );
          }
        },
    ),
    exactHook(
      "views",
      "android.view.ViewGroup",
      "dispatchDraw",
      ["android.graphics.Canvas"],
      (original) =>
        function (this: JavaObject, canvas: JavaObject) {
          // PFLAG_SKIP_DRAW: a ViewGroup with nothing of its own to draw re-records through dispatchDraw only.
          const top = recording[recording.length - 1];
          if (top !== undefined && !top.recorded)
            a.guard("ViewGroup.dispatchDraw", () => {
              if (sameView(top, this)) top.recorded = true;
            });
          return original.call(this, canvas);
        },
    ),
    exactHook(
      "views",
      "android.view.LayoutInflater",
      "inflate",
      ["int", "android.view.ViewGroup", "boolean"],
      (original) =>
        function (this: JavaObject, res: number, root: JavaObject, attach: boolean) {
          const v = original.call(this, res, root, attach);
          try {
            layoutOf.set(
              a.id(v),
              `res/layout/${this.getContext().getResources().getResourceEntryName(res)}.xml`,
            );
          } catch {
            // a resource without an entry name: the views keep layout_file null
          }
          return v;
        },
    ),
    exactHook("views", V, "measure", ["int", "int"], measured("measure")),
    exactHook("views", V, "layout", ["int", "int", "int", "int"], measured("layout")),
  ];
}
