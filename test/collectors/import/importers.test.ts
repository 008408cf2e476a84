import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectFramestats, importFramestats } from "../../../collectors/import/framestats";
import { detectGfxinfo, importGfxinfo } from "../../../collectors/import/gfxinfo";
import { detectLogcat, importLogcat } from "../../../collectors/import/logcat";

const gfx = readFileSync("test/fixtures/gfxinfo/droid-monitor_api28_chrome_gfxinfo.txt", "utf8");
const agentLog = readFileSync("test/fixtures/agent/recorded-v1.log", "utf8");
const loghub = readFileSync("test/fixtures/logcat/loghub_Android_2k_threadtime.log", "utf8");
const fs = [
  "\tcom.x/com.x.Main (visibility=0)",
  "---PROFILEDATA---",
  "Flags,IntendedVsync,Vsync,FrameCompleted,",
  "0,1000,1000,9000000,",
  "0,16667667,16667667,46000000,",
  "---PROFILEDATA---",
].join("\n");

describe("importers detect their kind", () => {
  it.each([
    ["framestats", fs, [true, false, false]],
    ["gfxinfo", gfx, [false, true, false]],
    ["agent logcat", agentLog, [false, false, true]],
    ["threadtime logcat", loghub, [false, false, true]],
  ] as const)("%s", (_, text, want) => {
    expect([detectFramestats(text), detectGfxinfo(text), detectLogcat(text)]).toEqual(want);
  });
});

describe("importers", () => {
  it("framestats -> frames with duration and jank against 16.67 ms", () => {
    const r = importFramestats(fs + "\n" + fs, "fs.txt", "imp");
    const f = r.tables.frames!;
    expect(f.numRows).toBe(2); // the same dump twice counts once
    expect(Array.from(f.getChild("duration")!.toArray() as BigInt64Array)).toEqual([8_999_000n, 29_332_333n]);
    expect(Array.from(f.getChild("jank")!.toArray() as ArrayLike<boolean>, Boolean)).toEqual([false, true]);
    expect(r.complete).toBe(true);
  });
  it("gfxinfo summary only: no frames table, the summary and histogram tables, says why", () => {
    const r = importGfxinfo(gfx, "api28.txt", "imp");
    expect(Object.keys(r.tables).sort()).toEqual(["gfxinfo_histogram", "gfxinfo_summaries"]);
    // read off the file by hand: 43 frames, 7 janky, p50 5 ms ... p99 200 ms, 154 HISTOGRAM buckets
    const s = r.tables.gfxinfo_summaries!.get(0)!.toJSON();
    expect(s).toMatchObject({ run_id: "imp", pid: 2720, package: "com.android.chrome", window: null });
    expect([s.stats_since, s.total_frames, s.janky_frames, s.p50_ms, s.p99_ms]).toEqual([
      101382312046230n,
      43n,
      7n,
      5,
      200,
    ]);
    expect(r.tables.gfxinfo_histogram!.numRows).toBe(154);
    expect(r.context.app).toBe("com.android.chrome");
    expect(r.complete).toBe(true);
    expect(r.warnings).toEqual([
      "api28.txt: gfxinfo summaries only (1; 43 frames, 7 janky): no per-frame data; collect framestats for a frames table",
    ]);
  });
  it("logcat with agent lines -> agent tables; incomplete when lines were lost", () => {
    const r = importLogcat(agentLog, "rec.log", "imp");
    expect(r.tables.tasks!.numRows).toBe(2);
    expect(r.tables.render_ops!.numRows).toBe(3);
    expect(r.tables.ui_events!.numRows).toBe(2);
    expect(r.context.app).toBe("com.example.app");
    expect(r.complete).toBe(false);
  });
});
