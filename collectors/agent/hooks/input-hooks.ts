// DRAW §III's system-events log: user inputs from android.view.View (clicks, long clicks, scrolls) and
// android.view.GestureDetector (taps, drags, flings, long presses), plus text changes and keys.
import { exactHook, recordingHook, use, type Agent, type HookSpec, type JavaObject } from "./hook-kit";

const ACTION_DOWN = 0;
const ACTION_UP = 1;
const ACTION_MOVE = 2;
const ACTION_CANCEL = 3;
const KEY_DOWN = 0;
/** px a finger may move and still tap when the detector's own state cannot be read (8 dp at 3x density) */
const FALLBACK_SLOP = 24;
/** one scroll event per view per this many ns */
const SCROLL_GAP = 300_000_000n;

export function inputHooks(a: Agent): HookSpec[] {
  const input = (kind: string, target: string | null) =>
    a.emit({ type: "input", ts: a.now(), kind, target, source: "agent" });
  const target = (v: JavaObject): string => {
    try {
      const id = Number(v.getId());
      return id !== -1 ? String(v.getResources().getResourceEntryName(id)) : String(v.getClass().getName());
    } catch {
      return String(v.getClass().getName());
    }
  };
  const lastScroll = new Map<number, bigint>();

  // A gesture, per detector: where it went down, whether it left the tap region, whether it long-pressed.
  const gestures = new Map<number, { x: number; y: number; scrolled: boolean; long: boolean }>();
  const listenerOf = (d: JavaObject): string => {
    try {
      return String(d.mListener.value.getClass().getName());
    } catch {
      return "android.view.GestureDetector";
    }
  };
  /** GestureDetector's own mAlwaysInTapRegion (AOSP GestureDetector.java), else distance from the down point. */
  function leftTapRegion(d: JavaObject, g: { x: number; y: number }, e: JavaObject): boolean {
    try {
      return !d.mAlwaysInTapRegion.value;
    } catch {
      return Math.hypot(Number(e.getX()) - g.x, Number(e.getY()) - g.y) > FALLBACK_SLOP;
    }
  }

  const V = "android.view.View";
  const G = "android.view.GestureDetector";
  return [
    recordingHook(a, "inputs", V, "performClick", [], (v) => input("click", target(v))),
    recordingHook(a, "inputs", V, "performLongClick", [], (v) => input("long_click", target(v))),
    recordingHook(a, "inputs", V, "onScrollChanged", ["int", "int", "int", "int"], (v) => {
      const ts = a.now();
      const k = a.id(v);
      if ((lastScroll.get(k) ?? -SCROLL_GAP) + SCROLL_GAP <= ts) input("scroll", target(v));
      lastScroll.set(k, ts);
    }),
    recordingHook(
      a,
      "inputs",
      "android.widget.TextView",
      "sendOnTextChanged",
      ["java.lang.CharSequence", "int", "int", "int"],
      (v) => input("text", target(v)),
    ),
    recordingHook(
      a,
      "inputs",
      "android.app.Activity",
      "dispatchKeyEvent",
      ["android.view.KeyEvent"],
      (_, e) => {
        if (Number(e.getAction()) === KEY_DOWN)
          input("key", String(use("android.view.KeyEvent").keyCodeToString(e.getKeyCode())));
      },
    ),
    exactHook(
      "gestures",
      G,
      "onTouchEvent",
      ["android.view.MotionEvent"],
      (original) =>
        function (this: JavaObject, e: JavaObject) {
          const hook = "GestureDetector.onTouchEvent";
          let k = 0;
          let action = -1;
          a.guard(hook, () => {
            k = a.id(this);
            action = Number(e.getActionMasked());
            if (action === ACTION_DOWN)
              gestures.set(k, { x: Number(e.getX()), y: Number(e.getY()), scrolled: false, long: false });
          });
          const handled = original.call(this, e);
          a.guard(hook, () => {
            const g = gestures.get(k);
            if (!g) return;
            if (action === ACTION_MOVE && !g.scrolled && !g.long && leftTapRegion(this, g, e)) {
              g.scrolled = true;
              input("scroll", listenerOf(this));
            } else if (action === ACTION_UP || action === ACTION_CANCEL) {
              // A drag that ends is DRAW's swipe; a press that never left the tap region is a tap (click).
              if (action === ACTION_UP && !g.long) input(g.scrolled ? "swipe" : "click", listenerOf(this));
              gestures.delete(k);
            }
          });
          return handled;
        },
    ),
    recordingHook(a, "gestures", G, "dispatchLongPress", [], (d) => {
      const g = gestures.get(a.id(d));
      if (g) g.long = true;
      input("long_click", listenerOf(d));
    }),
  ];
}
