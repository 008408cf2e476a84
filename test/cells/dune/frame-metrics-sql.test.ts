// frameMetricsBySql against frameMetrics (the reference: per-frame JavaScript) on the same frames, through
// DuckDB-WASM and native DuckDB: aggregated by the engine (maxRows 0) it gives the same rules, counts, skipped
// frames, nearest-rank percentiles and per-event buckets, the mean to 12 digits (an exact integer sum instead of
// a running one in ms); under its threshold it reads the frames whole and is frameMetrics itself. And what comes
// back from the engine on the aggregated path is a few rows per run, whatever the number of frames.
import fc from "fast-check";
import { tableToIPC, type Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { frameMetrics, type FrameMetricsOptions } from "../../../cells/dune/frame-metrics";
import {
  frameMetricsBySql,
  type FrameMetricsSummary,
  type SqlTag,
} from "../../../cells/dune/frame-metrics-sql";
import type { SqlEngine } from "../../../workspace/db/engine";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { sqlTag } from "../../../workspace/notebook/sql-template";
import { suiteEngine } from "../../support/suite-engine";

const ms = (x: number) => BigInt(Math.round(x * 1e6));

/** The notebook's `sql` over an engine, counting the rows of every result it hands back. */
function tagOf(engine: SqlEngine, received: number[] = []): SqlTag {
  return async (strings, ...values) => {
    const { sql, params } = sqlTag(strings, ...values);
    const t = await engine.query(sql, params);
    received.push(t.numRows);
    return t;
  };
}

async function load(engine: SqlEngine, name: string, table: Table | undefined) {
  await engine.query(`DROP TABLE IF EXISTS ${name}`);
  if (table) await engine.insertArrowStream(name, tableToIPC(table, "stream"));
}

/** frameMetrics' answer as frameMetricsBySql gives it: in run_id order, the mean apart (compared to 12 digits). */
function expected(frames: Table, options: FrameMetricsOptions) {
  return frameMetrics(frames, options)
    .sort((a, b) => (a.runId < b.runId ? -1 : 1))
    .map((m) => omit(m, "timeline"));
}

/** `value` without `key` (compared apart, or not at all). */
function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

function compare(got: FrameMetricsSummary[], want: ReturnType<typeof expected>) {
  const noMean = <T extends { meanFrameMs: number }>(s: T) => omit(s, "meanFrameMs");
  expect(got.map((m) => m.timeline)).toEqual(got.map(() => null));
  expect(
    got
      .map((g) => omit(g, "timeline"))
      .map((m) => ({ ...m, total: noMean(m.total), buckets: m.buckets.map(noMean) })),
  ).toEqual(want.map((m) => ({ ...m, total: noMean(m.total), buckets: m.buckets.map(noMean) })));
  const means = (list: { total: { meanFrameMs: number }; buckets: { meanFrameMs: number }[] }[]) =>
    list.flatMap((m) => [m.total, ...m.buckets].map((s) => s.meanFrameMs));
  const [a, b] = [means(got), means(want)];
  expect(a.length).toBe(b.length);
  a.forEach((x, i) =>
    Number.isNaN(b[i]!)
      ? expect(x).toBeNaN()
      : expect(Math.abs(x - b[i]!)).toBeLessThanOrEqual(1e-12 * b[i]!),
  );
}

// Run "a" (Android 12+): FrameDeadline 16.6 ms after IntendedVsync, but frame 3 only has FrameInterval 11.1 ms and
// frame 5 a FrameDeadline before its start (so its interval rules); one suspect frame. Run "b": 90 Hz from runs.
// Run "c": nothing but the fixed deadline. Events in run a: two at one time (1020 ms) and one at frame 4's vsync.
function fixture() {
  const startA = [0, 16, 32, 48, 64, 80, 96].map((x) => ms(1000 + x));
  const durA = [10, 20, 16, 12, 30, 8, 900_000].map(ms);
  const a = makeBundleTable("frames", "a", {
    intended_vsync: startA,
    duration: durA,
    deadline: durA.map(() => 0n),
    jank: durA.map(() => false),
    frame_deadline: startA.map((s, i) => (i === 3 ? null : i === 5 ? s - 1n : s + ms(16.6))),
    frame_interval: startA.map((_, i) => (i === 3 || i === 5 ? ms(11.1) : null)),
    flags: startA.map((_, i) => (i === 1 ? 4n : 0n)),
    suspect: startA.map((_, i) => (i === 6 ? "duration over a minute" : null)),
  });
  const b = makeBundleTable("frames", "b", {
    intended_vsync: [0, 11, 22, 33].map(ms),
    duration: [5, 12, 11, 40].map(ms),
    deadline: [0n, 0n, 0n, 0n],
    jank: [false, false, false, false],
  });
  const c = makeBundleTable("frames", "c", {
    intended_vsync: [0, 20, 40].map(ms),
    duration: [16.6, 16.7, 50].map(ms),
    deadline: [0n, 0n, 0n],
    jank: [false, false, false],
  });
  const runs = makeBundleTable("runs", "b", {
    app: ["x"],
    refresh_hz: [90],
    complete: [true],
    synthetic: [true],
    warnings: [[]],
  });
  const events = makeBundleTable("ui_events", "a", {
    ts: [ms(1064), ms(1020), ms(1020)],
    seq: [2, 0, 1],
    kind: ["scroll", "click", "key"],
  });
  return { frames: c.concat(a, b), runs, events };
}

describe.each([
  ["DuckDB-WASM", createNodeEngine],
  ["native DuckDB", createNativeEngine],
])("frameMetricsBySql on %s", (_, open) => {
  const engine = suiteEngine(open as () => Promise<SqlEngine>);
  const { frames, runs, events } = fixture();

  it("aggregated by the engine, gives frameMetrics' rules, counts, percentiles and buckets", async () => {
    await load(engine, "frames", frames);
    const sql = tagOf(engine);
    for (const options of [
      { runs },
      { runs, uiEvents: events },
      { runs, uiEvents: events, skipFlaggedFrames: true },
      { includeSuspect: true, refreshHz: 60 },
      { fixedDeadlineMs: 12 },
    ] satisfies FrameMetricsOptions[]) {
      const got = await frameMetricsBySql(sql, { ...options, maxRows: 0 });
      compare(got, expected(frames, options));
    }
    // by hand, run a with its events: frames 0-5 plausible (frame 6 suspect); janky 20 > 16.6, 30 > 16.6, 12 > 11.1
    const a = (await frameMetricsBySql(sql, { runs, uiEvents: events, maxRows: 0 })).find(
      (m) => m.runId === "a",
    )!;
    expect(a.total).toMatchObject({ frames: 6, jankyFrames: 3, p90FrameMs: 30, p99FrameMs: 30 });
    expect(a.rule).toEqual({ frame_deadline: 4, frame_interval: 2, refresh_rate: 0, fixed: 0 });
    expect(a.suspectSkipped).toBe(1);
    // buckets: [1000, 1016] before the events, both 1020 events open bucket 2, 1064 opens bucket 3
    expect(a.buckets.map((b) => b.frames)).toEqual([2, 0, 2, 2]);
  });

  it("under its threshold reads the frames and is frameMetrics, timeline and mean included", async () => {
    await load(engine, "frames", frames);
    const got = await frameMetricsBySql(tagOf(engine), { runs });
    const want = frameMetrics(frames, { runs }).sort((a, b) => (a.runId < b.runId ? -1 : 1));
    expect(got.map((m) => [m.runId, m.total, m.ruleText])).toEqual(
      want.map((m) => [m.runId, m.total, m.ruleText]),
    );
    expect(got.map((m) => Array.from(m.timeline!.durationMs))).toEqual(
      want.map((m) => Array.from(m.timeline.durationMs)),
    );
  });

  it("over its threshold, hands back a few rows per run however many frames there are", async () => {
    const n = 5_000;
    const vsync = Array.from({ length: n }, (_, i) => BigInt(i) * 16_666_667n);
    const big = makeBundleTable("frames", "long", {
      intended_vsync: vsync,
      duration: vsync.map((_, i) => BigInt(4_000_000 + ((i * 7919) % 9_000_000))),
      deadline: vsync.map(() => 16_666_667n),
      jank: vsync.map(() => false),
    });
    await load(engine, "frames", big.concat(fixture().frames));
    const over: number[] = [];
    const aggregated = await frameMetricsBySql(tagOf(engine, over), { runs, maxRows: n });
    // the schema (0 rows), the count (1), one row per run, and each run's frames at its two ranks (one frame
    // in the short runs, where ceil(0.9 n) = ceil(0.99 n))
    expect(over).toEqual([0, 1, 4, 5]);
    const under: number[] = [];
    const whole = await frameMetricsBySql(tagOf(engine, under), { runs });
    expect(under).toEqual([0, 1, n + 14]);
    expect(aggregated.map((m) => [m.runId, m.total.p90FrameMs, m.total.jankyFrames])).toEqual(
      whole.map((m) => [m.runId, m.total.p90FrameMs, m.total.jankyFrames]),
    );
  });
});

// Random frames on one engine: the SQL is the same text on both, and DuckDB-WASM prepares statements slowly.
describe("frameMetricsBySql on native DuckDB, random frames", () => {
  const engine = suiteEngine(createNativeEngine);
  it("agrees with frameMetrics on random frames (property)", async () => {
    const frame = fc.record({
      dv: fc.integer({ min: 0, max: 40 }),
      dur: fc.integer({ min: 0, max: 60 }),
      fd: fc.option(fc.integer({ min: -5, max: 30 })),
      fi: fc.option(fc.integer({ min: 0, max: 20 })),
      suspect: fc.boolean(),
      flags: fc.option(fc.integer({ min: 0, max: 2 })),
    });
    const runArb = fc.array(frame, { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(runArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ run: fc.nat(2), ts: fc.integer({ min: 0, max: 1200 }), seq: fc.nat(5) }), {
          maxLength: 5,
        }),
        fc.record({
          hz: fc.option(fc.constantFrom(60, 90, 120)),
          refreshHz: fc.option(fc.constantFrom(50, 144)),
          includeSuspect: fc.boolean(),
          skipFlaggedFrames: fc.boolean(),
        }),
        async (list, evs, o) => {
          const tables = list.map((rows, r) => {
            let t = 0;
            const start = rows.map((f) => BigInt((t += f.dv)) * 1_000_000n);
            return makeBundleTable("frames", `r${r}`, {
              intended_vsync: start,
              duration: rows.map((f) => ms(f.dur)),
              deadline: rows.map(() => 0n),
              jank: rows.map(() => false),
              frame_deadline: rows.map((f, i) => (f.fd === null ? null : start[i]! + ms(f.fd))),
              frame_interval: rows.map((f) => (f.fi === null ? null : ms(f.fi))),
              flags: rows.map((f) => (f.flags === null ? null : BigInt(f.flags))),
              suspect: rows.map((f) => (f.suspect ? "impossible" : null)),
            });
          });
          const frames = tables.slice(1).reduce((a, t) => a.concat(t), tables[0]!);
          const runs =
            o.hz === null
              ? undefined
              : makeBundleTable("runs", "r0", {
                  app: ["x"],
                  refresh_hz: [o.hz],
                  complete: [true],
                  synthetic: [true],
                  warnings: [[]],
                });
          const uiEvents = evs.length
            ? evs
                .map((e) =>
                  makeBundleTable("ui_events", `r${e.run}`, {
                    ts: [ms(e.ts)],
                    seq: [e.seq],
                    kind: ["click"],
                  }),
                )
                .reduce((a, t) => a.concat(t))
            : undefined;
          const options: FrameMetricsOptions = {
            runs,
            uiEvents,
            refreshHz: o.refreshHz ?? undefined,
            includeSuspect: o.includeSuspect,
            skipFlaggedFrames: o.skipFlaggedFrames,
          };
          await load(engine, "frames", frames);
          compare(
            await frameMetricsBySql(tagOf(engine), { ...options, maxRows: 0 }),
            expected(frames, options),
          );
        },
      ),
      { numRuns: 15 },
    );
  });
});
