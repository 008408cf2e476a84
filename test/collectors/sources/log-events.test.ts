import { describe, expect, it } from "vitest";
import { jankStatsFrames } from "../../../collectors/sources/jankstats";
import { logEvents, parseDuration } from "../../../collectors/sources/log-events";
import { parseLogcat } from "../../../collectors/sources/logcat";

// Message texts as AOSP prints them (sources cited in collectors/sources/log-events.ts); the Choreographer line
// is quoted from google/battery-historian's parser tests (Apache-2.0).
const LOG = [
  "02-29 15:45:14.575 24830 24830 I Choreographer: Skipped 60 frames!  The application may be doing too much work on its main thread.",
  "02-29 15:45:14.601 24830 24840 I com.android.settings: Background concurrent copying GC freed 171311(8MB) AllocSpace objects, 28(1176KB) LOS objects, 49% free, 9MB/19MB, paused 137us,62us total 112.457ms",
  "02-29 15:45:14.700  1400  1400 D dalvikvm: GC_CONCURRENT freed 2049K, 65% free 3571K/9991K, external 4703K/5261K, paused 2ms+2ms",
  "02-29 15:45:14.800  1400  1400 D dalvikvm: GC_FOR_ALLOC freed 3255K, 24% free 11163K/14540K, paused 47ms, total 47ms",
  "02-29 15:45:15.900 24830 24860 I OpenGLRenderer: Davey! duration=1075ms; Flags=0, IntendedVsync=5325416445706, Vsync=5325416445706, HandleInputStart=5325417123456, ",
  "02-29 15:45:16.000  1000  1020 E ActivityManager: ANR in com.android.settings (com.android.settings/.Settings)",
  "02-29 15:45:16.000  1000  1020 E ActivityManager: PID: 24830",
  "02-29 15:45:16.000  1000  1020 E ActivityManager: Reason: Input dispatching timed out (Waiting to send non-key event)",
  "02-29 15:45:16.100 24830 24830 W Looper  : Slow dispatch took 150ms main h=android.app.ActivityThread$H c=null m=159",
  "02-29 15:45:16.200 24830 24830 W Looper  : Slow delivery took 301ms main h=com.x.Handler c=com.x.Foo$1@abc m=0",
  "02-29 15:45:16.300 24830 24830 I Choreographer: Skipped frames are fine here",
  "02-29 15:45:16.400 24830 24830 I Memory  : freed 2 buffers, paused nothing",
].join("\n");

describe("logEvents", () => {
  const ev = logEvents(parseLogcat(LOG, "ev.log").lines);

  it("types each jank line with its count or duration, hand-read from the messages", () => {
    expect(ev.map((e) => [e.lineNo, e.kind, e.count, e.dur, e.pid, e.tid])).toEqual([
      [1, "skipped_frames", 60, null, 24830, 24830],
      [2, "gc_pause", null, 199_000n, 24830, 24840], // 137 us + 62 us
      [3, "gc_pause", null, 4_000_000n, 1400, 1400], // 2 ms + 2 ms
      [4, "gc_pause", null, 47_000_000n, 1400, 1400],
      [5, "davey", null, 1_075_000_000n, 24830, 24860],
      [6, "anr", null, null, 1000, 1020],
      [9, "slow_dispatch", null, 150_000_000n, 24830, 24830],
      [10, "slow_delivery", null, 301_000_000n, 24830, 24830],
    ]);
  });

  it("keeps the cause, the ANR reason and the handler as detail; Davey! gets its time from IntendedVsync", () => {
    expect(ev[1]!.detail).toBe("Background concurrent copying GC, total 112.457ms, paused 137us,62us");
    expect(ev[3]!.detail).toBe("GC_FOR_ALLOC GC, total 47ms, paused 47ms");
    expect(ev[5]!.detail).toBe(
      "com.android.settings (com.android.settings/.Settings); Reason: Input dispatching timed out (Waiting to send non-key event)",
    );
    expect(ev[6]!.detail).toBe("main h=android.app.ActivityThread$H c=null m=159");
    // threadtime has no monotonic clock: the frame's IntendedVsync plus its duration (when it was logged)
    expect(ev[4]!.ts).toBe(5_325_416_445_706n + 1_075_000_000n);
    expect(ev[0]!.ts).toBeNull();
    expect(ev[0]!.wall_time).toBe("02-29 15:45:14.575");
  });

  it("reads GC pauses in the layouts they are found in the wild (Android Studio before Dolphin, brief)", () => {
    const text = [
      "07-07 02:58:18.007 11027-11545/com.example.shop I/art: Explicit concurrent mark sweep GC freed 33056(2MB) AllocSpace objects, 16(559KB) LOS objects, 39% free, 21MB/35MB, paused 435us total 20.298ms",
      "07-07 02:58:19.007 11027-11545/? I/art: Background partial concurrent mark sweep GC freed 1(1KB) AllocSpace objects, 0(0B) LOS objects, 40% free, 5MB/9MB, paused 1.234ms total 100.123ms",
      "D/dalvikvm( 9050): GC_CONCURRENT freed 2049K, 65% free 3571K/9991K, external 4703K/5261K, paused 2ms+2ms",
    ].join("\n");
    const r = parseLogcat(text, "gc.log");
    expect(r.warnings).toEqual([]);
    expect(logEvents(r.lines).map((e) => [e.kind, e.pid, e.tid, e.dur])).toEqual([
      ["gc_pause", 11027, 11545, 435_000n],
      ["gc_pause", 11027, 11545, 1_234_000n],
      ["gc_pause", 9050, null, 4_000_000n],
    ]);
  });

  it("uses the line's monotonic time when the log has one", () => {
    const r = parseLogcat("  5287.811000  901  901 I Choreographer: Skipped 3 frames!  x\n");
    expect(logEvents(r.lines)[0]).toMatchObject({ ts: 5_287_811_000_000n, count: 3 });
  });

  it.each([
    ["137us", 137_000n],
    ["112.457ms", 112_457_000n],
    ["1.5s", 1_500_000_000n],
    ["250ns", 250n],
    ["2ms", 2_000_000n],
    ["12", null],
    ["ms", null],
    ["999999999999s", null], // beyond int64 ns
  ])("parseDuration(%s)", (text, ns) => expect(parseDuration(text)).toBe(ns));
});

describe("jankStatsFrames", () => {
  // FrameData / FrameDataApi24 / FrameDataApi31 toString() (androidx metrics-performance), as an app logs them.
  const text = [
    "  100.000000  500  500 V JankStats: FrameData(frameStartNanos=100000000000, frameDurationUiNanos=5000000, isJank=false, states=[])",
    "  100.020000  500  500 V JankStats: FrameData(frameStartNanos=100016666667, frameDurationUiNanos=9000000, frameDurationCpuNanos=12000000, isJank=false, states=[Activity: Main])",
    "  100.060000  500  500 V JankStats: FrameData(frameStartNanos=100033333334, frameDurationUiNanos=20000000, frameDurationCpuNanos=30000000, frameDurationTotalNanos=41000000, frameOverrunNanos=24333333, isJank=true, states=[Activity: Main, RecyclerView: Dragging])",
    "  100.070000  500  500 V JankStats: FrameData(frameStartNanos=oops, isJank=true)",
    "  100.080000  500  500 V JankStats: FrameData(frameStartNanos=100050000001, frameDurationUiNanos=99999999999999999999, isJank=true, states=[])",
    "  100.090000  500  500 V JankStats: FrameData(frameStartNanos=100066666668, frameDurationUiNanos=1000, frameDurationCpuNanos=12",
  ].join("\n");
  const r = jankStatsFrames(parseLogcat(text, "js.log").lines, "js.log");

  it("reads the three toString forms and names the unreadable line", () => {
    expect(r.frames.map((f) => [f.start, f.ui, f.cpu, f.total, f.overrun, f.isJank, f.states])).toEqual([
      [100_000_000_000n, 5_000_000n, null, null, null, false, ""],
      [100_016_666_667n, 9_000_000n, 12_000_000n, null, null, false, "Activity: Main"],
      [
        100_033_333_334n,
        20_000_000n,
        30_000_000n,
        41_000_000n,
        24_333_333n,
        true,
        "Activity: Main, RecyclerView: Dragging",
      ],
    ]);
    // line 5 overflows int64, line 6 is cut mid-line
    expect(r.warnings).toEqual(
      [4, 5, 6].map(
        (n) =>
          `js.log line ${n}: a JankStats FrameData line without a readable frameStartNanos, frameDurationUiNanos, isJank or duration`,
      ),
    );
  });
});
