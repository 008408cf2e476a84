import { Dictionary, Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { preprocessRenderOps } from "../../../cells/draw/render-trace";
import { renderOps, type OpRow } from "./render-ops-fixture";

const selfOf = (rows: OpRow[]) => {
  const t = preprocessRenderOps(renderOps(rows));
  return Array.from(t.self);
};

describe("preprocessRenderOps: overlapped time elimination (§III-B)", () => {
  // R.layout ⊃ A.measure ⊃ B.measure, then A.layout ⊃ (B.measure again, from inside the layout; B.layout).
  const nested: OpRow[] = [
    { view: 1, op: "layout", start: 0, dur: 1000 },
    { view: 2, parent: 1, op: "measure", start: 100, dur: 200 },
    { view: 3, parent: 2, op: "measure", start: 150, dur: 100 },
    { view: 2, parent: 1, op: "layout", start: 400, dur: 500 },
    { view: 3, parent: 2, op: "measure", start: 450, dur: 50 },
    { view: 3, parent: 2, op: "layout", start: 600, dur: 200 },
  ];

  it("takes children's and re-entrant measures' time out of the enclosing operation", () => {
    expect(selfOf(nested)).toEqual([300, 100, 100, 250, 50, 200]);
  });

  it("counts every nanosecond once: Σ self = the root's duration", () => {
    expect(selfOf(nested).reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it("builds the per-frame hierarchy with depths from parent ids", () => {
    const t = preprocessRenderOps(renderOps(nested));
    expect(t.frames).toHaveLength(1);
    const f = t.frames[0]!;
    expect(Array.from(f.views, (v) => t.views[v]!.viewId)).toEqual([1, 2, 3]);
    expect(Array.from(f.parents)).toEqual([-1, 0, 1]);
    expect(Array.from(f.depths)).toEqual([0, 1, 2]);
    expect(t.warnings).toEqual([]);
  });

  it("keeps threads apart: an off-UI-thread op inside a UI op's time is not nested in it", () => {
    expect(
      selfOf([
        { view: 1, op: "draw", start: 0, dur: 100 },
        { view: 2, op: "draw", start: 10, dur: 50, ui: false },
      ]),
    ).toEqual([100, 50]);
  });

  it("uses a view's last known parent in frames where it has none", () => {
    const t = preprocessRenderOps(
      renderOps([
        { frame: 0, view: 1, op: "draw", start: 0, dur: 10 },
        { frame: 0, view: 2, parent: 1, op: "draw", start: 1, dur: 5 },
        { frame: 1, view: 2, op: "draw", start: 20, dur: 5, parent: 1 },
      ]),
    );
    expect(Array.from(t.frames[1]!.depths)).toEqual([1]);
    expect(Array.from(t.frames[1]!.parents)).toEqual([0]);
  });
});

describe("preprocessRenderOps: bad input", () => {
  it("sorts operations out of time order, and says so", () => {
    const t = preprocessRenderOps(
      renderOps([
        { view: 2, parent: 1, op: "measure", start: 10, dur: 20 },
        { view: 1, op: "layout", start: 0, dur: 100 },
      ]),
    );
    expect(Array.from(t.start)).toEqual([0, 10]);
    expect(Array.from(t.self)).toEqual([80, 20]);
    expect(t.warnings).toEqual([
      "render_ops: 1 operations out of start order, processed in start order (first: row 1)",
    ]);
  });

  it("makes unknown parents roots, negative sizes and durations 0, drops unknown ops", () => {
    const t = preprocessRenderOps(
      renderOps([
        { view: 1, op: "draw", start: 0, dur: 100, rect: [0, 0, 10, 10] },
        { view: 2, parent: 77, op: "draw", start: 10, dur: -4, rect: [0, 0, -5, 3] },
        { view: 3, parent: 77, op: "inflate", start: 20, dur: 4 },
      ]),
    );
    expect(t.length).toBe(2);
    expect(Array.from(t.frames[0]!.parents)).toEqual([-1, -1]);
    expect(Array.from(t.width)).toEqual([10, 0]);
    expect(Array.from(t.dur)).toEqual([100, 0]);
    expect(t.warnings).toEqual([
      "render_ops: 1 rows with an op other than measure, layout or draw, dropped (first: row 2: inflate)",
      "render_ops: 1 operations with negative dur, taken as 0 (first: row 1: dur -4)",
      "render_ops: 1 rows with negative width, taken as 0 (first: row 1: width -5)",
      "render_ops: 1 views whose parent_id is no view in the trace, taken as roots (first: frame 0 view 2 parent 77)",
    ]);
  });

  it("removes only the overlapping part of an operation that overlaps without nesting", () => {
    const t = preprocessRenderOps(
      renderOps([
        { view: 1, op: "draw", start: 0, dur: 100 },
        { view: 2, parent: 1, op: "draw", start: 80, dur: 50 },
      ]),
    );
    expect(Array.from(t.self)).toEqual([80, 50]);
    expect(t.warnings[0]).toMatch(/1 operations overlapping another without nesting/);
  });

  it("cuts parent cycles", () => {
    const t = preprocessRenderOps(
      renderOps([
        { view: 1, parent: 2, op: "draw", start: 0, dur: 10 },
        { view: 2, parent: 1, op: "draw", start: 20, dur: 10 },
      ]),
    );
    const f = t.frames[0]!;
    expect(Array.from(f.parents).filter((p) => p < 0)).toHaveLength(1);
    expect(t.warnings.some((w) => /parent cycles, cut/.test(w))).toBe(true);
  });

  it("names a missing column", () => {
    const table = makeBundleTable("ui_events", "r", { ts: [1n], seq: [0], kind: ["click"] });
    expect(() => preprocessRenderOps(table)).toThrow(/missing column frame \(int32\) in render_ops/);
  });
});

describe("preprocessRenderOps: Arrow layouts", () => {
  const rows: OpRow[] = Array.from({ length: 23 }, (_, i) => ({
    frame: i >> 2,
    view: 1 + (i % 4),
    parent: i % 4 === 0 ? null : 1,
    op: ["measure", "layout", "draw"][i % 3]!,
    start: i * 100,
    dur: i % 4 === 0 ? 350 : 50,
    rect: [i, 2 * i, 10 + i, 20],
    bg: i % 3 === 0,
    ui: i % 5 !== 0,
    hw: i % 7 !== 0,
    vis: ["visible", "invisible", "gone"][i % 3]!,
  }));
  const whole = preprocessRenderOps(renderOps(rows));
  const same = (t: ReturnType<typeof preprocessRenderOps>) => {
    for (const key of [
      "frame",
      "op",
      "start",
      "self",
      "uiThread",
      "hwAccelerated",
      "hasBackground",
      "visibility",
      "width",
    ] as const)
      expect(Array.from(t[key])).toEqual(Array.from(whole[key]));
    expect(t.frames.map((f) => Array.from(f.parents))).toEqual(
      whole.frames.map((f) => Array.from(f.parents)),
    );
  };

  it("reads several record batches and sliced (offset) chunks the same as one", () => {
    const table = renderOps(rows);
    same(preprocessRenderOps(table.slice(0, 9).concat(table.slice(9, 17), table.slice(17))));
  });

  it("reads dictionary-encoded strings (as bundles may store them)", () => {
    const table = renderOps(rows);
    const dict = (name: string) =>
      vectorFromArray(
        Array.from({ length: table.numRows }, (_, i) => table.getChild(name)!.get(i) as string),
        new Dictionary(new Utf8(), new Int32()),
      );
    const columns = Object.fromEntries(table.schema.fields.map((f) => [f.name, table.getChild(f.name)!]));
    const dictTable = new Table({
      ...columns,
      op: dict("op"),
      visibility: dict("visibility"),
      view_class: dict("view_class"),
    });
    expect(String(dictTable.schema.fields.find((f) => f.name === "op")!.type)).toMatch(/^Dictionary/);
    same(preprocessRenderOps(dictTable));
  });
});
