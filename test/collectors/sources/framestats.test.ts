import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  FRAMESTATS_LAYOUTS,
  frameColumnName,
  framestatsLayoutFor,
  parseFramestats,
} from "../../../collectors/sources/framestats";
import { tableSpec } from "../../../bundle/schema";

// A dump written the way hwui prints it (CanvasContext dumpFrames): header, rows ending with a comma.
function dump(window: string, columns: readonly string[], rows: bigint[][]): string {
  return [
    "Applications Graphics Acceleration Info:",
    "** Graphics info for pid 4242 [com.example] **",
    "Total frames rendered: 3",
    "Profile data in ms:",
    "",
    `\t${window} (visibility=0)`,
    "Stats since: 100ns",
    "",
    "---PROFILEDATA---",
    columns.join(",") + ",",
    ...rows.map((r) => r.join(",") + ","),
    "---PROFILEDATA---",
    "",
    "View hierarchy:",
  ].join("\n");
}

describe("parseFramestats", () => {
  const frameCols = new Set(tableSpec("frames").columns.map((c) => c.name));

  it.each(FRAMESTATS_LAYOUTS.map((l) => [l.release, l] as const))(
    "reads the Android %s layout by its header",
    (_, layout) => {
      // Each cell gets a distinct value: row r, column c -> 1e12 + r*1000 + c.
      const rows = [0, 1, 2].map((r) =>
        layout.columns.map((_, c) => 1_000_000_000_000n + BigInt(r * 1000 + c)),
      );
      const r = parseFramestats(
        dump("com.example/com.example.Main/android.view.ViewRootImpl@1a2b", layout.columns, rows),
        "fs.txt",
      );
      expect(r.warnings).toEqual([]);
      expect(r.failure).toBeNull();
      expect(r.sections).toHaveLength(1);
      const s = r.sections[0]!;
      expect(s.window).toBe("com.example/com.example.Main/android.view.ViewRootImpl@1a2b");
      expect(s.frames).toHaveLength(3);
      for (const [ri, f] of s.frames.entries())
        for (const [c, name] of layout.columns.entries())
          expect(f.values[frameColumnName(name)]).toBe(1_000_000_000_000n + BigInt(ri * 1000 + c));
      // every column of every layout has a home in the frames table
      for (const name of layout.columns) expect(frameCols.has(frameColumnName(name)), name).toBe(true);
    },
  );

  it("maps header names to schema columns", () => {
    expect(frameColumnName("IntendedVsync")).toBe("intended_vsync");
    expect(frameColumnName("FrameTimelineVsyncId")).toBe("frame_timeline_vsync_id");
    expect(frameColumnName("IssueDrawCommandsStart")).toBe("issue_draw_commands_start");
    expect(frameColumnName("GpuCompleted")).toBe("gpu_completed");
  });

  it("picks the layout by API level", () => {
    expect(framestatsLayoutFor(22)).toBeNull();
    expect(framestatsLayoutFor(23)).toHaveLength(14);
    expect(framestatsLayoutFor(28)).toHaveLength(16);
    expect(framestatsLayoutFor(30)).toHaveLength(17);
    expect(framestatsLayoutFor(31)).toHaveLength(21);
    expect(framestatsLayoutFor(34)).toContain("CommandSubmissionCompleted");
  });

  it("keeps valid rows and names the line of a bad one", () => {
    const cols = FRAMESTATS_LAYOUTS[0]!.columns;
    const good = cols.map((_, i) => BigInt(i + 1));
    const text = dump("a/b", cols, [good]).replace(
      "---PROFILEDATA---\n\nView",
      "1,2,3,\n0,x," + "5,".repeat(cols.length - 2) + "\n---PROFILEDATA---\n\nView",
    );
    const r = parseFramestats(text, "poll.txt");
    expect(r.sections[0]!.frames).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^poll\.txt line 12: expected 14 fields, got 3$/);
    expect(r.warnings[1]).toMatch(/^poll\.txt line 13: field IntendedVsync is not an integer/);
  });

  it("reads one section per window and an unknown vendor column", () => {
    const cols = [...FRAMESTATS_LAYOUTS[1]!.columns, "FrameCompletedWallTime"];
    const a = dump("p/A/android.view.ViewRootImpl@1", cols, [cols.map(() => 5n)]);
    const b = dump("p/B/android.view.ViewRootImpl@2", cols, [cols.map(() => 7n), cols.map(() => 8n)]);
    const r = parseFramestats(a + "\n" + b);
    expect(r.sections.map((s) => [s.window, s.frames.length])).toEqual([
      ["p/A/android.view.ViewRootImpl@1", 1],
      ["p/B/android.view.ViewRootImpl@2", 2],
    ]);
    expect(r.sections[1]!.frames[1]!.values.frame_completed_wall_time).toBe(8n);
  });

  // Android 12+ header order as devices print it, values in FrameInfo.h order: FrameStartTime first.
  const A12 = FRAMESTATS_LAYOUTS.find((l) => l.release === "13")!.columns.map((c) =>
    c === "FrameStartTime" ? "FrameInterval" : c === "FrameInterval" ? "FrameStartTime" : c,
  );
  const a12row = (iv: bigint, period: bigint) =>
    A12.map((c) =>
      c === "IntendedVsync" || c === "Vsync"
        ? iv
        : c === "FrameStartTime"
          ? period // printed under FrameStartTime, it is the interval
          : c === "FrameInterval"
            ? iv + 300_000n
            : c === "FrameDeadline"
              ? iv + period
              : c === "FrameCompleted"
                ? iv + 7_000_000n
                : 0n,
    );

  it("reads FrameInterval and FrameStartTime swapped when the values say so, with a notice", () => {
    const iv = 314_856_675_367_713n; // the ~314,000 s uptime of the real dumps that showed it
    const r = parseFramestats(
      dump("p/A", A12, [a12row(iv, 8_311_780n), a12row(iv + 8_311_780n, 8_311_747n)]),
      "a12",
    );
    const f = r.sections[0]!.frames;
    expect(f.map((x) => [x.values.frame_interval, x.values.frame_start_time])).toEqual([
      [8_311_780n, iv + 300_000n],
      [8_311_747n, iv + 8_311_780n + 300_000n],
    ]);
    expect(r.warnings).toEqual([]);
    expect(r.notices).toEqual([
      "a12 line 10: FrameInterval holds timestamps (median 314856.684 s) and FrameStartTime refresh periods " +
        "(median 8.312 ms): the device printed them in the other order than its header says (AOSP FrameInfo.cpp " +
        "names vs FrameInfo.h indices); read swapped for 2 rows",
    ]);
  });

  it("leaves a plausible FrameInterval alone, and does not swap on zeros", () => {
    const cols = FRAMESTATS_LAYOUTS.find((l) => l.release === "13")!.columns;
    const ok = cols.map((c) =>
      c === "FrameInterval" ? 16_666_667n : c === "FrameStartTime" ? 2_000_300_000n : 2_000_000_000n,
    );
    const zeros = A12.map((c) => (c === "IntendedVsync" ? 5_000_000_000n : 0n));
    for (const [cs, row] of [
      [cols, ok],
      [A12, zeros],
    ] as const) {
      const r = parseFramestats(dump("p/A", cs, [row]));
      expect(r.notices.filter((n) => n.includes("other order"))).toEqual([]);
    }
  });

  it("numbers the dumps of a saved polling session: a new dumpsys header, or a window seen again", () => {
    const cols = FRAMESTATS_LAYOUTS[0]!.columns;
    const one = dump("p/A", cols, [cols.map(() => 5n)]);
    const bare = one.slice(one.indexOf("\t"));
    expect(parseFramestats(one + "\n" + one).sections.map((s) => s.dump)).toEqual([0, 1]);
    expect(parseFramestats(bare + "\n" + bare).sections.map((s) => s.dump)).toEqual([0, 1]);
    const two = dump("p/A", cols, [cols.map(() => 5n)]) + dump("p/B", cols, [cols.map(() => 6n)]).slice(40);
    expect(parseFramestats(two).sections.map((s) => s.dump)).toEqual([0, 0]);
  });

  it("reports Failure while dumping", () => {
    const r = parseFramestats(
      "Failure while dumping the app: ProcessRecord{1 2:com.x/u0a1}\njava.io.IOException: Timeout\n",
      "poll 3",
    );
    expect(r.failure).toMatch(/^poll 3 line 1: Failure while dumping/);
    expect(r.sections).toEqual([]);
  });

  it("reads the real gfxinfo dumps without PROFILEDATA as no frames and no warnings", async () => {
    const { readFileSync } = await import("node:fs");
    for (const f of ["droid-monitor_api23_chrome_gfxinfo.txt", "droid-monitor_api28_chrome_gfxinfo.txt"]) {
      const r = parseFramestats(readFileSync(`test/fixtures/gfxinfo/${f}`, "utf8"), f);
      expect(r.sections).toEqual([]);
      expect(r.warnings).toEqual([]);
    }
  });

  it("never throws and keeps exactly the well-formed rows (property)", () => {
    const cols = FRAMESTATS_LAYOUTS[2]!.columns;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant("good"), fc.constant("short"), fc.string()), { maxLength: 30 }),
        (kinds) => {
          const lines = kinds.map((k, i) =>
            k === "good"
              ? cols.map((_, c) => i * 100 + c).join(",") + ","
              : k === "short"
                ? "1,2,"
                : k.replace(/---PROFILEDATA---|\n/g, ""),
          );
          const text = [
            "\tp/A (visibility=0)",
            "---PROFILEDATA---",
            cols.join(",") + ",",
            ...lines,
            "---PROFILEDATA---",
          ].join("\n");
          const r = parseFramestats(text);
          const goodIdx = kinds.flatMap((k, i) => (k === "good" ? [i] : []));
          const got = r.sections.flatMap((s) => s.frames);
          // a random string may itself be a valid row; every "good" row must be there, in order
          const ivs = got.map((f) => f.values.intended_vsync);
          for (const i of goodIdx) expect(ivs).toContain(BigInt(i * 100 + 1));
        },
      ),
      { numRuns: 200 },
    );
  });
});
