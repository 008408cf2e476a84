// Windows and frames as frameworks/base core/java/android/view runs them:
// - WindowManagerGlobal.addView makes a ViewRootImpl for the view (the window's position and size from its
//   WindowManager.LayoutParams) and attaches the tree (AttachInfo: mWindowLeft/mWindowTop, hardware
//   acceleration); removeView detaches it. addView gained `int userId` in API 30.
// - PopupWindow.showAtLocation wraps its content in a PopupDecorView (with the popup's background) and adds
//   it as a TYPE_APPLICATION_PANEL (1000) window at (x, y) (PopupWindow.java invokePopup); dismiss removes it.
// - Choreographer.doFrame runs each window's scheduled traversal (ViewRootImpl.performTraversals): measure
//   and layout only when requestLayout was called, then performDraw -> ThreadedRenderer
//   updateViewTreeDisplayList (mRecreateDisplayList from PFLAG_INVALIDATED, then updateDisplayListIfDirty), or
//   drawSoftware (mView.draw(Canvas)) on a window that is not accelerated. performDraw() to API 32 (void),
//   returning boolean in 33, performDraw(SurfaceSyncGroup) from 34; doFrame(long, int) to API 30,
//   doFrame(long, int, DisplayEventReceiver$VsyncEventData) from 31.
import { type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { m, obj } from "./fake-helpers";

export const TYPE_BASE_APPLICATION = 1;
export const TYPE_APPLICATION_PANEL = 1000;

export function defineWindows(
  vm: FakeVm,
  view: (cls: string, props?: Record<string, JVal>, parent?: FakeObj | null) => FakeObj,
) {
  const api = vm.api;
  const d = (c: ClassDef) => vm.define(c);
  const roots: FakeObj[] = [];

  d({
    name: "android.view.WindowManager$LayoutParams",
    extends: "java.lang.Object",
    fields: ["type", "x", "y", "width", "height"],
  });
  const attach = (v: FakeObj, info: JVal | undefined) => {
    const walk = (x: FakeObj) => {
      x.fields.mAttachInfo = info;
      for (const c of (x.fields.children as FakeObj[] | undefined) ?? []) walk(c);
    };
    walk(v);
  };
  const SYNC = api >= 34 ? ["android.window.SurfaceSyncGroup"] : [];
  d({
    name: "android.view.ViewRootImpl",
    extends: "java.lang.Object",
    fields: [
      "mView",
      "mWidth",
      "mHeight",
      "mWindowAttributes",
      "mLayoutRequested",
      "mTraversalScheduled",
      "hw",
    ],
    methods: [
      m("getView", [], (v, s) => (s!.fields.mView ?? null) as JVal),
      m(
        "requestLayout",
        [],
        (v, s) => void Object.assign(s!.fields, { mLayoutRequested: true, mTraversalScheduled: true }),
      ),
      m(
        "getChildVisibleRect",
        ["android.view.View", "android.graphics.Rect", "android.graphics.Point"],
        (v, s, [, r]) => v.invoke(obj(r), "intersect", [0, 0, s!.fields.mWidth, s!.fields.mHeight]),
        { ret: "boolean" },
      ),
      m("performTraversals", [], (v, s) => {
        const f = s!.fields;
        f.mTraversalScheduled = false;
        const host = f.mView as FakeObj | null;
        if (!host) return;
        if (f.mLayoutRequested) {
          f.mLayoutRequested = false;
          v.invoke(host, "measure", [f.mWidth, f.mHeight]);
          v.invoke(host, "layout", [0, 0, f.mWidth, f.mHeight]);
        }
        v.invoke(s!, "performDraw", SYNC.length ? [null] : [], SYNC);
      }),
      m(
        "performDraw",
        SYNC,
        (v, s) => {
          const host = obj(s!.fields.mView);
          if (s!.fields.hw) {
            host.fields.mRecreateDisplayList = Boolean(host.fields.invalidated);
            host.fields.invalidated = false;
            v.invoke(host, "updateDisplayListIfDirty");
            host.fields.mRecreateDisplayList = false;
          } else
            v.invoke(
              host,
              "draw",
              [v.newObj("android.graphics.Canvas", { hw: false })],
              ["android.graphics.Canvas"],
            );
          return api >= 33 ? true : undefined;
        },
        { ret: api >= 33 ? "boolean" : "void" },
      ),
    ],
  });
  const ADD = [
    "android.view.View",
    "android.view.ViewGroup$LayoutParams",
    "android.view.Display",
    "android.view.Window",
    ...(api >= 30 ? ["int"] : []),
  ];
  d({
    name: "android.view.WindowManagerGlobal",
    extends: "java.lang.Object",
    methods: [
      m("addView", ADD, (v, s, [root, params]) => {
        const p = obj(params).fields as {
          type: number;
          x: number;
          y: number;
          width: number;
          height: number;
          hw?: boolean;
        };
        const vr = v.newObj("android.view.ViewRootImpl", {
          mView: root,
          mWidth: p.width,
          mHeight: p.height,
          mWindowAttributes: params,
          hw: p.hw !== false,
        });
        obj(root).fields.mParent = vr;
        attach(obj(root), { left: p.x, top: p.y, root: vr, hw: p.hw !== false } as unknown as JVal);
        roots.push(vr);
        v.invoke(obj(root), "requestLayout");
      }),
      m("removeView", ["android.view.View", "boolean"], (v, s, [root]) => {
        const vr = roots.find((r) => r.fields.mView === root)!;
        roots.splice(roots.indexOf(vr), 1);
        vr.fields.mView = null;
        obj(root).fields.mParent = null;
        attach(obj(root), undefined);
      }),
    ],
  });
  const wm = vm.newObj("android.view.WindowManagerGlobal");
  /** Adds `root` as a window at (x, y), width x height, of window `type`. */
  const addWindow = (
    root: FakeObj,
    x: number,
    y: number,
    width: number,
    height: number,
    type = TYPE_BASE_APPLICATION,
    hw = true,
  ) => {
    const params = vm.newObj("android.view.WindowManager$LayoutParams", { type, x, y, width, height, hw });
    vm.invoke(wm, "addView", [root, params, null, null, ...(api >= 30 ? [0] : [])], ADD);
  };

  d({
    name: "android.widget.PopupWindow",
    extends: "java.lang.Object",
    fields: ["mContentView", "mBackground", "mWidth", "mHeight", "mDecorView"],
    methods: [
      m("showAtLocation", ["android.view.View", "int", "int", "int"], (v, s, [, , x, y]) => {
        const f = s!.fields;
        const decor = view("android.widget.PopupWindow$PopupDecorView", { mBackground: f.mBackground });
        const content = obj(f.mContentView);
        content.fields.mParent = decor;
        content.fields.lp = [0, 0, f.mWidth, f.mHeight];
        (decor.fields.children as FakeObj[]).push(content);
        f.mDecorView = decor;
        addWindow(
          decor,
          x as number,
          y as number,
          f.mWidth as number,
          f.mHeight as number,
          TYPE_APPLICATION_PANEL,
        );
      }),
      m("dismiss", [], (v, s) => v.invoke(wm, "removeView", [s!.fields.mDecorView, false])),
    ],
  });
  d({ name: "android.widget.PopupWindow$PopupDecorView", extends: "android.widget.FrameLayout" });

  d({ name: "android.view.DisplayEventReceiver$VsyncEventData", extends: "java.lang.Object" });
  const doFrame = (v: FakeVm, s: FakeObj | null) => {
    // A Choreographer given a bare root view (older tests) shows it full screen first.
    const root = s?.fields.root as FakeObj | undefined;
    if (root && !root.fields.mAttachInfo) addWindow(root, 0, 0, 1080, 2400);
    for (const r of [...roots]) if (r.fields.mTraversalScheduled) v.invoke(r, "performTraversals");
  };
  d({
    name: "android.view.Choreographer",
    extends: "java.lang.Object",
    fields: ["root"],
    methods: [
      api >= 31
        ? m("doFrame", ["long", "int", "android.view.DisplayEventReceiver$VsyncEventData"], doFrame)
        : m("doFrame", ["long", "int"], doFrame),
    ],
  });
  const choreographer = vm.newObj("android.view.Choreographer");
  /** One vsync: Choreographer.doFrame with the arguments this API level passes. */
  const frame = (c: FakeObj = choreographer) =>
    vm.invoke(
      c,
      "doFrame",
      api >= 31
        ? [vm.clock, 0, vm.newObj("android.view.DisplayEventReceiver$VsyncEventData")]
        : [vm.clock, 0],
    );
  return { addWindow, frame, roots, wm };
}
