// DiagDroid's case scenarios (cases 2 and 5, the fixed counterparts of cases 1, 3 and 4) and the background noise,
// checked against the rules they model: FIFO on one-thread executors recomputed by brute force from the tasks,
// cancelation cutting obsolete loads at the next route, Webkit against Chromium WebViews, and seeds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SimTask } from "../../../collectors/simulator/app-model";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import { appFor, buildScenario, SCENARIOS, type ScenarioName } from "../../../collectors/simulator/scenarios";
import { OLD_DEVICES, webkitWebView } from "../../../collectors/simulator/scenarios-diagdroid";
import { culpritRank, diagdroidTables } from "../../../bench/accuracy/diagdroid";
import { anomalousGroups } from "../../../cells/diagdroid/anomalous-groups";

const MS = 1_000_000;
const pixel2 = PROFILES["pixel-2"]!;

/** Per executor, in scheduling order: a one-thread unit starts each task when it is scheduled or the previous ends. */
function fifoViolations(tasks: readonly SimTask[]): string[] {
  const out: string[] = [];
  const byUnit = new Map<string, SimTask[]>();
  for (const t of tasks) byUnit.set(t.executor_id, [...(byUnit.get(t.executor_id) ?? []), t]);
  for (const [unit, list] of byUnit) {
    if (list[0]!.pool_capacity !== 1) continue;
    list.sort((a, b) => a.scheduled - b.scheduled || a.task_id - b.task_id);
    let free = -Infinity;
    for (const t of list) {
      const expected = Math.max(t.scheduled, free);
      if (Math.abs(t.started - expected) > 1)
        out.push(`${unit} task ${t.task_id}: started ${t.started}, expected ${expected}`);
      free = t.ended;
    }
  }
  return out;
}

describe("registered scenarios", () => {
  it("lists DiagDroid's scenarios with their apps", () => {
    for (const s of [
      "bartrunner",
      "bartrunner-fixed",
      "lucid-browser",
      "openlaw-fixed",
      "fbreader-fixed",
      "transportr-fixed",
    ])
      expect(SCENARIOS).toContain(s);
    expect(appFor("bartrunner").package).toBe("com.dougkeen.bart");
    expect(appFor("lucid-browser").package).toBe("com.powerpoint45.lucidbrowser");
    expect(appFor("openlaw").package).toBe("org.jankbook.sample");
  });

  it("builds the same run from the same seed", () => {
    const a = buildScenario("bartrunner", pixel2, 9, false, { extra: 3 });
    const b = buildScenario("bartrunner", pixel2, 9, false, { extra: 3 });
    expect(b.sim.tasks).toEqual(a.sim.tasks);
    expect(b.truth).toEqual(a.truth);
  });
});

describe("case 2: BartRunner", () => {
  it("queues every load FIFO on one serial executor (brute force), fare loads behind earlier routes' loads", () => {
    const tl = buildScenario("bartrunner", pixel2, 5);
    expect(fifoViolations(tl.sim.tasks)).toEqual([]);
    const culprit = tl.truth.cases[0]!.culprit;
    const routes = culprit.routes as number;
    expect(tl.sim.tasks).toHaveLength(2 * routes);
    // the last route's fare waits for every load scheduled before it: their execution times summed, at least
    const fares = tl.sim.tasks.filter((t) => t.task_class.endsWith("GetRouteFareTask"));
    const last = fares.at(-1)!;
    const ahead = tl.sim.tasks.filter((t) => t.task_id < last.task_id);
    const firstStart = Math.min(...ahead.map((t) => t.started));
    expect(last.started).toBe(firstStart + ahead.reduce((s, t) => s + t.ended - t.started, 0));
  });

  it("fixed: a load of a route already left ends by the next isCancelled() poll (50 ms), one not started at once", () => {
    const tl = buildScenario("bartrunner-fixed", pixel2, 5);
    expect(fifoViolations(tl.sim.tasks)).toEqual([]);
    const opened = tl.truth.cases[0]!.culprit.route_opened_ns as number[];
    for (const t of tl.sim.tasks) {
      const route = opened.findLastIndex((o) => o <= t.scheduled);
      const left = opened[route + 1];
      if (left === undefined) continue;
      if (t.started >= left) expect(t.ended - t.started).toBeLessThanOrEqual(0.31 * MS);
      else expect(t.ended).toBeLessThanOrEqual(left + 50 * MS + 1);
    }
  });

  it("buggy and fixed schedule the same loads at the same times; only their ends differ", () => {
    const bug = buildScenario("bartrunner", pixel2, 11).sim.tasks;
    const fix = buildScenario("bartrunner-fixed", pixel2, 11).sim.tasks;
    expect(fix.map((t) => [t.task_class, t.scheduled])).toEqual(bug.map((t) => [t.task_class, t.scheduled]));
    expect(fix.reduce((s, t) => s + t.ended - t.started, 0)).toBeLessThan(
      bug.reduce((s, t) => s + t.ended - t.started, 0),
    );
  });
});

describe("case 5: Lucid Browser", () => {
  it("Webkit (Android ≤ 4.4) queues one search per keystroke on WebViewCore's thread; Chromium queues none", () => {
    expect(webkitWebView(OLD_DEVICES["gt-i9105p"]!)).toBe(true);
    expect(webkitWebView(OLD_DEVICES["k50-t5"]!)).toBe(false);
    const webkit = buildScenario("lucid-browser", OLD_DEVICES["gt-i9105p"]!, 3);
    const chromium = buildScenario("lucid-browser", OLD_DEVICES["k50-t5"]!, 3);
    const keystrokes = "timetable".length + "station".length;
    const findContext = [...webkit.sim.contexts].find(([stack]) => stack.includes("WebView.findAll"))![1];
    const finds = webkit.sim.tasks.filter((t) => t.context_id === findContext);
    expect(finds).toHaveLength(keystrokes);
    expect(finds.every((t) => t.executor_id.startsWith("android.os.MessageQueue(WebViewCoreThread)"))).toBe(
      true,
    );
    expect(fifoViolations(webkit.sim.tasks)).toEqual([]);
    expect(Math.max(...finds.map((t) => t.started - t.scheduled))).toBeGreaterThan(500 * MS);
    expect(chromium.sim.tasks.some((t) => t.executor_id.includes("WebViewCoreThread"))).toBe(false);
    expect(chromium.sim.tasks).toHaveLength(keystrokes);
  });
});

describe("fixed counterparts of cases 1, 3 and 4", () => {
  it.each([
    ["openlaw", "openlaw-fixed"],
    ["fbreader", "fbreader-fixed"],
    ["transportr", "transportr-fixed"],
  ] as [ScenarioName, ScenarioName][])(
    "%s: the culprit's longest queue drops under τ when fixed",
    (bug, fix) => {
      const worstQueue = (s: ScenarioName) => {
        const tl = buildScenario(s, pixel2, 7);
        const ids = new Set(tl.truth.cases[0]!.culprit.task_ids as number[]);
        return Math.max(
          ...tl.sim.tasks.filter((t) => ids.has(t.task_id)).map((t) => t.started - t.scheduled),
        );
      };
      expect(worstQueue(bug)).toBeGreaterThan(500 * MS);
      expect(worstQueue(fix)).toBeLessThan(500 * MS);
    },
  );
});

describe("background noise", () => {
  it("adds about `extra` tasks a second and leaves the case's own tasks as they were", () => {
    const quiet = buildScenario("transportr", pixel2, 4);
    const noisy = buildScenario("transportr", pixel2, 4, true, { extra: 5 });
    const seconds = quiet.duration / 1e9;
    expect(noisy.sim.tasks.length - quiet.sim.tasks.length).toBe(Math.round(seconds * 5));
    expect(noisy.sim.tasks.slice(0, quiet.sim.tasks.length)).toEqual(quiet.sim.tasks);
    expect(fifoViolations(noisy.sim.tasks)).toEqual([]);
  });

  it("load slows every task by the device's lost speed", () => {
    const quiet = buildScenario("openlaw", pixel2, 4);
    const loaded = buildScenario("openlaw", pixel2, 4, true, { load: 0.5 });
    const exec = (ts: SimTask[]) => ts.map((t) => t.ended - t.started);
    exec(loaded.sim.tasks).forEach((d, i) => expect(d / exec(quiet.sim.tasks)[i]!).toBeCloseTo(2, 2));
  });

  it("keeps one-thread executors FIFO for any seed and noise (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.constantFrom<ScenarioName>(
          "openlaw",
          "bartrunner",
          "bartrunner-fixed",
          "transportr",
          "lucid-browser",
        ),
        fc.integer({ min: 0, max: 8 }),
        fc.double({ min: 0, max: 0.8, noNaN: true }),
        (seed, scenario, extra, load) => {
          const d = scenario === "lucid-browser" ? OLD_DEVICES["gt-i9105p"]! : pixel2;
          const tl = buildScenario(scenario, d, seed, false, { extra, load });
          expect(fifoViolations(tl.sim.tasks)).toEqual([]);
          for (const t of tl.sim.tasks) expect(t.started >= t.scheduled && t.ended >= t.started).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("the accuracy bench's culprit rank", () => {
  it("finds each noiseless case's culprit group first in the report (OpenLaw's c1 and c2 are one group, Figure 5)", () => {
    const rank = (s: ScenarioName, d = pixel2) => culpritRank(buildScenario(s, d, 1, false));
    expect(rank("openlaw")).toMatchObject({ rank: 1, issueRank: 1 });
    expect(rank("bartrunner")).toMatchObject({ rank: 1, issueRank: 1 });
    expect(rank("fbreader")).toMatchObject({ rank: 1, issueRank: 1 });
    expect(rank("transportr")).toMatchObject({ rank: 1, issueRank: 1 });
    expect(rank("lucid-browser", OLD_DEVICES["gt-i9105p"])).toMatchObject({ rank: 1, issueRank: 1 });
    // fixed: the list loads no longer wait; their group stays anomalous only by the updates' network time
    const fixed = diagdroidTables(buildScenario("openlaw-fixed", pixel2, 1, false));
    const group = anomalousGroups(fixed.tasks, fixed.contexts).find((g) =>
      g.contexts.some((c) => c.some((f) => f.includes("LawListFragment.java:87"))),
    );
    expect([group?.anomalousBy, group?.slowCases]).toEqual([["execution"], 0]);
  });
});
