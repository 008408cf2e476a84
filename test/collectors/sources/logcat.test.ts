import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLogcat, parseLogLine } from "../../../collectors/sources/logcat";

describe("parseLogcat", () => {
  it("reads all 2,000 threadtime lines of the loghub fixture", () => {
    const text = readFileSync("test/fixtures/logcat/loghub_Android_2k_threadtime.log", "utf8");
    const r = parseLogcat(text, "Android_2k.log");
    expect(r.format).toBe("threadtime");
    expect(r.lines).toHaveLength(2000);
    expect(r.warnings).toEqual([]);
    expect(r.lines[0]).toMatchObject({
      wall: "03-17 16:13:38.811",
      pid: 1702,
      tid: 2395,
      level: "D",
      tag: "WindowManager",
      mono_ns: null,
    });
    expect(r.lines[0]!.message).toMatch(/^printFreezingDisplayLogsopening app wtoken/);
    expect(r.lines[4]).toMatchObject({
      pid: 2227,
      tid: 2227,
      tag: "TextView",
      message: "visible is system.time.showampm",
    });
  });

  it.each([
    ["   133.207  1743  1743 I JankbookAgent: jb1 0 hello 1.0.0 1743 a.b", 133_207_000_000n, "JankbookAgent"],
    ["  5287.123456  901  930 D Choreographer: Skipped 31 frames!", 5_287_123_456_000n, "Choreographer"],
    ["     2.000000001   10   11 W tag with space : msg: with colon", 2_000_000_001n, "tag with space"],
  ])("reads monotonic lines at ms, us and ns precision: %s", (line, ns, tag) => {
    const p = parseLogLine(line)!;
    expect(p.format).toBe("monotonic");
    expect(p.line.mono_ns).toBe(ns);
    expect(p.line.tag).toBe(tag);
  });

  it("reads brief lines and restart markers, and names unreadable lines", () => {
    const r = parseLogcat(
      "--------- beginning of main\nI/ActivityManager(  412): Start proc com.x\nnot a log line\n--------- beginning of main\n",
      "b.log",
    );
    expect(r.format).toBe("brief");
    expect(r.lines[0]).toMatchObject({
      level: "I",
      tag: "ActivityManager",
      pid: 412,
      tid: null,
      message: "Start proc com.x",
    });
    expect(r.markers.map((m) => m.lineNo)).toEqual([1, 4]);
    expect(r.warnings).toEqual(['b.log line 3: not a logcat line: "not a log line"']);
  });
});
