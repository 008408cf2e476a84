// A view's op records (DRAW §III): who it is (class, id name, background, layout file, parent) and where it is
// (view-geometry.ts), printed through op-printer.ts. Shared by the measure and layout hooks and the frame walk.
import type { RenderOp } from "../protocol";
import { use, type Agent, type JavaObject } from "./hook-kit";
import { OpPrinter } from "./op-printer";
import { ViewGeometry, type Box } from "./view-geometry";

const V = "android.view.View";
export const VISIBLE = 0;
const INVISIBLE = 4;

export interface Described {
  cls: string;
  xml: string | null;
  background: boolean;
  group: boolean;
}

/** `frameNow`: the frame number ops get (Choreographer.doFrame's count). */
export function viewOps(a: Agent, frameNow: () => number) {
  /** identity hash of an inflated root view -> its layout file */
  const layoutOf = new Map<number, string>();
  const geometry = new ViewGeometry();
  const printer = new OpPrinter(a);
  const described = new Map<number, Described>();
  const groupClass = new Map<string, boolean>();

  function parentOf(v: JavaObject): JavaObject | null {
    try {
      const p = v.getParent();
      return p !== null && use(V).class.isInstance(p) ? p : null;
    } catch {
      return null;
    }
  }
  function describe(v: JavaObject, id: number, fresh: boolean): Described {
    const known = described.get(id);
    if (known && !fresh) return known;
    const cls = String(v.getClass().getName());
    let group = groupClass.get(cls);
    if (group === undefined)
      groupClass.set(cls, (group = Boolean(use("android.view.ViewGroup").class.isInstance(v))));
    let xml: string | null = null;
    const rid = Number(v.getId());
    if (rid !== -1)
      try {
        xml = String(v.getResources().getResourceEntryName(rid));
      } catch {
        xml = null;
      }
    const d = { cls, xml, background: v.getBackground() !== null, group };
    described.set(id, d);
    return d;
  }
  function layoutFileOf(v: JavaObject): string | null {
    for (let p: JavaObject | null = v, depth = 0; p !== null && depth < 12; depth++) {
      const l = layoutOf.get(a.id(p));
      if (l !== undefined) return l;
      p = parentOf(p);
    }
    return null;
  }

  function emitOp(
    v: JavaObject,
    id: number,
    parent: number | null,
    op: RenderOp,
    start: bigint,
    dur: bigint,
    flags: { hw: boolean; replayed: boolean; visibility?: number; ui?: boolean },
    where: { window: number | null; offset: [number, number] },
    layoutFile: string | null,
  ) {
    const d = describe(v, id, !flags.replayed);
    const box: Box | null = geometry.inWindow(v);
    const vis = flags.visibility ?? VISIBLE;
    let ui = flags.ui;
    if (ui === undefined) {
      const main = use("android.os.Looper").getMainLooper();
      ui = main !== null && Boolean(main.isCurrentThread());
    }
    const [ox, oy] = where.offset;
    printer.print({
      type: "op",
      frame: frameNow(),
      view_id: id,
      parent_id: parent,
      view_class: d.cls,
      op,
      start,
      dur,
      ui_thread: ui,
      hw_accelerated: flags.hw,
      replayed: flags.replayed,
      left: box ? box[0] + ox : 0,
      top: box ? box[1] + oy : 0,
      width: box ? box[2] - box[0] : 0,
      height: box ? box[3] - box[1] : 0,
      has_background: d.background,
      visibility: vis === VISIBLE ? "visible" : vis === INVISIBLE ? "invisible" : "gone",
      xml_id: d.xml,
      layout_file: layoutFile,
      window_id: where.window,
      window_left: box ? box[0] : 0,
      window_top: box ? box[1] : 0,
    });
  }

  /** Where `v` sits: its window (ViewRootImpl identity) and that window's offset on screen. */
  function placeOf(v: JavaObject): { window: number | null; offset: [number, number] } {
    let window: number | null = null;
    try {
      const root = v.getViewRootImpl();
      window = root === null ? null : a.id(root);
    } catch {
      window = null;
    }
    return { window, offset: geometry.windowOffset(v) };
  }

  return { layoutOf, geometry, printer, described, parentOf, describe, layoutFileOf, emitOp, placeOf };
}
