// DRAW's scenarios (collectors/simulator/scenarios-draw.ts) against what each case study describes and what
// its fix changes, and the simulated render operations against DRAW §III-B's premise: a view's operation
// contains its children's, which follow one another without overlapping.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentRecord } from "../../../collectors/agent/protocol";
import type { AppSim } from "../../../collectors/simulator/app-model";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { buildScenario, type ScenarioName } from "../../../collectors/simulator/scenarios";
import { DRAW_SCENARIOS } from "../../../collectors/simulator/scenarios-draw";
import { fcRuns } from "../../support/fc-runs";

type Op = Extract<AgentRecord, { type: "op" }>;
const ops = (sim: AppSim): Op[] =>
  sim.log.flatMap((l) => (typeof l.record !== "string" && l.record.type === "op" ? [l.record] : []));
const pixel4a = PROFILES["pixel-4a"]!;

describe("render operations", () => {
  it("nest: each lies inside its parent's operation of the same frame and kind, siblings in sequence", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DRAW_SCENARIOS),
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom("pixel-4a", "nexus-5x", "galaxy-s21"),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (scenario, seed, device, load, extra) => {
          const noise = { backgroundLoad: load, extraEvents: extra };
          const { sim } = buildScenario(scenario, PROFILES[device]!, seed, true, noise);
          const byKey = new Map<string, Op>();
          for (const o of ops(sim)) byKey.set(`${o.frame}/${o.op}/${o.view_id}`, o);
          const lastChildEnd = new Map<string, bigint>();
          for (const o of ops(sim).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
            if (o.parent_id === null) continue;
            const p = byKey.get(`${o.frame}/${o.op}/${o.parent_id}`)!;
            expect(o.start).toBeGreaterThanOrEqual(p.start);
            expect(o.start + o.dur).toBeLessThanOrEqual(p.start + p.dur);
            const key = `${o.frame}/${o.op}/${o.parent_id}`;
            expect(o.start).toBeGreaterThanOrEqual(lastChildEnd.get(key) ?? p.start);
            lastChildEnd.set(key, o.start + o.dur);
          }
        },
      ),
      { numRuns: fcRuns(12, 3) },
    );
  });
});

/** The last rectangle and background of every view, by xml id or class. */
function views(scenario: ScenarioName, seed = 4) {
  const { sim, truth } = buildScenario(scenario, pixel4a, seed, true);
  const all = new Map<number, Op>();
  for (const o of ops(sim)) all.set(o.view_id, o);
  return { sim, truth, all: [...all.values()] };
}

describe("noise", () => {
  it("adds as many wasteful views as extra events, each showing nothing: off screen or painted over", () => {
    const base = views("faceq").all.length;
    const { sim } = buildScenario("faceq", pixel4a, 4, true, { extraEvents: 4 });
    const all = new Map(ops(sim).map((o) => [o.view_id, o]));
    const ads = [...all.values()].filter((v) => v.view_class.endsWith("AdView"));
    const thumbs = [...all.values()].filter((v) => v.xml_id === "thumb_1" || v.xml_id === "thumb_3");
    // 2 ad banners, 2 thumbnails of 3 views each (frame, placeholder, the image over it)
    expect(all.size).toBe(base + 2 + 2 * 3);
    for (const ad of ads) expect(ad.top).toBeGreaterThanOrEqual(pixel4a.height);
    expect(thumbs).toHaveLength(2);
  });
});

describe("DRAW case scenarios and their fixes", () => {
  it("case 1: the GridView has a background under nine covering cells; fixed, it has none", () => {
    const { all } = views("faceq");
    const grid = all.find((v) => v.xml_id === "gridview")!;
    expect(grid.has_background).toBe(true);
    const cells = all.filter((v) => v.parent_id === grid.view_id);
    expect(cells).toHaveLength(9);
    // the cells tile the grid exactly: together they cover its whole area
    expect(cells.reduce((s, c) => s + c.width * c.height, 0)).toBe(
      3 * Math.floor(grid.width / 3) * 3 * Math.floor(grid.height / 3),
    );
    expect(views("faceq-fixed").all.find((v) => v.xml_id === "gridview")!.has_background).toBe(false);
  });

  it("case 2: five submenus drawn in one place; fixed, only the visible one", () => {
    const menus = (s: ScenarioName) =>
      new Set(
        views(s).all.flatMap((v) => (/main_submenu\d/.test(v.layout_file ?? "") ? [v.layout_file] : [])),
      );
    expect(menus("picsplay").size).toBe(5);
    expect([...menus("picsplay-fixed")]).toEqual(["res/layout/main_submenu5.xml"]);
  });

  it("case 3: most of the article's TextViews lie below the screen; fixed, none does", () => {
    const below = (s: ScenarioName) =>
      views(s).all.filter((v) => v.view_class === "android.widget.TextView" && v.top >= pixel4a.height);
    const { truth } = views("pregnancy-article");
    // 48 paragraphs of 190 px from y = 688 on a 2340-px screen: ceil((2340 - 688) / 190) = 9 start on it
    expect(below("pregnancy-article")).toHaveLength(48 - 9);
    expect(truth.cases[0]!.culprit.offscreen_views).toEqual(below("pregnancy-article").map((v) => v.view_id));
    expect(below("pregnancy-article-fixed")).toEqual([]);
  });

  it("case 4: the gallery's draw is long in most swipes, short after the fix", () => {
    const selfDraw = (s: ScenarioName) => {
      const { sim } = buildScenario(s, pixel4a, 8, true);
      const draws = ops(sim).filter((o) => o.op === "draw");
      const gallery = draws.filter((o) => o.xml_id === "timeline_gallery");
      // self time: the gallery's draw minus its children's (they run inside it, one after another)
      return gallery.map((g) => {
        const kids = draws.filter((o) => o.frame === g.frame && o.parent_id === g.view_id);
        return Number(g.dur - kids.reduce((s, k) => s + k.dur, 0n)) / 1e6;
      });
    };
    const slow = selfDraw("pregnancy-timeline");
    // 4-14 ms of decoding in 80 % of the eight swipes' frames; 0.5 ms otherwise (speed 1, ±10 %)
    expect(slow.filter((ms) => ms > 4).length).toBeGreaterThan(slow.length / 3);
    expect(Math.max(...selfDraw("pregnancy-timeline-fixed"))).toBeLessThan(0.6);
  });
});
