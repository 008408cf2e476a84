// The view hierarchy of each frame (DRAW §III-A "View Hierarchy"), from parent ids: a view's parent in a
// frame is its parent_id there, else the last one seen in earlier frames; unknown parents and cycles are
// cut (the view becomes a root) with a warning.
import type { Warnings } from "./word-codes";
import type { RenderTrace } from "./render-trace";

export function buildFrames(
  t: RenderTrace,
  parentId: Float64Array,
  viewIndex: Map<number, number>,
  order: number[],
  warn: Warnings,
): void {
  // Group operations by frame, keeping start order inside each.
  const byFrame = new Map<number, number[]>();
  for (let k = 0; k < t.length; k++) {
    const f = t.frame[k]!;
    let list = byFrame.get(f);
    if (!list) byFrame.set(f, (list = []));
    list.push(k);
  }
  const frameNumbers = [...byFrame.keys()].sort((a, b) => a - b);
  const regroup = new Int32Array(t.length);
  let pos = 0;
  const spans: [number, number, number][] = [];
  for (const f of frameNumbers) {
    const begin = pos;
    for (const k of byFrame.get(f)!) regroup[pos++] = k;
    spans.push([f, begin, pos]);
  }
  if (regroup.some((k, i) => k !== i)) permute(t, regroup, parentId, order);

  const lastParent = new Int32Array(t.views.length).fill(-1);
  for (const [frame, begin, end] of spans) {
    const local = new Map<number, number>();
    const views: number[] = [];
    for (let k = begin; k < end; k++) {
      const v = t.view[k]!;
      if (!local.has(v)) (local.set(v, views.length), views.push(v));
      const pid = parentId[k]!;
      if (Number.isNaN(pid)) lastParent[v] = -1;
      else {
        const p = viewIndex.get(pid);
        if (p === undefined) {
          warn.add(
            "views whose parent_id is no view in the trace, taken as roots",
            `frame ${frame} view ${t.views[v]!.viewId} parent ${pid}`,
          );
          lastParent[v] = -1;
        } else lastParent[v] = p;
      }
    }
    const parents = Int32Array.from(views, (v) => lastParent[v]!);
    const depths = new Int32Array(views.length).fill(-1);
    for (let i = 0; i < views.length; i++) {
      // Walk up until a known depth; a repeat on the way is a cycle, cut at this view.
      const chain: number[] = [];
      const onChain = new Set<number>();
      let v = views[i]!;
      let d = -1;
      for (;;) {
        const li = local.get(v);
        if (li !== undefined && depths[li]! >= 0) {
          d = depths[li]!;
          break;
        }
        if (onChain.has(v)) {
          warn.add(
            "parent cycles, cut (the view becomes a root)",
            `frame ${frame} view ${t.views[v]!.viewId}`,
          );
          lastParent[v] = -1;
          if (li !== undefined) parents[li] = -1;
          chain.length = chain.indexOf(v) + 1;
          d = -1;
          break;
        }
        chain.push(v);
        onChain.add(v);
        const p = lastParent[v]!;
        if (p < 0) break;
        v = p;
      }
      for (let c = chain.length - 1; c >= 0; c--) {
        d++;
        const li = local.get(chain[c]!);
        if (li !== undefined) depths[li] = d;
      }
    }
    t.frames.push({ frame, begin, end, views: Int32Array.from(views), parents, depths });
  }
}

/** Reorders every per-operation column by `perm` (new position → old position). */
function permute(t: RenderTrace, perm: Int32Array, parentId: Float64Array, order: number[]): void {
  const keys = [
    "frame",
    "view",
    "op",
    "start",
    "dur",
    "self",
    "uiThread",
    "hwAccelerated",
    "left",
    "top",
    "width",
    "height",
    "hasBackground",
    "visibility",
  ] as const;
  for (const key of keys) {
    const src = t[key];
    const dst = src.slice();
    for (let i = 0; i < perm.length; i++) dst[i] = src[perm[i]!]!;
    (t as unknown as Record<string, unknown>)[key] = dst;
  }
  const p = parentId.slice();
  const o = order.slice();
  for (let i = 0; i < perm.length; i++) ((parentId[i] = p[perm[i]!]!), (order[i] = o[perm[i]!]!));
}
