// Where a view is on the screen, the way Android composes it (docs/agent-protocol.md, "Geometry"): its bounds
// mapped through every ancestor's offset, scroll and transform (translation, scale) and clipped by each
// ancestor and by the window (View.getGlobalVisibleRect -> ViewGroup.getChildVisibleRect ->
// ViewRootImpl.getChildVisibleRect, frameworks/base core/java/android/view), in window pixels; the window's
// own position (View.getLocationOnScreen minus View.getLocationInWindow: AttachInfo.mWindowLeft/mWindowTop)
// turns them into screen pixels, so a popup or dialog window lands where it is shown.
import { Java, use, type JavaObject } from "./hook-kit";

/** A rectangle in window pixels, [left, top, right, bottom). */
export type Box = [number, number, number, number];

export class ViewGeometry {
  private rect: JavaObject | null = null;
  private xy: any[] | null = null;

  /** The visible part of `v` in its window; null when none of it is visible (clipped away or zero-sized). */
  inWindow(v: JavaObject): Box | null {
    this.rect ??= Java.retain(use("android.graphics.Rect").$new());
    if (!v.getGlobalVisibleRect(this.rect)) return null;
    // One call for four fields: Rect.flattenToString is "left top right bottom".
    const [l, t, r, b] = String(this.rect.flattenToString()).split(" ").map(Number);
    return [l!, t!, r!, b!];
  }

  /** Where `v`'s window is on the screen: getLocationOnScreen adds exactly the window's offset to getLocationInWindow. */
  windowOffset(v: JavaObject): [number, number] {
    this.xy ??= Java.array("int", [0, 0]);
    const xy = this.xy;
    v.getLocationOnScreen(xy);
    const sx = Number(xy[0]);
    const sy = Number(xy[1]);
    v.getLocationInWindow(xy);
    return [sx - Number(xy[0]), sy - Number(xy[1])];
  }
}
