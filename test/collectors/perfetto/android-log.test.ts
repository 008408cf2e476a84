// android.log packets (TracePacket 39) built by hand with the test-side encoder: CLOCK_REALTIME event times reach
// CLOCK_MONOTONIC through the trace's ClockSnapshot, lines land in logcat and the jank ones in log_events.
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { trace, type Field } from "./pb";

const clock = (id: number, ts: number): Field => ({
  f: 1,
  m: [
    { f: 1, v: id },
    { f: 2, v: ts },
  ],
});
// REALTIME 1_700_000_000 s, BOOTTIME 1000 s, MONOTONIC 990 s at the same instant.
const RT0 = 1_700_000_000_000_000_000n;
const snapshot: Field[] = [
  { f: 8, v: 1_000_000_000_000 },
  { f: 6, m: [clock(1, Number(RT0)), clock(6, 1_000_000_000_000), clock(3, 990_000_000_000)] },
];
const event = (dtNs: number, prio: number, tag: string, message: string): Field => ({
  f: 1,
  m: [
    { f: 2, v: 4242 },
    { f: 3, v: 4243 },
    { f: 5, v: RT0 + BigInt(dtNs) },
    { f: 6, s: tag },
    { f: 7, v: prio },
    { f: 8, s: message },
  ],
});

describe("android.log inside a Perfetto trace", () => {
  it("lines into logcat at MONOTONIC time, Choreographer's skipped frames into log_events", () => {
    const bytes = trace([
      snapshot,
      [
        {
          f: 39,
          m: [
            event(2_000_000, 4, "ActivityManager", "Start proc 4242:com.example/u0a12"),
            event(
              5_000_000,
              4,
              "Choreographer",
              "Skipped 31 frames!  The application may be doing too much work on its main thread.",
            ),
            event(1_000_000, 6, "AndroidRuntime", "FATAL EXCEPTION: main"),
          ],
        },
      ],
    ]);
    const imp = importPerfetto(bytes, "log.pftrace", "r");
    const logcat = imp.tables.logcat!.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
    // Sorted by time: 990 s + 1 ms, + 2 ms, + 5 ms. CLOCK_REALTIME in ns (~1.7e18) is past 2^53: a double holds it
    // to 256 ns, so times are checked to within 512 ns.
    expect(logcat.map((r) => [r.level, r.tag, r.pid, r.tid])).toEqual([
      ["E", "AndroidRuntime", 4242, 4243],
      ["I", "ActivityManager", 4242, 4243],
      ["I", "Choreographer", 4242, 4243],
    ]);
    const near = (got: unknown, want: number) =>
      expect(Math.abs(Number(got) - want)).toBeLessThanOrEqual(512);
    near(logcat[0]!.ts, 990_001_000_000);
    near(logcat[1]!.ts, 990_002_000_000);
    near(logcat[2]!.ts, 990_005_000_000);
    // 1_700_000_000 s is 2023-11-14 22:13:20 UTC.
    expect(logcat[0]!.wall_time).toBe("2023-11-14 22:13:20.001");
    const events = imp.tables
      .log_events!.toArray()
      .map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
    expect(events.map((r) => [r.kind, r.count, r.pid])).toEqual([["skipped_frames", 31n, 4242]]);
    near(events[0]!.ts, 990_005_000_000);
    expect(imp.warnings.join("\n")).not.toMatch(/android_log/);
  });
});
