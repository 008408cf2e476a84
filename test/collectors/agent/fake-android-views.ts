// Views, LayoutInflater, Choreographer and input (MotionEvent, GestureDetector, KeyEvent, Activity).
import { type Body, type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { m, noop, obj } from "./fake-helpers";

export function defineViews(vm: FakeVm) {
  const api = vm.api;
  const d = (c: ClassDef) => vm.define(c);
  // Views (frameworks/base core/java/android/view/View.java, ViewGroup.java, Choreographer.java).
  d({
    name: "android.content.res.Resources",
    extends: "java.lang.Object",
    fields: ["names"],
    methods: [
      m("getResourceEntryName", ["int"], (v, s, [id]) => {
        const n = (s!.fields.names as unknown as Record<number, string>)[id as number];
        if (n === undefined)
          throw new Error(
            `android.content.res.Resources$NotFoundException: #0x${(id as number).toString(16)}`,
          );
        return n;
      }),
    ],
  });
  const resources = vm.newObj("android.content.res.Resources", {
    names: { 0x7f0a0001: "feed", 0x7f0a0002: "title", 0x7f0c0001: "activity_main" } as unknown as JVal,
  });
  d({
    name: "android.graphics.Canvas",
    extends: "java.lang.Object",
    fields: ["hw"],
    methods: [m("isHardwareAccelerated", [], (v, s) => Boolean(s!.fields.hw))],
  });
  d({ name: "android.graphics.drawable.Drawable", extends: "java.lang.Object" });
  const field =
    (name: string): Body =>
    (v, s) =>
      s!.fields[name] as JVal;
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
      "mBackground",
      "mViewFlags",
      "children",
      "hw",
    ],
    methods: [
      m("measure", ["int", "int"], (v, s, args) => {
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? []) v.invoke(c, "measure", args);
        v.advance(100_000);
      }),
      m("layout", ["int", "int", "int", "int"], (v, s, [l, t, r, b]) => {
        Object.assign(s!.fields, { mLeft: l, mTop: t, mRight: r, mBottom: b });
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? [])
          v.invoke(c, "layout", [0, 0, (r as number) - (l as number), 100]);
        v.advance(50_000);
      }),
      m("draw", ["android.graphics.Canvas"], (v, s, [canvas]) => {
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? [])
          v.invoke(c, "draw", [canvas], ["android.graphics.Canvas"]);
        v.advance(200_000);
      }),
      m(
        "draw",
        ["android.graphics.Canvas", "android.view.ViewGroup", "long"],
        (v, s, [canvas]) => v.invoke(s!, "draw", [canvas], ["android.graphics.Canvas"]),
        { ret: "boolean" },
      ),
      m("getParent", [], field("mParent")),
      m("getId", [], (v, s) => (s!.fields.mID ?? -1) as number),
      m("getResources", [], () => resources),
      // A view not laid out yet has all four edges at 0 (View.java's int fields).
      m("getLeft", [], (v, s) => (s!.fields.mLeft ?? 0) as number),
      m("getTop", [], (v, s) => (s!.fields.mTop ?? 0) as number),
      m("getWidth", [], (v, s) => ((s!.fields.mRight ?? 0) as number) - ((s!.fields.mLeft ?? 0) as number)),
      m("getHeight", [], (v, s) => ((s!.fields.mBottom ?? 0) as number) - ((s!.fields.mTop ?? 0) as number)),
      m("getBackground", [], (v, s) => (s!.fields.mBackground ?? null) as JVal),
      m("getVisibility", [], (v, s) => (s!.fields.mViewFlags ?? 0) as number),
      m("isHardwareAccelerated", [], (v, s) => Boolean(s!.fields.hw)),
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
  d({ name: "android.view.ViewGroup", extends: "android.view.View" });
  d({ name: "android.view.ViewRootImpl", extends: "java.lang.Object" });
  d({
    name: "android.widget.TextView",
    extends: "android.view.View",
    methods: [m("sendOnTextChanged", ["java.lang.CharSequence", "int", "int", "int"], noop)],
  });
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
  d({ name: "android.view.DisplayEventReceiver$VsyncEventData", extends: "java.lang.Object" });
  const traverse: Body = (v, s) => {
    const root = s!.fields.root as FakeObj | null;
    if (!root) return;
    v.invoke(root, "measure", [1080, 2400]);
    v.invoke(root, "layout", [0, 0, 1080, 2400]);
    v.invoke(root, "draw", [v.newObj("android.graphics.Canvas", { hw: true })], ["android.graphics.Canvas"]);
  };
  d({
    name: "android.view.Choreographer",
    extends: "java.lang.Object",
    fields: ["root"],
    methods: [
      api >= 31
        ? m("doFrame", ["long", "int", "android.view.DisplayEventReceiver$VsyncEventData"], traverse)
        : m("doFrame", ["long", "int"], traverse),
    ],
  });

  // Input: MotionEvent, GestureDetector (mAlwaysInTapRegion, dispatchLongPress), KeyEvent, Activity.
  d({
    name: "android.view.MotionEvent",
    extends: "java.lang.Object",
    fields: ["action", "x", "y"],
    methods: [
      m("getActionMasked", [], field("action")),
      m("getX", [], field("x")),
      m("getY", [], field("y")),
    ],
  });
  d({ name: "android.view.GestureDetector$OnGestureListener", extends: "java.lang.Object" });
  d({
    name: "android.view.GestureDetector",
    extends: "java.lang.Object",
    fields: ["mListener", "mAlwaysInTapRegion", "mInLongPress", "downX", "downY"],
    methods: [
      m(
        "onTouchEvent",
        ["android.view.MotionEvent"],
        (v, s, [e]) => {
          const f = s!.fields;
          const { action, x, y } = obj(e).fields as { action: number; x: number; y: number };
          if (action === 0)
            Object.assign(f, { mAlwaysInTapRegion: true, mInLongPress: false, downX: x, downY: y });
          // 8 dp touch slop at density 2.625 (ViewConfiguration.TOUCH_SLOP).
          if (action === 2 && Math.hypot(x - (f.downX as number), y - (f.downY as number)) > 21)
            f.mAlwaysInTapRegion = false;
          return true;
        },
        { ret: "boolean" },
      ),
      m("dispatchLongPress", [], (v, s) => {
        s!.fields.mInLongPress = true;
      }),
    ],
  });
  d({
    name: "android.view.KeyEvent",
    extends: "java.lang.Object",
    fields: ["action", "code"],
    methods: [
      m("getAction", [], field("action")),
      m("getKeyCode", [], field("code")),
      m("keyCodeToString", ["int"], (v, s, [c]) => (c === 4 ? "KEYCODE_BACK" : `KEYCODE_${c}`), {
        isStatic: true,
      }),
    ],
  });
  d({
    name: "android.app.Activity",
    extends: "java.lang.Object",
    methods: [m("dispatchKeyEvent", ["android.view.KeyEvent"], () => true, { ret: "boolean" })],
  });
}
