import { describe, expect, it } from "vitest";
import { timeTicks } from "../../../workspace/components/timeline-canvas";

describe("timeTicks", () => {
  it("counts ms from the origin at 1, 2 or 5 x 10^k, about one per 90 px", () => {
    // 50 ms over 580 px: 6 ticks wanted, 8.33 ms raw, so a 10 ms step
    expect(timeTicks([0, 50e6], 580)).toEqual([0, 10, 20, 30, 40, 50]);
    const boot = 476_593_396_123_456;
    expect(timeTicks([boot, boot + 50e6], 580, boot)).toEqual([0, 10, 20, 30, 40, 50]);
    // a window inside the run: from 12.5 ms to 13.5 ms after the origin, 0.2 ms steps (1 ms / 6 = 0.167)
    expect(timeTicks([boot + 12.5e6, boot + 13.5e6], 580, boot).map((t) => +t.toFixed(6))).toEqual([
      12.6, 12.8, 13, 13.2, 13.4,
    ]);
  });

  it("without an origin the ticks are the clock's own ms, as before (a method trace starts at 0)", () => {
    expect(timeTicks([1_000e6, 1_020e6], 580)).toEqual([1000, 1005, 1010, 1015, 1020]);
  });
});
