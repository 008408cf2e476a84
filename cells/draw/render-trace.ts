// Trace preprocessing (DRAW §III-B): the render_ops table as typed columns, the view hierarchy per frame,
// and overlapped rendering time eliminated.
//
// Overlapped time: a view's measure/layout/draw includes its children's, and a measure may run again from
// inside a layout. Operations on one thread form a call stack, so an operation that starts inside another
// one's [start, start + dur) is nested in it; an operation's self time is its dur minus the time of the
// operations directly nested in it. A measure called from a layout thus keeps its own time once and the
// layout loses it, and a parent loses its children's time (the FaceQ footnote, §VI-B).
//
// Bad input, defined behaviour (each reported once in `warnings` with a count and the first example):
// - rows out of start order: processed in start order (ties: longer first) — the log is meant to be sorted;
// - negative dur: taken as 0; negative width/height: taken as 0 (the view covers no pixel);
// - an operation that starts inside another but ends after it: only the overlapping part is removed
//   from the enclosing one (partial overlap is not nesting);
// - a parent_id that is no view_id anywhere in the trace: the view is a root of its frame's hierarchy;
//   a parent cycle: broken at the view where it is found (that view becomes a root);
// - an op other than measure/layout/draw: the row is dropped; visibility other than visible/invisible/gone:
//   taken as visible.
// A view's parent in a frame is its parent_id in that frame, else the last one seen in earlier frames.
import type { Table } from "apache-arrow";
import { RENDER_OPS, VIEW_VISIBILITIES } from "../../bundle/schema";
import { bool, int32, int32AsFloat, int64, optional, readColumns, utf8 } from "../../bundle/read-columns";
import { Warnings, wordCodes } from "./word-codes";
import { buildFrames } from "./view-hierarchy";

export const OPS = RENDER_OPS;
export type OpName = (typeof OPS)[number];
export const VISIBILITIES = VIEW_VISIBILITIES;

export interface ViewInfo {
  viewId: number;
  viewClass: string;
  xmlId: string | null;
  layoutFile: string | null;
}

/** One frame: its operations are rows [begin, end) of the trace (in start order). */
export interface FrameInfo {
  frame: number;
  begin: number;
  end: number;
  /** distinct view indices with an operation in this frame, in first-operation order */
  views: Int32Array;
  /** parent view index per entry of `views` (-1 for a root) */
  parents: Int32Array;
  /** depth in the view tree per entry of `views` (root = 0) */
  depths: Int32Array;
}

export interface RenderTrace {
  /** operations in start order */
  length: number;
  frame: Int32Array;
  /** index into `views` */
  view: Int32Array;
  /** 0 measure, 1 layout, 2 draw */
  op: Int8Array;
  start: Float64Array;
  dur: Float64Array;
  /** dur without the operations nested in it, ns (§III-B) */
  self: Float64Array;
  uiThread: Uint8Array;
  hwAccelerated: Uint8Array;
  left: Int32Array;
  top: Int32Array;
  width: Int32Array;
  height: Int32Array;
  hasBackground: Uint8Array;
  /** 1: a draw row of a view replayed from its RenderNode (on screen, not re-recorded: dur 0). Such rows count
   * for the frame's pixels (overdraw, coverage, invisible views) but not as executions (docs/agent.md). */
  replayed: Uint8Array;
  /** 0 visible, 1 invisible, 2 gone */
  visibility: Int8Array;
  views: ViewInfo[];
  frames: FrameInfo[];
  warnings: string[];
}

const COLUMNS = {
  frame: int32(),
  view_id: int32(),
  parent_id: int32AsFloat(NaN),
  view_class: utf8(),
  op: utf8(),
  start: int64(0),
  dur: int64(0),
  ui_thread: bool(),
  hw_accelerated: bool(),
  left: int32(),
  top: int32(),
  width: int32(),
  height: int32(),
  has_background: bool(),
  visibility: utf8(),
  xml_id: optional(utf8()),
  layout_file: optional(utf8()),
  replayed: optional(bool()),
};

/** Reads render_ops, nests operations, eliminates overlapped time and builds each frame's hierarchy. */
export function preprocessRenderOps(table: Table): RenderTrace {
  const col = readColumns(table, "render_ops", COLUMNS);
  const warn = new Warnings();
  const rows = table.numRows;
  const opCode = wordCodes(col.op, OPS);
  const visCode = wordCodes(col.visibility, VISIBILITIES);
  const startRaw = col.start;
  const durRaw = col.dur;

  // Keep valid rows, in start order (ties: the enclosing, longer one first).
  let order: number[] = [];
  for (let i = 0; i < rows; i++) {
    if (opCode[i]! < 0)
      warn.add("rows with an op other than measure, layout or draw, dropped", `row ${i}: ${col.op.get(i)}`);
    else order.push(i);
  }
  let sorted = true;
  for (let k = 1; k < order.length; k++)
    if (startRaw[order[k]!]! < startRaw[order[k - 1]!]!) {
      if (sorted) warn.add("operations out of start order, processed in start order", `row ${order[k]}`);
      sorted = false;
    }
  if (!sorted) order = order.sort((a, b) => startRaw[a]! - startRaw[b]! || durRaw[b]! - durRaw[a]! || a - b);

  const n = order.length;
  // Gathers by explicit loops: TypedArray.from(array, fn) goes through the iterator protocol (slow).
  const ord = Int32Array.from(order);
  const gather = <A extends Int32Array | Uint8Array | Int8Array | Float64Array>(src: A, dst: A): A => {
    for (let k = 0; k < n; k++) dst[k] = src[ord[k]!]!;
    return dst;
  };
  const pick32 = (src: Int32Array) => gather(src, new Int32Array(n));
  const pick8 = (src: Uint8Array) => gather(src, new Uint8Array(n));
  const frameCol = pick32(col.frame);
  const viewIdCol = pick32(col.view_id);
  const parentId = gather(col.parent_id, new Float64Array(n));
  const t: RenderTrace = {
    length: n,
    frame: frameCol,
    view: new Int32Array(n),
    op: gather(opCode, new Int8Array(n)),
    start: gather(startRaw, new Float64Array(n)),
    dur: gather(durRaw, new Float64Array(n)),
    self: new Float64Array(n),
    uiThread: pick8(col.ui_thread),
    hwAccelerated: pick8(col.hw_accelerated),
    left: pick32(col.left),
    top: pick32(col.top),
    width: pick32(col.width),
    height: pick32(col.height),
    hasBackground: pick8(col.has_background),
    replayed: col.replayed ? pick8(col.replayed) : new Uint8Array(n),
    visibility: gather(visCode, new Int8Array(n)),
    views: [],
    frames: [],
    warnings: [],
  };
  for (let k = 0; k < n; k++) {
    if (t.dur[k]! < 0)
      (warn.add("operations with negative dur, taken as 0", `row ${order[k]}: dur ${t.dur[k]}`),
        (t.dur[k] = 0));
    if (t.visibility[k]! < 0) {
      warn.add(
        "rows with unknown visibility, taken as visible",
        `row ${order[k]}: ${col.visibility.get(order[k]!)}`,
      );
      t.visibility[k] = 0;
    }
    if (t.width[k]! >= 0 && t.height[k]! >= 0) continue;
    for (const [arr, what] of [
      [t.width, "width"],
      [t.height, "height"],
    ] as const)
      if (arr[k]! < 0)
        (warn.add(`rows with negative ${what}, taken as 0`, `row ${order[k]}: ${what} ${arr[k]}`),
          (arr[k] = 0));
  }

  // Views: one entry per view_id, strings read once.
  const viewIndex = new Map<number, number>();
  const xml = col.xml_id;
  const layout = col.layout_file;
  for (let k = 0; k < n; k++) {
    const id = viewIdCol[k]!;
    let v = viewIndex.get(id);
    if (v === undefined) {
      const i = order[k]!;
      v = t.views.length;
      viewIndex.set(id, v);
      t.views.push({
        viewId: id,
        viewClass: String(col.view_class.get(i)),
        xmlId: xml && xml.isValid(i) ? String(xml.get(i)) : null,
        layoutFile: layout && layout.isValid(i) ? String(layout.get(i)) : null,
      });
    }
    t.view[k] = v;
  }

  eliminateOverlap(t, order, warn);
  buildFrames(t, parentId, viewIndex, order, warn);
  t.warnings = warn.list();
  return t;
}

/** Self time = dur minus the (overlapping part of the) operations directly nested in it, per thread kind. */
function eliminateOverlap(t: RenderTrace, order: number[], warn: Warnings): void {
  const stacks: number[][] = [[], []];
  for (let k = 0; k < t.length; k++) {
    t.self[k] = t.dur[k]!;
    const stack = stacks[t.uiThread[k]!]!;
    const s = t.start[k]!;
    while (stack.length && t.start[stack.at(-1)!]! + t.dur[stack.at(-1)!]! <= s) stack.pop();
    const parent = stack.at(-1);
    if (parent !== undefined) {
      const pEnd = t.start[parent]! + t.dur[parent]!;
      const end = s + t.dur[k]!;
      if (end > pEnd) warn.add("operations overlapping another without nesting in it", `row ${order[k]}`);
      t.self[parent] = t.self[parent]! - (Math.min(end, pEnd) - s);
    }
    stack.push(k);
  }
  for (let k = 0; k < t.length; k++) if (t.self[k]! < 0) t.self[k] = 0;
}
