// Views as frameworks/base core/java/android/view/View.java and ViewGroup.java run them on a
// hardware-accelerated window, API 23-35:
// - measure(int,int) does work only after requestLayout (PFLAG_FORCE_LAYOUT) or for a new spec; layout sets the
//   frame and lays the children out only when required.
// - draw(Canvas, ViewGroup, long) (ViewGroup.drawChild) on a hardware canvas takes mRecreateDisplayList from
//   PFLAG_INVALIDATED and calls updateDisplayListIfDirty: a clean view (PFLAG_DRAWING_CACHE_VALID, a display
//   list) is replayed as is; an ancestor of an invalidated view only asks its children (dispatchGetDisplayList);
//   an invalidated one re-records, through draw(Canvas) or, for a ViewGroup without background (PFLAG_SKIP_DRAW),
//   through dispatchDraw alone. In software, draw(Canvas) runs for every view, each frame.
// - invalidate() sets PFLAG_INVALIDATED and clears PFLAG_DRAWING_CACHE_VALID up to the root
//   (ViewGroup.onDescendantInvalidated, API 26+; invalidateChildInParent before); setTranslationX/Y changes
//   the RenderNode only (invalidateViewProperty -> damageInParent); scrollTo invalidates the scrolled view;
//   requestLayout sets PFLAG_FORCE_LAYOUT | PFLAG_INVALIDATED up to ViewRootImpl.
// - getLocationInWindow/getLocationOnScreen (transformFromViewToWindowSpace) and getGlobalVisibleRect
//   (ViewGroup.getChildVisibleRect: offset, scroll, translation, clip to each parent; ViewRootImpl clips to
//   the window), the geometry the agent reads.
// Children sit at their `lp` [x, y, width, height] in the parent (default: [0, 0, parent width, 100]).
import { type Body, type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { m, noop, obj } from "./fake-helpers";
import { defineGraphics } from "./fake-android-graphics";

const kids = (s: FakeObj) => (s.fields.children as FakeObj[] | undefined) ?? [];
const num = (s: FakeObj, f: string) => (s.fields[f] ?? 0) as number;
const isGroup = (s: FakeObj) => s.cls.isSubclassOf("android.view.ViewGroup");
/** PFLAG_SKIP_DRAW: a ViewGroup is WILL_NOT_DRAW until it gets a background (View.setFlags). */
const skipDraw = (s: FakeObj) => isGroup(s) && !s.fields.mBackground;

export function defineViews(vm: FakeVm) {
  const api = vm.api;
  const d = (c: ClassDef) => vm.define(c);
  const { resources, RECORDING } = defineGraphics(vm);
  const field =
    (name: string): Body =>
    (v, s) =>
      s!.fields[name] as JVal;
  const CANVAS = ["android.graphics.Canvas"];

  /** The damage path (ViewGroup.onDescendantInvalidated): ancestors lose PFLAG_DRAWING_CACHE_VALID; the window redraws. */
  const damageInParent = (v: FakeVm, s: FakeObj) => {
    let p = s.fields.mParent as FakeObj | null | undefined;
    for (; p && p.cls.isSubclassOf("android.view.View"); p = p.fields.mParent as FakeObj | null)
      p.fields.cacheValid = false;
    if (p) p.fields.mTraversalScheduled = true;
  };
  /** A child's frame in its parent: its `lp`, or the parent's width by 100 px at the top. */
  const frameOf = (c: FakeObj, width: number): number[] =>
    (c.fields.lp as number[] | undefined) ?? [0, 0, width, 100];
  /** Maps a point or rectangle of `c`'s own coordinates into its parent's: translation (the RenderNode's matrix), offset, parent scroll. */
  const toParent = (c: FakeObj, p: FakeObj) => [
    num(c, "mTranslationX") + num(c, "mLeft") - num(p, "mScrollX"),
    num(c, "mTranslationY") + num(c, "mTop") - num(p, "mScrollY"),
  ];

  d({
    name: "android.view.View",
    extends: "java.lang.Object",
    fields: [
      "mParent",
      "mID",
      "mLeft",
      "mTop",
      "mRight",
      "mBottom",
      "mScrollX",
      "mScrollY",
      "mTranslationX",
      "mTranslationY",
      "mBackground",
      "mViewFlags",
      "mAttachInfo",
      "children",
      "lp",
      "hw",
      "invalidated",
      "cacheValid",
      "displayList",
      "mRecreateDisplayList",
      "forceLayout",
      "layoutRequired",
      "spec",
    ],
    methods: [
      m("measure", ["int", "int"], (v, s, [w, h]) => {
        const spec = `${w}x${h}`;
        if (!s!.fields.forceLayout && s!.fields.spec === spec) return;
        s!.fields.spec = spec;
        for (const c of kids(s!)) v.invoke(c, "measure", [w, h]);
        v.advance(100_000);
        s!.fields.layoutRequired = true;
      }),
      m("layout", ["int", "int", "int", "int"], (v, s, [l, t, r, b]) => {
        const f = s!.fields;
        const changed = f.mLeft !== l || f.mTop !== t || f.mRight !== r || f.mBottom !== b;
        const resized =
          (f.mRight as number) - (f.mLeft as number) !== (r as number) - (l as number) ||
          (f.mBottom as number) - (f.mTop as number) !== (b as number) - (t as number);
        Object.assign(f, { mLeft: l, mTop: t, mRight: r, mBottom: b });
        // setFrame: a new size re-records the view (invalidate(true)); any change damages the parent.
        if (changed) {
          if (resized) ((f.invalidated = true), (f.cacheValid = false));
          damageInParent(v, s!);
        }
        if (changed || f.layoutRequired || f.forceLayout) {
          for (const c of kids(s!)) {
            const [x, y, w, h] = frameOf(c, (r as number) - (l as number));
            v.invoke(c, "layout", [x!, y!, x! + w!, y! + h!]);
          }
          v.advance(50_000);
        }
        f.forceLayout = false;
        f.layoutRequired = false;
      }),
      // draw(Canvas): background, onDraw, dispatchDraw (children), foreground.
      m("draw", CANVAS, (v, s, [canvas]) => {
        v.advance(200_000);
        v.invoke(s!, "dispatchDraw", [canvas], CANVAS);
      }),
      m("dispatchDraw", CANVAS, noop),
      m(
        "draw",
        ["android.graphics.Canvas", "android.view.ViewGroup", "long"],
        (v, s, [canvas]) => {
          const f = s!.fields;
          if (obj(canvas).fields.hw && f.hw !== false) {
            f.mRecreateDisplayList = Boolean(f.invalidated);
            f.invalidated = false;
            v.invoke(s!, "updateDisplayListIfDirty");
          } else if (skipDraw(s!)) v.invoke(s!, "dispatchDraw", [canvas], CANVAS);
          else v.invoke(s!, "draw", [canvas], CANVAS);
          return false;
        },
        { ret: "boolean" },
      ),
      m(
        "updateDisplayListIfDirty",
        [],
        (v, s) => {
          const f = s!.fields;
          if (f.cacheValid && f.displayList && !f.mRecreateDisplayList) return null; // clean: replayed as recorded
          if (f.displayList && !f.mRecreateDisplayList) {
            // Not dirty itself: its children update theirs (dispatchGetDisplayList).
            f.cacheValid = true;
            v.invoke(s!, "dispatchGetDisplayList");
            return null;
          }
          f.mRecreateDisplayList = true;
          const c = v.newObj(RECORDING, { hw: true });
          f.cacheValid = true;
          if (skipDraw(s!)) v.invoke(s!, "dispatchDraw", [c], CANVAS);
          else v.invoke(s!, "draw", [c], CANVAS);
          f.displayList = true;
          f.mRecreateDisplayList = false;
          return null;
        },
        { ret: "android.graphics.RenderNode" },
      ),
      m("dispatchGetDisplayList", [], noop),
      m("invalidate", [], (v, s) => {
        Object.assign(s!.fields, { invalidated: true, cacheValid: false });
        damageInParent(v, s!);
      }),
      m("requestLayout", [], (v, s) => {
        Object.assign(s!.fields, { forceLayout: true, invalidated: true });
        const p = s!.fields.mParent as FakeObj | null | undefined;
        if (p) v.invoke(p, "requestLayout");
      }),
      m("scrollTo", ["int", "int"], (v, s, [x, y]) => {
        const [ox, oy] = [num(s!, "mScrollX"), num(s!, "mScrollY")];
        Object.assign(s!.fields, { mScrollX: x, mScrollY: y });
        v.invoke(s!, "onScrollChanged", [x, y, ox, oy]);
        v.invoke(s!, "invalidate");
      }),
      m("setTranslationX", ["float"], (v, s, [x]) => ((s!.fields.mTranslationX = x), damageInParent(v, s!))),
      m("setTranslationY", ["float"], (v, s, [y]) => ((s!.fields.mTranslationY = y), damageInParent(v, s!))),
      m("getLocationInWindow", ["[I"], (v, s, [out]) => {
        let [x, y] = [
          num(s!, "mTranslationX") + num(s!, "mLeft"),
          num(s!, "mTranslationY") + num(s!, "mTop"),
        ];
        for (
          let p = s!.fields.mParent as FakeObj | null;
          p && p.cls.isSubclassOf("android.view.View");
          p = p.fields.mParent as FakeObj | null
        ) {
          const [dx, dy] = [
            num(p, "mTranslationX") + num(p, "mLeft") - num(p, "mScrollX"),
            num(p, "mTranslationY") + num(p, "mTop") - num(p, "mScrollY"),
          ];
          ((x += dx), (y += dy));
        }
        obj(out).fields.items = [Math.round(x), Math.round(y)];
      }),
      m("getLocationOnScreen", ["[I"], (v, s, [out]) => {
        v.invoke(s!, "getLocationInWindow", [out]);
        const ai = s!.fields.mAttachInfo as { left: number; top: number } | undefined;
        const xy = obj(out).fields.items as number[];
        if (ai) obj(out).fields.items = [xy[0]! + ai.left, xy[1]! + ai.top];
      }),
      m(
        "getGlobalVisibleRect",
        ["android.graphics.Rect"],
        (v, s, [r]) => v.invoke(s!, "getGlobalVisibleRect", [r, null]),
        { ret: "boolean" },
      ),
      m(
        "getGlobalVisibleRect",
        ["android.graphics.Rect", "android.graphics.Point"],
        (v, s, [r]) => {
          const w = num(s!, "mRight") - num(s!, "mLeft");
          const h = num(s!, "mBottom") - num(s!, "mTop");
          if (!(w > 0 && h > 0)) return false;
          v.invoke(obj(r), "set", [0, 0, w, h]);
          const p = s!.fields.mParent as FakeObj | null;
          return p === null || Boolean(v.invoke(p, "getChildVisibleRect", [s!, r, null]));
        },
        { ret: "boolean" },
      ),
      m("getParent", [], field("mParent")),
      m(
        "getViewRootImpl",
        [],
        (v, s) => ((s!.fields.mAttachInfo as { root?: FakeObj } | undefined)?.root ?? null) as JVal,
      ),
      m("getRootView", [], (v, s) => {
        let r = s!;
        while (r.fields.mParent && obj(r.fields.mParent as JVal).cls.isSubclassOf("android.view.View"))
          r = obj(r.fields.mParent as JVal);
        return r;
      }),
      m("isAttachedToWindow", [], (v, s) => Boolean(s!.fields.mAttachInfo), { ret: "boolean" }),
      m("getId", [], (v, s) => (s!.fields.mID ?? -1) as number),
      m("getResources", [], () => resources),
      m("getLeft", [], (v, s) => num(s!, "mLeft")),
      m("getTop", [], (v, s) => num(s!, "mTop")),
      m("getScrollX", [], (v, s) => num(s!, "mScrollX")),
      m("getScrollY", [], (v, s) => num(s!, "mScrollY")),
      m("getTranslationX", [], (v, s) => num(s!, "mTranslationX"), { ret: "float" }),
      m("getTranslationY", [], (v, s) => num(s!, "mTranslationY"), { ret: "float" }),
      m("getWidth", [], (v, s) => num(s!, "mRight") - num(s!, "mLeft")),
      m("getHeight", [], (v, s) => num(s!, "mBottom") - num(s!, "mTop")),
      m("getBackground", [], (v, s) => (s!.fields.mBackground ?? null) as JVal),
      m("getVisibility", [], (v, s) => (s!.fields.mViewFlags ?? 0) as number),
      // mAttachInfo.mHardwareAccelerated: a window's views are accelerated unless the window is not.
      m("isHardwareAccelerated", [], (v, s) =>
        Boolean((s!.fields.mAttachInfo as { hw?: boolean } | undefined)?.hw ?? s!.fields.hw),
      ),
      m("performClick", [], () => true, { ret: "boolean" }),
      m("performLongClick", [], () => true, { ret: "boolean" }),
      ...(api >= 24
        ? [
            m("performLongClick", ["float", "float"], (v, s) => v.invoke(s!, "performLongClick", []), {
              ret: "boolean",
            }),
          ]
        : []),
      m("onScrollChanged", ["int", "int", "int", "int"], noop),
    ],
  });
  d({
    name: "android.view.ViewGroup",
    extends: "android.view.View",
    fields: ["mChildren"],
    methods: [
      m("getChildCount", [], (v, s) => kids(s!).length, { ret: "int" }),
      m("getChildAt", ["int"], (v, s, [i]) => kids(s!)[i as number] ?? null),
      // dispatchDraw -> drawChild(canvas, child, drawingTime) for each VISIBLE child, in index order.
      m("dispatchDraw", CANVAS, (v, s, [canvas]) => {
        for (const c of kids(s!))
          if (num(c, "mViewFlags") === 0)
            v.invoke(
              c,
              "draw",
              [canvas, s!, v.clock],
              ["android.graphics.Canvas", "android.view.ViewGroup", "long"],
            );
      }),
      // recreateChildDisplayList for each VISIBLE child.
      m("dispatchGetDisplayList", [], (v, s) => {
        for (const c of kids(s!)) {
          if (num(c, "mViewFlags") !== 0) continue;
          c.fields.mRecreateDisplayList = Boolean(c.fields.invalidated);
          c.fields.invalidated = false;
          v.invoke(c, "updateDisplayListIfDirty");
          c.fields.mRecreateDisplayList = false;
        }
      }),
      m(
        "getChildVisibleRect",
        ["android.view.View", "android.graphics.Rect", "android.graphics.Point"],
        (v, s, [child, r, offset]) => {
          const f = obj(r).fields as Record<string, number>;
          const [dx, dy] = toParent(obj(child), s!);
          v.invoke(obj(r), "set", [f.left! + dx!, f.top! + dy!, f.right! + dx!, f.bottom! + dy!]);
          if (
            !v.invoke(obj(r), "intersect", [
              0,
              0,
              num(s!, "mRight") - num(s!, "mLeft"),
              num(s!, "mBottom") - num(s!, "mTop"),
            ])
          )
            return false;
          const p = s!.fields.mParent as FakeObj | null;
          return p === null || Boolean(v.invoke(p, "getChildVisibleRect", [s!, r, offset]));
        },
        { ret: "boolean" },
      ),
    ],
  });
  d({
    name: "android.widget.TextView",
    extends: "android.view.View",
    methods: [m("sendOnTextChanged", ["java.lang.CharSequence", "int", "int", "int"], noop)],
  });
  d({ name: "android.widget.FrameLayout", extends: "android.view.ViewGroup" });
  d({
    name: "android.view.LayoutInflater",
    extends: "java.lang.Object",
    fields: ["build"],
    methods: [
      m("inflate", ["int", "android.view.ViewGroup"], (v, s, [res, root]) =>
        v.invoke(s!, "inflate", [res, root, root !== null], ["int", "android.view.ViewGroup", "boolean"]),
      ),
      m("inflate", ["int", "android.view.ViewGroup", "boolean"], (v, s) =>
        (s!.fields.build as unknown as () => FakeObj)(),
      ),
      m("getContext", [], () => vm.newObj("android.app.ContextImpl")),
    ],
  });
  vm.addMethod(
    vm.cls("android.app.ContextImpl"),
    m("getResources", [], () => resources),
  );

  /** A view of class `cls` (default a plain View) under `parent` at lp [x, y, width, height]. */
  const view = (cls: string, props: Record<string, JVal> = {}, parent: FakeObj | null = null): FakeObj => {
    const o = vm.newObj(cls, { children: [] as JVal[], ...props });
    if (parent) {
      o.fields.mParent = parent;
      kids(parent).push(o);
    }
    return o;
  };
  return { view };
}
