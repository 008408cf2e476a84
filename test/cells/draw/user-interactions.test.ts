import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { preprocessRenderOps } from "../../../cells/draw/render-trace";
import { FEATURE_NAMES } from "../../../cells/draw/interaction-features";
import { userInteractions } from "../../../cells/draw/user-interactions";
import { contributions } from "../../../cells/draw/root-cause";
import { renderOps, type OpRow } from "./render-ops-fixture";

const MS = 1_000_000;
const screen = { width: 100, height: 100 };
// R (background, full screen) with a leaf C over its top-left quarter and a leaf D off screen.
// Interaction A (click at 0): frame 0 (measure + draw of all three), frame 1 (C alone). B (scroll at 100 ms): frame 2.
export const rows: OpRow[] = [
  { frame: 0, view: 1, op: "measure", start: 5 * MS, dur: MS, rect: [0, 0, 100, 100], bg: true },
  { frame: 0, view: 2, parent: 1, op: "measure", start: 5.2 * MS, dur: 0.5 * MS, rect: [0, 0, 50, 50] },
  { frame: 0, view: 1, op: "draw", start: 7 * MS, dur: 3 * MS, rect: [0, 0, 100, 100], bg: true },
  { frame: 0, view: 2, parent: 1, op: "draw", start: 8 * MS, dur: MS, rect: [0, 0, 50, 50] },
  { frame: 0, view: 3, parent: 1, op: "draw", start: 9.5 * MS, dur: 0.2 * MS, rect: [200, 0, 10, 10] },
  { frame: 1, view: 2, parent: 1, op: "draw", start: 50 * MS, dur: MS, rect: [0, 0, 50, 50] },
  { frame: 2, view: 1, op: "draw", start: 120 * MS, dur: MS, rect: [0, 0, 100, 100], bg: true },
];
export const events = makeBundleTable("ui_events", "r1", {
  ts: [0n, BigInt(100 * MS)],
  seq: [0, 1],
  kind: ["click", "scroll"],
});

const feature = (values: Float64Array, name: string) => values[FEATURE_NAMES.indexOf(name)]!;

describe("userInteractions (§V-A, Tables I and II)", () => {
  const trace = preprocessRenderOps(renderOps(rows));
  const { interactions, warnings } = userInteractions(trace, events, { screen });
  const [a, b] = interactions as [(typeof interactions)[0], (typeof interactions)[0]];

  it("names 40+ features after Table II", () => {
    expect(FEATURE_NAMES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_NAMES.length);
    expect(FEATURE_NAMES).toContain("draw_time_avg"); // the name case study 4 quotes
  });

  it("splits at inputs and ends at the last operation before the next input", () => {
    expect(warnings).toEqual([]);
    expect([a.kind, a.frames, a.start, a.end]).toEqual(["click", [0, 1], 0, 51 * MS]);
    expect([b.kind, b.frames, b.start, b.end]).toEqual(["scroll", [2], 100 * MS, 121 * MS]);
  });

  it("rendering time is Σ self time (nothing counted twice) and frame rate frames / duration", () => {
    expect(a.renderingTime).toBeCloseTo(5, 9); // 0.5 + 0.5 + (3 − 1 − 0.2) + 1 + 0.2 + 1
    expect(a.frameRate).toBeCloseTo(2 / 0.051, 9);
    expect(b.renderingTime).toBeCloseTo(1, 9);
    expect(b.frameRate).toBeCloseTo(1 / 0.021, 9);
  });

  it.each([
    // Table I. Pixels pooled over frames 0 and 1: depth 0: 7500, 1: 10000, 2: 2500.
    ["overdraw_max", 2],
    ["overdraw_avg", 15000 / 12500],
    ["invisible_view_count", 1], // D, off screen
    ["effective_drawing_ratio_avg", (10000 / 12500 + 2500 / 2500) / 2],
    ["measure_time_avg", 0.5],
    ["measure_time_max", 0.5],
    ["measure_time_min", 0.5],
    ["measure_time_var", 0],
    ["layout_time_avg", 0],
    ["layout_time_max", 0],
    ["draw_time_avg", 1],
    ["draw_time_max", 1.8],
    ["draw_time_min", 0.2],
    ["draw_time_var", 0.32],
    ["measure_count_avg", 2 / 3],
    ["measure_count_max", 1],
    ["measure_count_min", 0],
    ["measure_count_var", 2 / 9],
    ["draw_count_avg", 4 / 3],
    ["draw_count_max", 2],
    ["draw_count_min", 1],
    ["draw_count_var", 2 / 9],
    ["view_count", 3],
    ["pixel_depth_avg", 0.75],
    ["pixel_depth_max", 2],
    ["pixel_depth_min", 0],
    ["pixel_depth_var", 0.4375],
    ["view_area_avg", 4200],
    ["view_area_max", 10000],
    ["view_area_min", 100],
    ["view_area_var", 53340000 / 3],
    ["view_tree_depth_max", 1],
    ["view_tree_depth_avg", 2 / 3],
    ["rendering_time_ratio", 5 / 51],
    ["hw_accelerated", 1],
    ["off_ui_thread", 0],
    ["invisible_draw", 0],
  ])("%s = %d", (name, expected) => {
    expect(feature(a.features, name)).toBeCloseTo(expected, 9);
  });

  it("a view replayed from its RenderNode counts for the frame's pixels, not as an execution", () => {
    // Frame 1 as a phone records it: R still on screen (replayed, dur 0), C re-recorded.
    const phone = [...rows];
    phone.splice(5, 0, {
      frame: 1,
      view: 1,
      op: "draw",
      start: 50 * MS,
      dur: 0,
      rect: [0, 0, 100, 100],
      bg: true,
      replayed: true,
    });
    const p = userInteractions(preprocessRenderOps(renderOps(phone)), events, { screen }).interactions[0]!;
    // Frames 0 and 1 now both cover the screen: depth 1 on 15000 pixels, 2 on 5000.
    expect(feature(p.features, "overdraw_avg")).toBeCloseTo(25000 / 20000, 9);
    expect(feature(p.features, "pixel_depth_avg")).toBeCloseTo(25000 / 20000, 9);
    for (const name of FEATURE_NAMES.filter((n) => /_(time|count)_/.test(n) || n === "rendering_time_ratio"))
      expect([name, feature(p.features, name)]).toEqual([name, feature(a.features, name)]);
  });

  it("counts frames from the frames table when given", () => {
    const frames = makeBundleTable("frames", "r1", {
      intended_vsync: [BigInt(0), BigInt(30 * MS), BigInt(50 * MS)],
      duration: [BigInt(10 * MS), BigInt(10 * MS), BigInt(10 * MS)],
      deadline: [BigInt(16 * MS), BigInt(16 * MS), BigInt(16 * MS)],
      jank: [false, false, false],
    });
    const r = userInteractions(trace, events, { screen, frames });
    expect(r.interactions[0]!.frameRate).toBeCloseTo(2 / 0.051, 9); // completed at 10 and 40 ms, not 60
  });

  it("warns about frames before the first input and leaves them out", () => {
    const late = makeBundleTable("ui_events", "r1", { ts: [BigInt(20 * MS)], seq: [0], kind: ["click"] });
    const r = userInteractions(trace, late, { screen });
    expect(r.warnings).toEqual(["render_ops: 1 frames before the first input, in no interaction"]);
    expect(r.interactions[0]!.frames).toEqual([1, 2]);
  });

  it("needs ts, seq and kind in ui_events", () => {
    expect(() => userInteractions(trace, renderOps(rows), { screen })).toThrow(
      /missing column ts \(int64\) in ui_events/,
    );
  });
});

describe("contributions (§V-B)", () => {
  const trace = preprocessRenderOps(renderOps(rows));
  const a = userInteractions(trace, events, { screen }).interactions[0]!;
  const byView = (feature: string) => {
    const con = contributions(a, feature);
    return Object.fromEntries(Array.from(a.views, (v, r) => [trace.views[v]!.viewId, +con[r]!.toFixed(12)]));
  };

  it.each([
    ["overdraw_max", { 1: 0.5, 2: 0.5, 3: 0 }], // R and C paint the depth-2 quarter: 1/m, m = 2
    ["view_count", { 1: 1 / 3, 2: 1 / 3, 3: 1 / 3 }], // equal share
    ["invisible_view_count", { 1: 0, 2: 0, 3: 1 }],
    ["draw_time_max", { 1: 1, 2: 0, 3: 0 }], // R's 1.8 ms
    ["draw_time_min", { 1: 0, 2: 0, 3: 1 }],
    ["draw_time_avg", { 1: 0.45, 2: 0.5, 3: 0.05 }], // proportional: 1.8, 2, 0.2 of 4
    ["draw_time_var", { 1: 0.5, 2: 0, 3: 0.5 }], // (1.8 − 1)², (1 − 1)² · 2, (0.2 − 1)²
    ["measure_count_var", { 1: 1 / 6, 2: 1 / 6, 3: 2 / 3 }],
    ["effective_drawing_ratio_avg", { 1: 1, 2: 0, 3: 0 }], // only R's pixels are painted over
    ["hw_accelerated", { 1: 0, 2: 0, 3: 0 }], // every op was accelerated: nobody to blame
  ])("%s", (feature, expected) => {
    const got = byView(feature);
    for (const [id, v] of Object.entries(expected)) expect(got[id]).toBeCloseTo(v, 9);
  });

  it("rejects an unknown feature", () => {
    expect(() => contributions(a, "nope")).toThrow(/unknown feature nope/);
  });
});
