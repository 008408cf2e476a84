import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { overviewChartOptions } from "../../../charts/overview-chart";
import { overviewChartData } from "../../../workspace/app/overview-data";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import type { SqlEngine } from "../../../workspace/db/engine";
import { loadTables } from "../../support/memory-bundle";

const PERIOD = 16_666_667;
// 100 frames, one every period; frame i takes 5 ms plus a spike of 40 ms on every 13th frame.
const durations = Array.from(
  { length: 100 },
  (_, i) => 5_000_000 + (i % 13 === 0 ? 40_000_000 : (i * 7919) % 3_000_000),
);

describe("overviewChartData", () => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await createNodeEngine();
    const manifest = newManifest("r1", { app: "com.example" });
    const frames = makeBundleTable("frames", "r1", {
      intended_vsync: durations.map((_, i) => i * PERIOD),
      duration: durations,
      deadline: durations.map(() => PERIOD),
      jank: durations.map((d) => d > PERIOD),
    });
    await loadTables(engine, manifest, { frames });
  });
  afterAll(() => engine.close());

  it("draws every frame while the run is small", async () => {
    const data = await overviewChartData(engine, false);
    expect(data.bucketed).toBe(false);
    expect(data.frames.map((f) => f.duration_ms)).toEqual(durations.map((d) => d / 1e6));
  });

  it("gives each frame's time from the run's first frame, and on the device's clock for the tooltip", async () => {
    const T0 = 476_593_000_000_000; // a phone's clock since boot
    const own = await createNodeEngine();
    await loadTables(own, newManifest("r2", { app: "com.example" }), {
      frames: makeBundleTable("frames", "r2", {
        intended_vsync: durations.map((_, i) => T0 + i * PERIOD),
        duration: durations,
        deadline: durations.map(() => PERIOD),
        jank: durations.map((d) => d > PERIOD),
      }),
    });
    const data = await overviewChartData(own, false).finally(() => own.close());
    expect(data.frames.map((f) => f.t_s)).toEqual(durations.map((_, i) => (i * PERIOD) / 1e9));
    expect(data.frames.map((f) => f.clock_s)).toEqual(durations.map((_, i) => (T0 + i * PERIOD) / 1e9));
    const dots = overviewChartOptions(data).marks!.at(-1) as unknown as { channels: Record<string, unknown> };
    expect(Object.keys(dots.channels)).toContain("on the device's clock (s)");
  });

  it("shows the slowest frame of each time slice for a long run, with its slice's counts", async () => {
    const slices = 8;
    const data = await overviewChartData(engine, false, { maxDots: 50, slices });
    expect(data.bucketed).toBe(true);
    expect(data.totalFrames).toBe(100);
    // Brute force: slice of frame i = floor(i * PERIOD * slices / (99 * PERIOD)), capped at slices - 1.
    const expected = new Map<number, { slowest: number; at: number; frames: number; janky: number }>();
    durations.forEach((d, i) => {
      const slice = Math.min(Math.floor((i * slices) / 99), slices - 1);
      const e = expected.get(slice) ?? { slowest: -1, at: 0, frames: 0, janky: 0 };
      if (d > e.slowest) Object.assign(e, { slowest: d, at: i });
      e.frames++;
      if (d > PERIOD) e.janky++;
      expected.set(slice, e);
    });
    const want = [...expected.values()].map((e) => ({
      t_s: (e.at * PERIOD) / 1e9,
      duration_ms: e.slowest / 1e6,
      jank: e.slowest > PERIOD,
      frames: e.frames,
      janky_frames: e.janky,
    }));
    expect(
      data.frames.map((f) => ({
        t_s: f.t_s,
        duration_ms: f.duration_ms,
        jank: f.jank,
        frames: f.frames,
        janky_frames: f.janky_frames,
      })),
    ).toEqual(want);
    // No spike is lost to the level of detail: every janky frame's slice shows a janky dot.
    expect(data.frames.filter((f) => f.jank).length).toBe(
      [...expected.values()].filter((e) => e.janky > 0).length,
    );
  });
});

describe("overviewChartData with suspect frames", () => {
  it("leaves frames flagged suspect out of the chart and counts them", async () => {
    const engine = await createNodeEngine();
    try {
      const frames = makeBundleTable("frames", "s1", {
        intended_vsync: [0, PERIOD, 2 * PERIOD, 3 * PERIOD],
        duration: [5_000_000, -1_501_000_000_000, 288_208_950_232_000_000n, 20_000_000],
        deadline: [PERIOD, PERIOD, PERIOD, PERIOD],
        jank: [false, false, true, true],
        suspect: [null, "negative duration", "duration 288208950.232 s", null],
      });
      await loadTables(engine, newManifest("s1", { app: "com.example" }), { frames });
      const data = await overviewChartData(engine, false);
      expect(data.frames.map((f) => [f.t_s, f.duration_ms])).toEqual([
        [0, 5],
        [(3 * PERIOD) / 1e9, 20],
      ]);
      expect([data.totalFrames, data.suspectFrames]).toEqual([2, 2]);
    } finally {
      await engine.close();
    }
  });
});
