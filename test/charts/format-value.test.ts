import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatDuration,
  formatNumber,
  formatValue,
  isInstantColumn,
  isTimeColumn,
  middleEllipsis,
} from "../../charts/format-value";

describe("isTimeColumn", () => {
  it.each([
    ["ts", true],
    ["start_ts", true],
    ["dur", true],
    ["slice_dur", true],
    ["queue_ns", true],
    ["intended_vsync", true], // documented "ns" in bundle/schema.ts
    ["handle_input_start", true], // framestats timestamp (HandleInputStart)
    ["inclusive", true],
    ["started", true], // tasks.started: ns, undocumented as such
    ["vsync", true],
    ["counts", false], // ends in "ts" but is no *_ts column
    ["duration_ms", false],
    ["task_id", false],
    ["frame_timeline_vsync_id", false],
    ["value", false], // heap bytes
    ["run_id", false],
  ])("%s -> %s", (name, expected) => {
    expect(isTimeColumn(name)).toBe(expected);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [16_666_667, "16.67 ms"], // one 60 Hz vsync
    [5_000_000n, "5 ms"],
    [999_994_999, "999.99 ms"],
    [1_000_000_000, "1 s"],
    [1_234_567_890_123n, "1,234.568 s"], // a CLOCK_MONOTONIC timestamp 20 minutes after boot
    [-32_500_000, "-32.5 ms"],
    [500, "0.0005 ms"],
    [123_456, "0.123 ms"],
  ])("%s ns -> %s", (ns, expected) => {
    expect(formatDuration(ns)).toBe(expected);
  });
});

describe("formatNumber", () => {
  it.each([
    [0, "0"],
    [1800, "1,800"],
    [1_234_567, "1,234,567"],
    [9_007_199_254_740_993n, "9,007,199,254,740,993"], // beyond 2^53: exact as int64
    [0.938, "0.938"],
    [0.66349, "0.663"],
    [1234.5678, "1,234.568"],
    [0.000123456, "0.000123"],
    [Number.NaN, "NaN"],
  ])("%s -> %s", (v, expected) => {
    expect(formatNumber(v)).toBe(expected);
  });
});

describe("formatValue", () => {
  it("formats by column: ns columns in ms, others as grouped numbers, nulls as ∅", () => {
    expect(formatValue(16_666_667n, "dur")).toBe("16.67 ms");
    expect(formatValue(16_666_667n, "frames")).toBe("16,666,667");
    expect(formatValue(null, "dur")).toBe("∅");
    expect(formatValue("k9-galaxy-s21-android12-r1", "run_id")).toBe("k9-galaxy-s21-android12-r1");
    expect(formatValue(true)).toBe("true");
  });
  it("writes lists (Arrow vectors) and objects with int64 values as JSON", () => {
    expect(formatValue({ toArray: () => ["a", "b"] })).toBe('["a","b"]');
    expect(formatValue({ n: 3n })).toBe('{"n":"3"}');
  });
});

describe("moments from the run's start", () => {
  it.each([
    ["ts", true],
    ["end_ts", true],
    ["server_ts", true], // binder_transactions: "ns CLOCK_MONOTONIC"
    ["intended_vsync", true],
    ["vsync", true],
    ["handle_input_start", true], // framestats timestamp
    ["frame_deadline", true], // FrameDeadline: absolute
    ["dur", false],
    ["server_dur", false],
    ["duration", false],
    ["deadline", false], // frames.deadline: a budget, ns
    ["inclusive", false],
    ["counts", false],
  ])("%s is a moment: %s", (name, expected) => {
    expect(isInstantColumn(name)).toBe(expected);
  });

  it("a moment at or after the origin reads as time since it; before it, or a duration, as before", () => {
    // a slice 476,593.396 s after boot, in a trace that started 476,593.000 s after boot
    expect(formatValue(476_593_396_000_000n, "ts", 476_593_000_000_000)).toBe("+396 ms");
    expect(formatValue(476_593_396_000_000n, "ts")).toBe("476,593.396 s");
    expect(formatValue(476_595_500_000_000n, "end_ts", 476_593_000_000_000)).toBe("+2.5 s");
    expect(formatValue(16_666_667n, "dur", 476_593_000_000_000)).toBe("16.67 ms");
    // a method trace's clock starts at 0: not a moment of the run's clock, left as it was
    expect(formatValue(5_000_000n, "ts", 476_593_000_000_000)).toBe("5 ms");
    expect(formatValue(null, "ts", 0)).toBe("∅");
  });
});

describe("middleEllipsis", () => {
  it.each([
    ["k9-galaxy-s21-android12-r1", 30, "k9-galaxy-s21-android12-r1"],
    ["k9-galaxy-s21-android12-r1", 11, "k9-ga…12-r1"],
    ["k9-galaxy-s21-android12-r1", 10, "k9-ga…2-r1"],
    ["abcdef", 2, "a…"],
    ["abcdef", 1, "…"],
  ])("%s in %i -> %s", (text, max, expected) => {
    expect(middleEllipsis(text, max)).toBe(expected);
  });

  it("fits in max, keeps both ends, and leaves short text alone", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 2, max: 40 }), (text, max) => {
        const out = middleEllipsis(text, max);
        const chars = [...text];
        if (chars.length <= max) return out === text;
        const head = Math.ceil((max - 1) / 2);
        const tail = max - 1 - head;
        return (
          [...out].length === max &&
          out.startsWith(chars.slice(0, head).join("")) &&
          out.endsWith(chars.slice(chars.length - tail).join("")) &&
          out.includes("…")
        );
      }),
    );
  });
});
