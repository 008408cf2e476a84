// DRAW §III: measure, layout and draw of every View, with geometry, hierarchy and appearance; frames are
// numbered by Choreographer.doFrame, whose parameters grew a VsyncEventData on Android 12 (API 31), so the
// overload is chosen by its leading (long, int), not by one fixed signature.
import type { RenderOp } from "../protocol";
import { exactHook, Java, use, startingWith, type Agent, type HookSpec, type JavaObject } from "./hook-kit";

const V = "android.view.View";
const VISIBLE = 0;
const INVISIBLE = 4;

export function viewHooks(a: Agent): HookSpec[] {
  let frame = 0;
  /** identity hash of an inflated root view -> its layout file */
  const layoutOf = new Map<number, string>();
  const View = () => use(V);
  const Looper = () => use("android.os.Looper");

  function parentOf(v: JavaObject): JavaObject | null {
    try {
      const p = v.getParent();
      return p !== null && View().class.isInstance(p) ? p : null;
    } catch {
      return null;
    }
  }

  function record(v: JavaObject, op: RenderOp, start: bigint, canvas: JavaObject | null) {
    const dur = a.now() - start;
    const parent = parentOf(v);
    let xml: string | null = null;
    const rid = Number(v.getId());
    if (rid !== -1)
      try {
        xml = String(v.getResources().getResourceEntryName(rid));
      } catch {
        xml = null;
      }
    let layout: string | null = null;
    for (let p: JavaObject | null = v, depth = 0; p !== null && depth < 12 && layout === null; depth++) {
      layout = layoutOf.get(a.id(p)) ?? null;
      p = parentOf(p);
    }
    const vis = Number(v.getVisibility());
    const main = Looper().getMainLooper();
    a.emit({
      type: "op",
      frame,
      view_id: a.id(v),
      parent_id: parent === null ? null : a.id(parent),
      view_class: String(v.getClass().getName()),
      op,
      start,
      dur,
      ui_thread: main !== null && Boolean(main.isCurrentThread()),
      hw_accelerated: canvas ? Boolean(canvas.isHardwareAccelerated()) : Boolean(v.isHardwareAccelerated()),
      left: Number(v.getLeft()),
      top: Number(v.getTop()),
      width: Number(v.getWidth()),
      height: Number(v.getHeight()),
      has_background: v.getBackground() !== null,
      visibility: vis === VISIBLE ? "visible" : vis === INVISIBLE ? "invisible" : "gone",
      xml_id: xml,
      layout_file: layout,
    });
  }
  const timed = (op: RenderOp, canvasArg: boolean) => (original: Java.Method) =>
    function (this: JavaObject, ...args: unknown[]) {
      const s = a.now();
      const r = original.call(this, ...args);
      a.guard(`View.${op}`, () => record(this, op, s, canvasArg ? (args[0] as JavaObject) : null));
      return r;
    };

  return [
    {
      hook: "Choreographer.doFrame",
      group: "frames",
      cls: "android.view.Choreographer",
      method: "doFrame",
      want: "doFrame(long,int,...)",
      pick: startingWith("long", "int"),
      impl: (original) =>
        function (this: JavaObject, ...args: unknown[]) {
          frame++;
          return original.call(this, ...args);
        },
    },
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
    exactHook("views", V, "measure", ["int", "int"], timed("measure", false)),
    exactHook("views", V, "layout", ["int", "int", "int", "int"], timed("layout", false)),
    exactHook("views", V, "draw", ["android.graphics.Canvas"], timed("draw", true)),
  ];
}
