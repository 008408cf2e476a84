import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGfxinfo } from "../../../collectors/sources/gfxinfo";

const fixture = (f: string) => readFileSync(`test/fixtures/gfxinfo/${f}`, "utf8");

describe("parseGfxinfo on real dumps (droid-monitor fixtures)", () => {
  it("Android 9: process summary, counts and the full histogram", () => {
    const r = parseGfxinfo(fixture("droid-monitor_api28_chrome_gfxinfo.txt"), "api28");
    expect(r.pid).toBe(2720);
    expect(r.package).toBe("com.android.chrome");
    expect(r.warnings).toEqual([]);
    const s = r.summaries[0]!;
    expect(s.scope).toBe("process");
    expect(s.stats_since_ns).toBe(101382312046230n);
    expect([s.total_frames, s.janky_frames, s.janky_percent]).toEqual([43, 7, 16.28]);
    expect(s.percentiles).toEqual({ 50: 5, 90: 69, 95: 150, 99: 200 });
    expect(s.counts).toEqual({
      missed_vsync: 5,
      high_input_latency: 14,
      slow_ui_thread: 5,
      slow_bitmap_uploads: 0,
      slow_issue_draw_commands: 1,
      frame_deadline_missed: 5,
    });
    expect(s.histogram[0]).toEqual({ ms: 5, count: 33 });
    expect(s.histogram.at(-1)).toEqual({ ms: 4950, count: 0 });
    // the buckets hold every frame
    expect(s.histogram.reduce((a, b) => a + b.count, 0)).toBe(43);
    expect(r.windows).toEqual([
      "com.android.chrome/com.google.android.apps.chrome.Main/android.view.ViewRootImpl@e39dbee",
    ]);
  });

  it("Android 6: a per-window summary after the process one", () => {
    const r = parseGfxinfo(fixture("droid-monitor_api23_chrome_gfxinfo.txt"), "api23");
    const win = r.summaries.find((s) => s.scope !== "process")!;
    expect(win.scope).toBe(
      "com.android.chrome/org.chromium.chrome.browser.firstrun.FirstRunActivityStaging/android.view.ViewRootImpl@6b40547",
    );
    expect(win.stats_since_ns).toBe(9656484850794n);
    expect([win.total_frames, win.janky_frames, win.janky_percent]).toEqual([3, 2, 66.67]);
    expect(win.percentiles[90]).toBe(101);
  });

  it("Android 7: summary; Android 4.3: no summary at all, still no error", () => {
    const n = parseGfxinfo(fixture("droid-monitor_api24_settings_gfxinfo.txt"));
    expect(n.summaries[0]).toMatchObject({ total_frames: 24, janky_frames: 14, janky_percent: 58.33 });
    expect(n.summaries[0]!.counts.slow_issue_draw_commands).toBe(12);
    const old = parseGfxinfo(fixture("droid-monitor_api18_chrome_gfxinfo.txt"));
    expect(old.pid).toBe(29541);
    expect(old.summaries).toEqual([]);
    expect(old.windows).toEqual([
      "com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity/android.view.ViewRootImpl@41fc59c8",
    ]);
  });

  it("reads Profile data rows and names the line of a bad histogram bucket", () => {
    const text = [
      "** Graphics info for pid 1 [a.b] **",
      "Total frames rendered: 2",
      "HISTOGRAM: 5ms=1 6ms=x",
      "Profile data in ms:",
      "",
      "\ta.b/a.b.Main/android.view.ViewRootImpl@1 (visibility=0)",
      "\tDraw\tPrepare\tProcess\tExecute",
      "\t1.20\t0.30\t2.50\t0.90",
      "\t3.00\t0.10\t1.00\t0.50",
      "",
      "View hierarchy:",
    ].join("\n");
    const r = parseGfxinfo(text, "g.txt");
    expect(r.profile).toEqual([
      {
        window: "a.b/a.b.Main/android.view.ViewRootImpl@1",
        columns: ["Draw", "Prepare", "Process", "Execute"],
        rows: [
          [1.2, 0.3, 2.5, 0.9],
          [3, 0.1, 1, 0.5],
        ],
      },
    ]);
    expect(r.warnings).toEqual(['g.txt line 3: histogram bucket "6ms=x" is not <ms>ms=<count>']);
  });
});

describe("parseGfxinfo flags what cannot be true and what was cut", () => {
  const dump = (body: string[]) =>
    ["** Graphics info for pid 1 [a.b] **", ...body, "View hierarchy:", "Total ViewRootImpl   : 0"].join(
      "\n",
    );

  it("more janky than rendered frames, a HISTOGRAM not adding up, a GPU HISTOGRAM over the total", () => {
    const r = parseGfxinfo(
      dump([
        "Stats since: 5ns",
        "Total frames rendered: 3",
        "Janky frames: 4 (133.33%)",
        "Janky frames (legacy): 2 (66.67%)",
        "HISTOGRAM: 5ms=1 6ms=1",
        "GPU HISTOGRAM: 1ms=4",
      ]),
      "g.txt",
    );
    expect(r.inconsistent).toEqual([
      "g.txt line 2: 4 janky frames of 3 rendered",
      "g.txt line 2: HISTOGRAM holds 2 frames, Total frames rendered says 3",
      "g.txt line 2: GPU HISTOGRAM holds 4 frames of 3 rendered",
    ]);
    expect(r.truncated).toBeNull();
  });

  it("a process block without its Total ViewRootImpl line was cut short; every real dump has it", () => {
    const whole = dump(["Total frames rendered: 1"]);
    expect(parseGfxinfo(whole, "g").truncated).toBeNull();
    const cut = whole.slice(0, whole.indexOf("Total ViewRootImpl") + 10);
    expect(parseGfxinfo(cut, "g").truncated).toBe(
      'g line 4: the dump of pid 1 [a.b] (line 1) ends before its "Total ViewRootImpl" line: the file was cut short',
    );
    for (const f of ["api18_chrome", "api23_chrome", "api24_settings", "api28_chrome"]) {
      const r = parseGfxinfo(fixture(`droid-monitor_${f}_gfxinfo.txt`), f);
      expect([r.truncated, r.inconsistent]).toEqual([null, []]);
    }
  });

  it("reads a '0 of 0 frames' summary (nan%) and a comma decimal without a warning", () => {
    const r = parseGfxinfo(
      dump([
        "Total frames rendered: 0",
        "Janky frames: 0 (nan%)",
        "Window: w",
        "Stats since: 1ns",
        "Total frames rendered: 8",
        "Janky frames: 1 (12,50%)",
      ]),
      "g",
    );
    expect(r.warnings).toEqual([]);
    expect(r.summaries.map((s) => [s.window, s.total_frames, s.janky_frames, s.janky_percent])).toEqual([
      [null, 0, 0, null],
      ["w", 8, 1, 12.5],
    ]);
  });
});

describe("parseGfxinfo on framestats dumps of Android 6 to 11 (no Window: lines)", () => {
  it("gives each window's summary to the window line before it, across PROFILEDATA sections", () => {
    const section = [
      "---PROFILEDATA---",
      "Flags,IntendedVsync,FrameCompleted,",
      "0,1,2,",
      "---PROFILEDATA---",
      "",
    ];
    const text = [
      "** Graphics info for pid 7 [a.b] **",
      "Stats since: 1ns",
      "Total frames rendered: 5",
      "Profile data in ms:",
      "",
      "\ta.b/a.b.Main/android.view.ViewRootImpl@1 (visibility=0)",
      "Stats since: 2ns",
      "Total frames rendered: 3",
      "",
      ...section,
      "\ta.b/a.b.Dialog/android.view.ViewRootImpl@2 (visibility=8)",
      "Stats since: 3ns",
      "Total frames rendered: 2",
      "",
      ...section,
      "View hierarchy:",
      "",
      "  a.b/a.b.Main/android.view.ViewRootImpl@1",
      "Total ViewRootImpl: 2",
    ].join("\n");
    const r = parseGfxinfo(text, "g");
    expect(r.summaries.map((s) => [s.window, s.stats_since_ns, s.total_frames])).toEqual([
      [null, 1n, 5],
      ["a.b/a.b.Main/android.view.ViewRootImpl@1", 2n, 3],
      ["a.b/a.b.Dialog/android.view.ViewRootImpl@2", 3n, 2],
    ]);
    expect([r.warnings, r.truncated, r.inconsistent]).toEqual([[], null, []]);
  });
});
