// Input as the agent sees it: MotionEvent, GestureDetector (mAlwaysInTapRegion, dispatchLongPress), KeyEvent and
// Activity (frameworks/base core/java/android/view/GestureDetector.java, KeyEvent.java).
import { type ClassDef, type FakeVm } from "./fake-java";
import { m, obj } from "./fake-helpers";

export function defineInput(vm: FakeVm) {
  const d = (c: ClassDef) => vm.define(c);
  const field = (name: string) => (v: FakeVm, s: { fields: Record<string, unknown> } | null) =>
    s!.fields[name] as never;
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
