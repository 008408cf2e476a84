// The overview timeline marks logcat's jank events (log_events) on the frames' time axis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { overviewChartOptions } from "../../../charts/overview-chart";
import { overviewChartData } from "../../../workspace/app/overview-data";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import type { SqlEngine } from "../../../workspace/db/engine";
import { loadTables } from "../../support/memory-bundle";

const T0 = 5_000_000_000n;

describe("overview timeline with log_events", () => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await createNodeEngine();
    const frames = makeBundleTable("frames", "r1", {
      intended_vsync: [T0, T0 + 16_666_667n],
      duration: [5_000_000n, 40_000_000n],
      deadline: [16_666_667n, 16_666_667n],
      jank: [false, true],
    });
    const log_events = makeBundleTable("log_events", "r1", {
      ts: [T0 + 1_500_000_000n, null, T0 + 250_000_000n],
      kind: ["skipped_frames", "anr", "gc_pause"],
      count: [31, null, null],
      dur: [null, null, 12_500_000n],
      detail: [null, "com.x", "Background concurrent copying GC, total 20ms, paused 12.5ms"],
    });
    await loadTables(engine, newManifest("r1", { app: "com.x" }), { frames, log_events });
  });
  afterAll(() => engine.close());

  it("places each event with a monotonic time at seconds since the first frame, labelled; untimed ones are left off", async () => {
    const data = await overviewChartData(engine, false);
    expect(data.logEvents.map((e) => [e.t_s, e.kind, e.label])).toEqual([
      [0.25, "gc_pause", "gc_pause 12.5 ms: Background concurrent copying GC, total 20ms, paused 12.5ms"],
      [1.5, "skipped_frames", "skipped_frames x31"],
    ]);
    const marks = overviewChartOptions(data).marks!;
    expect(marks).toHaveLength(4);
  });
});
