// DUNE's scenarios (collectors/simulator/scenarios-dune.ts) against what the paper describes: ExoPlayer's 20
// events with the jank after #3, #7, #16 and #17 (§8.4), Space Blaster's game drawing far fewer, far slower
// frames after the upgrade (§8.1), and noise that keeps every run of a lab on the same events.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppSim } from "../../../collectors/simulator/app-model";
import { PROFILES, upgraded } from "../../../collectors/simulator/device-profiles";
import { buildScenario } from "../../../collectors/simulator/scenarios";

const MS = 1e6;
const pixel4a = PROFILES["pixel-4a"]!;

/** The input events as [ts, "kind target"], in time order. */
function events(sim: AppSim): [number, string][] {
  return sim.log.flatMap((l) =>
    typeof l.record !== "string" && l.record.type === "input"
      ? [[l.ts, `${l.record.kind} ${l.record.target}`] as [number, string]]
      : [],
  );
}

/** The frames of bucket k (1-based: from event k to the next, §5.2.2), by IntendedVsync. */
function bucket(sim: AppSim, k: number) {
  const ev = events(sim).map(([ts]) => ts);
  return sim.frames.filter((f) => f.intended >= ev[k - 1]! && (k >= ev.length || f.intended < ev[k]!));
}

const late = (f: { intended: number; completed: number; period: number }) =>
  f.completed - f.intended > f.period;

describe("exoplayer-injected", () => {
  it("has 20 events with the jank after #3, #7, #16 and #17: Logging selected, the video touched", () => {
    const { sim, truth } = buildScenario("exoplayer-injected", pixel4a, 5, false);
    const ev = events(sim);
    expect(ev).toHaveLength(20);
    expect(truth.cases[0]!.culprit.janky_events).toEqual([3, 7, 16, 17]);
    expect([3, 7, 16, 17].map((k) => ev[k - 1]![1])).toEqual([
      "click menu_logging",
      "click player_view",
      "click menu_logging",
      "click player_view",
    ]);
  });

  it("blocks the UI thread right after each injected event: that bucket's first frame is over 240 ms late", () => {
    const { sim } = buildScenario("exoplayer-injected", pixel4a, 5, false);
    for (const k of [3, 7, 16, 17]) {
      const first = bucket(sim, k)[0]!;
      // 240-300 ms of work at speed 1 (Pixel 4a), the frame waits behind it
      expect(first.completed - first.intended).toBeGreaterThan(240 * MS);
    }
    // every other bucket renders on time (no background load)
    for (let k = 1; k <= 20; k++)
      if (![3, 7, 16, 17].includes(k)) expect(bucket(sim, k).filter(late)).toEqual([]);
  });

  it("the next release without the jank renders every frame on time, on the same events", () => {
    const bad = buildScenario("exoplayer-injected", pixel4a, 5, false);
    const good = buildScenario("exoplayer-next", pixel4a, 5, false);
    expect(good.sim.frames.filter(late)).toEqual([]);
    expect(events(good.sim).map(([, e]) => e)).toEqual(events(bad.sim).map(([, e]) => e));
    expect(good.truth.app_version).toBe(bad.truth.app_version);
    expect(buildScenario("exoplayer", pixel4a, 5, false).truth.app_version).not.toBe(bad.truth.app_version);
  });
});

describe("spaceblaster", () => {
  it("after the upgrade the game renders under half the frames, each over 100 ms on a Pixel 4a (§8.1)", () => {
    const before = buildScenario("spaceblaster", pixel4a, 9, false);
    const after = buildScenario("spaceblaster-regressed", upgraded(pixel4a, "12", 31), 9, false);
    expect(after.sim.frames.length).toBeLessThan(before.sim.frames.length / 2);
    expect(before.sim.frames.filter(late)).toEqual([]);
    const ev = events(after.sim);
    const gameFrames = after.sim.frames.filter((f) => f.intended >= ev[0]![0] && f.intended < ev.at(-1)![0]);
    expect(gameFrames.length).toBeGreaterThan(20);
    // 125-165 ms more draw per frame, each frame ±20 % (AppSim.animate): at least 100 ms
    for (const f of gameFrames) expect(f.completed - f.intended).toBeGreaterThan(100 * MS);
    expect(after.truth.cases[0]!.culprit.regressed_events).toEqual(ev.slice(0, -1).map((_, i) => i + 1));
  });
});

describe("noise", () => {
  it("extra events go in at the same places for every seed and device, so a lab's buckets line up", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 8 }), (seed, extra) => {
        const a = buildScenario("exoplayer", pixel4a, seed, false, { extraEvents: extra });
        const b = buildScenario("exoplayer-injected", PROFILES["nexus-5x"]!, seed + 1, false, {
          extraEvents: extra,
          backgroundLoad: 0.1,
        });
        const names = events(a.sim).map(([, e]) => e);
        expect(names).toHaveLength(20 + extra);
        expect(events(b.sim).map(([, e]) => e)).toEqual(names);
        // the injected events keep their names wherever the extra ones push them
        const janky = b.truth.cases[0]!.culprit.janky_events as number[];
        expect(janky.map((k) => names[k - 1])).toEqual([
          "click menu_logging",
          "click player_view",
          "click menu_logging",
          "click player_view",
        ]);
      }),
      { numRuns: 25 },
    );
  });

  it("background load keeps the main thread busy for about that share of the run", () => {
    for (const load of [0.05, 0.15]) {
      const { sim, duration } = buildScenario("exoplayer-next", pixel4a, 11, false, { backgroundLoad: load });
      const busy = sim.tasks
        .filter((t) => t.task_class === "android.app.ActivityThread$H")
        .reduce((s, t) => s + (t.ended - t.started), 0);
      // Poisson arrivals of 4-40 ms messages: within 40 % of the asked share over a ~25 s run
      expect(busy / duration).toBeGreaterThan(load * 0.6);
      expect(busy / duration).toBeLessThan(load * 1.4);
    }
  });

  it("is deterministic: one seed, one run", () => {
    const a = buildScenario("spaceblaster-regressed", pixel4a, 3, false, {
      backgroundLoad: 0.1,
      extraEvents: 2,
    });
    const b = buildScenario("spaceblaster-regressed", pixel4a, 3, false, {
      backgroundLoad: 0.1,
      extraEvents: 2,
    });
    expect(b.sim.frames).toEqual(a.sim.frames);
    expect(b.truth).toEqual(a.truth);
  });
});
