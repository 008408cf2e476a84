import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseLogcat, parseLogLine } from "../../../collectors/sources/logcat";
import { parseLine } from "../../../collectors/sources/logcat-line";
import { piecesAndNoise } from "../../support/pieces-and-noise";

const MSG = "Skipped 31 frames!  The application may be doing too much work on its main thread.";

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

  it("agrees with an independent field split on every loghub line", () => {
    // Reference: threadtime is "MM-DD HH:MM:SS.mmm pid tid L tag: msg" (logprint.cpp FORMAT_THREADTIME);
    // split on whitespace for the fixed fields and on the first ": " after the level for tag and message.
    const text = readFileSync("test/fixtures/logcat/loghub_Android_2k_threadtime.log", "utf8");
    const lines = text
      .split("\n")
      .map((l) => l.replace(/\r$/, ""))
      .filter((l) => l.trim());
    const r = parseLogcat(text);
    lines.forEach((l, i) => {
      const [date, time, pid, tid, level] = l.split(/ +/);
      const rest = l.slice(l.indexOf(` ${level} `, 20) + 3);
      const sep = rest.indexOf(": ");
      const got = r.lines[i]!;
      expect([got.wall, got.pid, got.tid, got.level]).toEqual([
        `${date} ${time}`,
        Number(pid),
        Number(tid),
        level,
      ]);
      expect(got.tag).toBe(rest.slice(0, sep).trimEnd());
      expect(got.message).toBe(rest.slice(sep + 2));
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

  // Each line written by hand from the printf formats of logprint.cpp android_log_formatLogLine
  // (pid 1234, tid 1250, uid 10123) and from Android Studio's Logcat copy.
  it.each([
    [
      "threadtime",
      `03-17 16:13:38.811  1234  1250 I Choreographer: ${MSG}`,
      { wall: "03-17 16:13:38.811", tid: 1250 },
    ],
    [
      "-v year",
      `2024-03-17 16:13:38.811  1234  1250 I Choreographer: ${MSG}`,
      { wall: "2024-03-17 16:13:38.811" },
    ],
    [
      "-v usec",
      `03-17 16:13:38.811123  1234  1250 I Choreographer: ${MSG}`,
      { wall: "03-17 16:13:38.811123" },
    ],
    [
      "-v zone",
      `03-17 16:13:38.811 +0100  1234  1250 I Choreographer: ${MSG}`,
      { wall: "03-17 16:13:38.811 +0100" },
    ],
    [
      "-v monotonic",
      `  5287.811  1234  1250 I Choreographer: ${MSG}`,
      { mono_ns: 5_287_811_000_000n, wall: null },
    ],
    [
      "-v epoch",
      `         1710692018.811  1234  1250 I Choreographer: ${MSG}`,
      { wall: "1710692018.811", mono_ns: null },
    ],
    ["-v uid", `03-17 16:13:38.811 10123  1234  1250 I Choreographer: ${MSG}`, { uid: "10123", tid: 1250 }],
    ["-v uid (name)", `03-17 16:13:38.811  root  1234  1250 I Choreographer: ${MSG}`, { uid: "root" }],
    ["brief", `I/Choreographer( 1234): ${MSG}`, { tid: null, wall: null }],
    ["brief -v uid", `I/Choreographer(10123: 1234): ${MSG}`, { uid: "10123" }],
    ["time", `03-17 16:13:38.811 I/Choreographer( 1234): ${MSG}`, { wall: "03-17 16:13:38.811", tid: null }],
    ["process", `I( 1234) ${MSG}  (Choreographer)`, { tid: null }],
    ["thread", `I( 1234: 1250) ${MSG}`, { tag: "" }],
    ["tag", `I/Choreographer: ${MSG}`, { pid: -1 }],
    ["color", `\x1b[39mI/Choreographer( 1234): ${MSG}\x1b[0m`, {}],
    [
      "Android Studio",
      `2024-03-17 16:13:38.811  1234-1250  Choreographer           com.example.app                      I  ${MSG}`,
      { wall: "2024-03-17 16:13:38.811", tid: 1250 },
    ],
    [
      "Android Studio (before Dolphin)",
      `2024-03-17 16:13:38.811 1234-1250/com.example.app I/Choreographer: ${MSG}`,
      { tid: 1250 },
    ],
  ])("%s", (_, line, want) => {
    const p = parseLine(line);
    expect(p).not.toBeNull();
    expect(p!.line).toMatchObject({
      pid: 1234,
      level: "I",
      tag: "Choreographer",
      message: MSG,
      ...want,
    });
  });

  it("refuses pids and tids beyond int32 (a cut or corrupt line), naming the line", () => {
    const r = parseLogcat(
      "03-17 16:13:38.811  99999999999  1250 I Choreographer: x\nI/Tag(4294967296): y\n",
      "big.log",
    );
    expect(r.lines).toEqual([]);
    expect(r.warnings.map((w) => w.slice(0, 16))).toEqual(["big.log line 1: ", "big.log line 2: "]);
  });

  it("reads -v long: the message runs over the following lines up to the blank one", () => {
    const text = [
      "--------- beginning of main",
      "[ 03-17 16:13:38.811  1234: 1250 I/Choreographer ]",
      MSG,
      "",
      "[ 03-17 16:13:39.001  1234: 1234 W/System.err ]",
      "java.lang.RuntimeException: boom",
      "\tat com.x.Main.onCreate(Main.java:12)",
      "",
    ].join("\n");
    const r = parseLogcat(text, "long.log");
    expect(r.format).toBe("long");
    expect(r.warnings).toEqual([]);
    expect(r.lines.map((l) => [l.lineNo, l.tag, l.tid, l.message])).toEqual([
      [2, "Choreographer", 1250, MSG],
      [5, "System.err", 1234, "java.lang.RuntimeException: boom\n\tat com.x.Main.onCreate(Main.java:12)"],
    ]);
  });

  it("reads Android Studio's copy: right-aligned pids, odd tags, stack traces on indented lines", () => {
    const pad = " ".repeat(100);
    const text = [
      "2026-02-21 21:29:38.335   940-940   VRI[MainActivity]       com.example.app                      D  onFocusEvent true",
      "2025-08-04 13:15:13.317  4246-4246  AndroidRuntime          com.example.app                      E  FATAL EXCEPTION: main",
      `${pad}\tat android.os.Looper.loop(Looper.java:317) `,
      `${pad}\tat android.app.ActivityThread.main(ActivityThread.java:8782) `,
      "--------- beginning of main",
      "2025-08-04 13:15:13.418  4246-4256  HWUI                    com.example.app                      I  Davey! duration=730ms; Flags=0, IntendedVsync=26788253150497, ",
    ].join("\n");
    const r = parseLogcat(text, "studio.log");
    expect(r.warnings).toEqual([]);
    expect(r.lines.map((l) => [l.pid, l.tid, l.tag, l.level])).toEqual([
      [940, 940, "VRI[MainActivity]", "D"],
      [4246, 4246, "AndroidRuntime", "E"],
      [4246, 4256, "HWUI", "I"],
    ]);
    expect(r.lines[1]!.message).toBe(
      "FATAL EXCEPTION: main\n\tat android.os.Looper.loop(Looper.java:317) \n\tat android.app.ActivityThread.main(ActivityThread.java:8782) ",
    );
  });

  it("reads CRLF lines and names unreadable ones", () => {
    const r = parseLogcat(
      "--------- beginning of main\r\nI/ActivityManager(  412): Start proc com.x\r\nnot a log line\r\n--------- beginning of main\r\n",
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
    expect(r.unread).toBe(1);
    expect(r.warnings).toEqual(['b.log line 3: not a logcat line: "not a log line"']);
  });
});

// Tokens of every logcat format, for the fuzz test.
const LOG_PIECES = [
  "03-17 16:13:38.811",
  "  5287.811",
  "2024-03-17",
  " ",
  "  ",
  "1234",
  "-",
  "/",
  "(",
  ")",
  ":",
  ": ",
  "I",
  "W",
  "[ ",
  " ]",
  "\n",
  "\r\n",
  "Choreographer",
  "\x1b[",
  "--------- beginning of main",
];

describe("parseLogcat on hostile input", () => {
  it("any text gives lines or warnings with line numbers, never a throw", () => {
    fc.assert(
      fc.property(piecesAndNoise(LOG_PIECES, { noise: 4, maxParts: 60 }), (text) => {
        const r = parseLogcat(text, "f.log");
        const lineCount = text.split("\n").length;
        for (const l of r.lines) {
          expect(l.lineNo).toBeGreaterThanOrEqual(1);
          expect(l.lineNo).toBeLessThanOrEqual(lineCount);
        }
        for (const w of r.warnings) expect(w).toMatch(/^f\.log( line \d+)?: /);
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});
