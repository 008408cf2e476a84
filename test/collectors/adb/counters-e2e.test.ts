// `jankbook collect --counters` end to end: real adb server, the simulated phone's simpleperf, the bundle's
// hpc_samples against every sample the phone printed (values per interval, times in CLOCK_MONOTONIC).
import { describe, expect, it } from "vitest";
import { type CollectOptions } from "../../../collectors/adb/collect-device";
import { CountersSession } from "../../../collectors/adb/counters";
import { PROFILES } from "../../../collectors/simulator/device-profiles";
import type { SimulatedPhone } from "../../../collectors/simulator/phone";
import { simulatedCollector } from "./sim-harness";

const collectSim = simulatedCollector("hpc");
const collect = (
  profile: keyof typeof PROFILES,
  port: number,
  extra: Partial<CollectOptions> = {},
  whileRunning?: (phone: SimulatedPhone) => void,
) =>
  collectSim({
    // a dump holds every frame: polls a loaded machine delays lose none (late polls: collect-faults.test.ts)
    phone: { profile: PROFILES[profile]!, scenario: "openlaw", timeScale: 5, framestatsRing: 1_000_000 },
    collect: { scenario: "monkey:50", durationMs: 20_000, counters: true, ...extra },
    port,
    whileRunning,
  });

const rowsOf = (t: { numRows: number; getChild(n: string): { get(i: number): unknown } | null }) =>
  Array.from({ length: t.numRows }, (_, i) => ({
    ts: t.getChild("ts")!.get(i),
    cpu: t.getChild("cpu")!.get(i),
    counter: t.getChild("counter")!.get(i),
    value: t.getChild("value")!.get(i),
  }));

describe("jankbook collect --counters", () => {
  it("hpc_samples hold every interval simpleperf printed, at the device's CLOCK_MONOTONIC", async () => {
    const { res, bundle, phone } = await collect("pixel-4a", 6761);
    expect(res.ended).toBe("scenario-finished");
    expect(bundle.manifest.complete).toBe(true);
    expect(bundle.manifest.warnings.filter((w) => /counters|simpleperf/.test(w))).toEqual([]);
    expect(bundle.manifest.sources.find((s) => s.kind === "simpleperf-stat")).toMatchObject({
      tables: ["hpc_samples"],
    });
    const cmd = phone.commands.find((c) => c.includes("simpleperf stat"))!;
    expect(cmd).toMatch(
      /exec simpleperf stat --app org\.jankbook\.sample -e cpu-cycles,instructions,cache-references,cache-misses,branch-misses,task-clock,context-switches,page-faults --interval 100 --duration 30 -o \/data\/local\/tmp\/jankbook-hpc\.simpleperf\.txt$/,
    );
    // the scenario (6 s of device time) ended long before --duration: simpleperf was stopped, its file read and removed
    expect(phone.commands.some((c) => /^kill -INT \d+$/.test(c))).toBe(true);
    expect(phone.commands).toContain("cat /data/local/tmp/jankbook-hpc.simpleperf.txt");
    expect(phone.simpleperf.files.size).toBe(0);

    const got = rowsOf(bundle.tables.get("hpc_samples")!);
    const printed = phone.simpleperf.samples;
    expect(got).toEqual(printed.map((s) => ({ ts: s.ts, cpu: s.cpu, counter: s.counter, value: s.value })));
    // one report per 100 ms of device time over the 6 s scenario and its settling polls
    const times = [...new Set(got.map((r) => r.ts as bigint))];
    expect(times.length).toBeGreaterThanOrEqual(60);
    expect(got.length).toBe(times.length * 8);
    const base = BigInt(phone.base);
    expect(times[0]! - base).toBeGreaterThan(100_000_000n);
    expect(times[0]! - base).toBeLessThan(100_500_000n);
    for (const [i, t] of times.entries()) if (i) expect(t - times[i - 1]!).toBeGreaterThan(99_000_000n);
    // plausible counts: the app's threads ran at this phone's clock rate (1.7 GHz +- noise) in every interval
    const at = (ts: bigint, c: string) => got.find((r) => r.ts === ts && r.counter === c)!.value as number;
    for (const t of times) {
      const ghz = at(t, "cpu-cycles") / at(t, "task-clock");
      expect(ghz).toBeGreaterThan(1.5);
      expect(ghz).toBeLessThan(1.9);
      expect(at(t, "task-clock")).toBeLessThanOrEqual(400_000_000); // at most 4 of 8 cores busy for 100 ms
    }
    // the counts follow the app's work: intervals with frames or tasks running cost more CPU than idle ones
    const clock = times.map((t) => at(t, "task-clock"));
    expect(Math.max(...clock)).toBeGreaterThan(5 * Math.min(...clock));
  }, 60_000);

  it("a phone without simpleperf: a warning in the manifest, the rest of the run collected", async () => {
    const { res, bundle } = await collect("nexus-5x", 6762);
    expect(res.ended).toBe("scenario-finished");
    expect(bundle.tables.has("hpc_samples")).toBe(false);
    expect(bundle.tables.get("frames")!.numRows).toBeGreaterThan(0);
    expect(bundle.manifest.complete).toBe(true);
    expect(bundle.manifest.warnings).toContain(
      "--counters: no simpleperf on this device's PATH (recent Android releases have it in /system/bin); no hpc_samples",
    );
  }, 60_000);

  it("Ctrl-C mid-run keeps the intervals printed so far; an event the PMU lacks is reported as simpleperf said it", async () => {
    // Ctrl-C 700 ms in, as a user would (aborting at simpleperf's very first interval raced its SIGINT in the suite)
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const { res, bundle, phone, shell } = await collect("pixel-7", 6763, {
      signal: controller.signal,
      countersIntervalMs: 50,
    });
    expect(res.ended).toBe("interrupted");
    const got = rowsOf(bundle.tables.get("hpc_samples")!);
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(
      phone.simpleperf.samples.map((s) => ({ ts: s.ts, cpu: s.cpu, counter: s.counter, value: s.value })),
    );
    const last = got[got.length - 1]!.ts as bigint;
    expect(Number(last - BigInt(phone.base))).toBeLessThan(phone.timeline.duration);

    const warnings: string[] = [];
    const s = await CountersSession.start(
      shell,
      {
        package: "org.jankbook.sample",
        runId: "pmu",
        events: ["cpu-cycles", "stalled-cycles-backend"],
        maxDurationMs: 1000,
      },
      (w) => warnings.push(w),
    );
    const r = await s!.stop();
    expect(warnings).toEqual([]);
    expect(r.table).toBeNull();
    expect(r.warnings.map(([w]) => w)).toEqual([
      "--counters: simpleperf E event_selection_set.cpp:257] Event type 'stalled-cycles-backend' is not supported on the device",
      "--counters: simpleperf wrote no /data/local/tmp/jankbook-pmu.simpleperf.txt; no hpc_samples",
    ]);
  }, 60_000);
});
