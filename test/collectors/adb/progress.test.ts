// The live progress line: its text, its cut to a terminal's width, and when it is drawn.
import { describe, expect, it } from "vitest";
import type { Progress } from "../../../collectors/adb/collect-device";
import { formatElapsed, formatProgress, ProgressPrinter } from "../../../collectors/adb/progress";

const p = (serial: string, elapsedMs: number, more: Partial<Progress> = {}): Progress => ({
  serial,
  elapsedMs,
  frames: 0,
  tasks: 0,
  events: 0,
  warnings: 0,
  phase: "collecting",
  ...more,
});

describe("progress line", () => {
  it("elapsed as m:ss under an hour and h:mm:ss above, rounded down", () => {
    expect(
      [0, 999, 1000, 59_999, 60_000, 754_300, 3_599_999, 3_600_000, 3_723_000].map(formatElapsed),
    ).toEqual(["0:00", "0:00", "0:01", "0:59", "1:00", "12:34", "59:59", "1:00:00", "1:02:03"]);
  });

  it("one segment per device with elapsed, frames, tasks, events and warnings; the phase when not collecting", () => {
    expect(
      formatProgress([p("emulator-5554", 12_500, { frames: 731, tasks: 42, events: 9, warnings: 1 })]),
    ).toBe("emulator-5554 0:12 frames 731 tasks 42 events 9 1 warning");
    expect(
      formatProgress([p("a", 61_000, { frames: 3 }), p("b", 60_000, { warnings: 2, phase: "writing" })]),
    ).toBe(
      "a 1:01 frames 3 tasks 0 events 0 0 warnings | b 1:00 frames 0 tasks 0 events 0 2 warnings (writing)",
    );
  });

  it("cut to the terminal's width with an ellipsis, never longer", () => {
    const devices = [p("127.0.0.1:6520", 5000, { frames: 1234 }), p("127.0.0.1:6521", 5000)];
    const full = formatProgress(devices);
    for (const width of [1, 10, 40, full.length - 1]) {
      const cut = formatProgress(devices, width);
      expect(cut.length).toBe(width);
      expect(cut.endsWith("…")).toBe(true);
      expect(full.startsWith(cut.slice(0, -1))).toBe(true);
    }
    expect(formatProgress(devices, full.length)).toBe(full);
  });

  it("a terminal rewrites one line on every update; a log gets the first update and then one line per interval", () => {
    const tty: string[] = [];
    const onTty = new ProgressPrinter({ write: (s) => tty.push(s), isTTY: true, columns: 30 });
    onTty.update(p("x", 1000));
    onTty.update(p("x", 2000, { frames: 5 }));
    onTty.done();
    // 30 columns: 29 characters, so the line never wraps and \r returns to its start
    expect(tty).toEqual([
      "\rx 0:01 frames 0 tasks 0 even…\x1b[K",
      "\rx 0:02 frames 5 tasks 0 even…\x1b[K",
      "\n",
    ]);

    let now = 0;
    const log: string[] = [];
    const onLog = new ProgressPrinter({ write: (s) => log.push(s) }, 5000, () => now);
    for (now = 0; now <= 12_000; now += 1000) onLog.update(p("x", now));
    onLog.done();
    expect(log).toEqual([
      "x 0:00 frames 0 tasks 0 events 0 0 warnings\n",
      "x 0:05 frames 0 tasks 0 events 0 0 warnings\n",
      "x 0:10 frames 0 tasks 0 events 0 0 warnings\n",
    ]);
  });
});
