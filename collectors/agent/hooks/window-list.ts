// The app's windows (one ViewRootImpl each: the activity, its dialogs and popups), learnt as they draw, in the
// order the window manager stacks them: by WindowManager.LayoutParams.type (an application window is 1-99, a
// sub-window such as a PopupWindow's panel 1000-1999 above it, frameworks/base core/java/android/view/
// WindowManager.java), then by when they were first seen. A window whose root view is gone (removed through
// WindowManagerGlobal.removeView) is dropped.
import { Java, type Agent, type JavaObject } from "./hook-kit";

interface Window {
  id: number;
  root: JavaObject;
  type: number;
  order: number;
}

export class WindowList {
  private byId = new Map<number, Window>();
  private next = 0;
  constructor(private readonly a: Agent) {}

  /** Remembers the ViewRootImpl `root` (retained: it outlives the hooked call). */
  note(root: JavaObject) {
    const id = this.a.id(root);
    if (this.byId.has(id)) return;
    let type = 0;
    try {
      type = Number(root.mWindowAttributes.value.type.value);
    } catch {
      type = 0;
    }
    this.byId.set(id, { id, root: Java.retain(root), type, order: this.next++ });
  }

  /** The windows still showing, bottom first. */
  live(): Window[] {
    const out: Window[] = [];
    for (const [id, w] of this.byId) {
      let alive = false;
      try {
        alive = w.root.getView() !== null;
      } catch {
        alive = false;
      }
      if (alive) out.push(w);
      else this.byId.delete(id);
    }
    return out.sort((x, y) => x.type - y.type || x.order - y.order);
  }
}
