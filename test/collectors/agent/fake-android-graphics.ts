// What views draw with and are named by: Resources (id names), Rect (android.graphics.Rect: set, intersect,
// flattenToString), Canvas and the canvas a RenderNode records into (DisplayListCanvas to API 28,
// RecordingCanvas from 29), Drawable.
import { type ClassDef, type FakeVm, type JVal } from "./fake-java";
import { m } from "./fake-helpers";

export function defineGraphics(vm: FakeVm) {
  const api = vm.api;
  const d = (c: ClassDef) => vm.define(c);
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
    name: "android.graphics.Rect",
    extends: "java.lang.Object",
    fields: ["left", "top", "right", "bottom"],
    methods: [
      m(
        "set",
        ["int", "int", "int", "int"],
        (v, s, [l, t, r, b]) => void Object.assign(s!.fields, { left: l, top: t, right: r, bottom: b }),
      ),
      // Rect.intersect: the overlap, if any (else unchanged, false).
      m(
        "intersect",
        ["int", "int", "int", "int"],
        (v, s, [l, t, r, b]) => {
          const f = s!.fields as Record<string, number>;
          const [L, T, R, B] = [
            Math.max(f.left!, l as number),
            Math.max(f.top!, t as number),
            Math.min(f.right!, r as number),
            Math.min(f.bottom!, b as number),
          ];
          if (!(L < R && T < B)) return false;
          Object.assign(f, { left: L, top: T, right: R, bottom: B });
          return true;
        },
        { ret: "boolean" },
      ),
      m(
        "flattenToString",
        [],
        (v, s) => `${s!.fields.left} ${s!.fields.top} ${s!.fields.right} ${s!.fields.bottom}`,
      ),
    ],
  });
  d({
    name: "android.graphics.Canvas",
    extends: "java.lang.Object",
    fields: ["hw"],
    methods: [m("isHardwareAccelerated", [], (v, s) => Boolean(s!.fields.hw))],
  });
  // The canvas a RenderNode records into: DisplayListCanvas to API 28, RecordingCanvas from 29.
  const RECORDING = api >= 29 ? "android.graphics.RecordingCanvas" : "android.view.DisplayListCanvas";
  d({ name: RECORDING, extends: "android.graphics.Canvas" });
  d({ name: "android.graphics.drawable.Drawable", extends: "java.lang.Object" });
  return { resources, RECORDING };
}
