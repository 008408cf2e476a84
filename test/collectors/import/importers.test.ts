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
  it("gfxinfo summary only: no frames table, says why", () => {
    const r = importGfxinfo(gfx, "api28.txt");
    expect(r.tables).toEqual({});
    expect(r.context.app).toBe("com.android.chrome");
    expect(r.warnings).toEqual([
      "api28.txt: gfxinfo summary only (43 frames, 7 janky): no per-frame data; collect framestats for a frames table",
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
