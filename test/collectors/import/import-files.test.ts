// `jankbook import FILE...`: one session's files into one run, context files, overrides, and the messages
// for files it cannot read.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFiles } from "../../../cli/commands/import";
import { main } from "../../../cli/main";
import { detectImporter, ImportFile } from "../../../collectors/import/importers";
import { importLogcat } from "../../../collectors/import/logcat";
import { mergeContexts, parseContextOverrides } from "../../../collectors/import/run-context";
import {
  contextFromGetprop,
  parseBattery,
  parseDisplayRefresh,
  parseGetprop,
  parseWmSize,
} from "../../../collectors/sources/device-props";
import { piecesAndNoise } from "../../support/pieces-and-noise";

const tmp = () => mkdtempSync(join(tmpdir(), "jb-files-"));
const LOGHUB = "test/fixtures/logcat/loghub_Android_2k_threadtime.log";
const GFX = "test/fixtures/gfxinfo/droid-monitor_api28_chrome_gfxinfo.txt";

const GETPROP = [
  "[dalvik.vm.heapsize]: [512m]",
  "[ro.build.version.release]: [11]",
  "[ro.build.version.sdk]: [30]",
  "[ro.product.cpu.abi]: [arm64-v8a]",
  "[ro.product.manufacturer]: [Google]",
  "[ro.product.model]: [Pixel 4a]",
  "",
].join("\n");
const WM = "Physical size: 1080x2340\n";
const BATTERY =
  "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  status: 2\n  level: 57\n  scale: 100\n";
const DISPLAY =
  'DISPLAY MANAGER (dumpsys display)\n  mDisplayDevices:\n    DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", 1080 x 2340, modeId 1, defaultModeId 1, supportedModes [{id=1, width=1080, height=2340, fps=60.0}]}\n';
const FRAMESTATS = (rows: string[]) =>
  [
    "\tcom.x/com.x.Main (visibility=0)",
    "---PROFILEDATA---",
    "Flags,IntendedVsync,Vsync,FrameCompleted,",
    ...rows,
    "---PROFILEDATA---",
    "",
  ].join("\n");

// Tokens the parsers look for, for the fuzz tests at the end.
const DEVICE_CONTEXT_PIECES = [
  "[",
  "]",
  ": ",
  "[ro.product.model]: [",
  "Physical size: ",
  "1080x2400",
  "level: ",
  "scale: ",
  "modeId 1",
  "{id=1, width=1, height=1, fps=",
  "60.0",
  "\n",
  "\r\n",
  " ",
];
const LOGCAT_PIECES = [
  "  5287.811  901  930 I Choreographer: Skipped 12 frames!  x\n",
  "03-17 16:13:38.811  1  2 I OpenGLRenderer: Davey! duration=800ms; IntendedVsync=99, \n",
  "I/art( 12): Background concurrent copying GC freed 1(1KB) AllocSpace objects, paused 1ms total 2ms\n",
  "  1.000  5  5 V JS: FrameData(frameStartNanos=1, frameDurationUiNanos=2, isJank=false, states=[])\n",
  "  1.000  5  5 I JankbookAgent: jb1 0 hello 1.0.0 5 a.b\n",
  "[ 03-17 16:13:38.811  1: 2 W/T ]\n",
  "Slow dispatch took ",
  "ANR in ",
  "99999999999",
  "\r\n",
  "\n",
  " ",
];

function files(entries: Record<string, string | Uint8Array>): string[] {
  const dir = tmp();
  return Object.entries(entries).map(([name, body]) => {
    writeFileSync(join(dir, name), body);
    return join(dir, name);
  });
}

describe("importFiles: one session, one run", () => {
  it("puts logcat, framestats and the context files into one bundle with every source listed", async () => {
    const out = tmp();
    const paths = files({
      "session.log":
        "  100.000000  500  500 I Choreographer: Skipped 31 frames!  x\n  100.500000  500  501 W Looper  : Slow dispatch took 120ms main h=a.B c=null m=0\n",
      "fs.txt": FRAMESTATS(["0,1000,1000,9000000,", "0,16667667,16667667,46000000,"]),
      "getprop.txt": GETPROP,
      "wm.txt": WM,
      "battery.txt": BATTERY,
      "display.txt": DISPLAY,
    });
    const runs = await importFiles(paths, out);
    expect(runs).toHaveLength(1);
    const b = await readBundleFolder(runs[0]!.dir);
    expect(b.errors).toEqual([]);
    expect(b.manifest.run_id).toBe("import-session");
    expect(b.manifest.context).toMatchObject({
      device_model: "Pixel 4a",
      manufacturer: "Google",
      sdk_release: "11",
      api_level: 30,
      cpu_abi: "arm64-v8a",
      screen_width: 1080,
      screen_height: 2340,
      refresh_hz: 60,
      battery_level: 57,
    });
    expect(b.manifest.sources).toEqual([
      { kind: "getprop", origin: "getprop.txt", tables: [] },
      { kind: "wm-size", origin: "wm.txt", tables: [] },
      { kind: "dumpsys-battery", origin: "battery.txt", tables: [] },
      { kind: "dumpsys-display", origin: "display.txt", tables: [] },
      { kind: "logcat", origin: "session.log", tables: ["logcat", "log_events"] },
      { kind: "framestats", origin: "fs.txt", tables: ["frames"] },
    ]);
    expect(b.manifest.tables).toMatchObject({
      logcat: { rows: 2 },
      log_events: { rows: 2 },
      frames: { rows: 2 },
    });
    const ev = b.tables.get("log_events")!;
    expect([ev.getChild("kind")!.get(0), ev.getChild("ts")!.get(0), ev.getChild("count")!.get(0)]).toEqual([
      "skipped_frames",
      100_000_000_000n,
      31n,
    ]);
    expect(b.manifest.complete).toBe(true);
  });

  it("concatenates tables of the same name; frames seen in two overlapping dumps count once", async () => {
    const out = tmp();
    const paths = files({
      "a.txt": FRAMESTATS(["0,1000,1000,9000000,", "0,16667667,16667667,46000000,"]),
      "b.txt": FRAMESTATS(["0,16667667,16667667,46000000,", "0,33334334,33334334,40000000,"]),
      "one.log": "I/ActivityManager(  412): Start proc com.x\n",
      "two.log": "I/ActivityManager(  412): Start proc com.y\nW/ActivityManager(  412): done\n",
    });
    const runs = await importFiles(paths, out, { runId: "sess" });
    const b = await readBundleFolder(runs[0]!.dir);
    expect(b.tables.get("logcat")!.numRows).toBe(3);
    expect(b.tables.get("logcat")!.getChild("message")!.get(2)).toBe("done");
    const iv = b.tables.get("frames")!.getChild("intended_vsync")!;
    expect(Array.from(iv.toArray() as BigInt64Array)).toEqual([1000n, 16_667_667n, 33_334_334n]);
    expect(b.manifest.warnings).toContain(
      "frames: 1 rows seen in an earlier file (overlapping dumps) kept once",
    );
  });

  it("a lone context file makes a run with context and no tables", async () => {
    const out = tmp();
    const runs = await importFiles(files({ "getprop.txt": GETPROP }), out);
    const b = await readBundleFolder(runs[0]!.dir);
    expect(b.manifest.tables).toEqual({});
    expect(b.manifest.context).toMatchObject({ app: "unknown", device_model: "Pixel 4a", api_level: 30 });
  });

  it("--context overrides every file and is checked", async () => {
    const out = tmp();
    const runs = await importFiles(files({ "getprop.txt": GETPROP }), out, {
      context: ["device_model=Pixel 4a (5G)", "refresh_hz=90", "screen=1440x3040", "app=com.example"],
    });
    expect(runs[0]!.manifest.context).toMatchObject({
      device_model: "Pixel 4a (5G)",
      refresh_hz: 90,
      screen_width: 1440,
      screen_height: 3040,
      app: "com.example",
      api_level: 30,
    });
    expect(runs[0]!.warnings).toEqual([]);
  });

  it.each([
    [["colour=red"], /^--context colour: unknown key; known keys: app, app_version, .*screen$/],
    [["api_level=thirty"], /^--context api_level=thirty: expected an integer from 1 to 1000$/],
    [["battery_level=120"], /^--context battery_level=120: expected an integer from 0 to 100$/],
    [["refresh_hz=0"], /^--context refresh_hz=0: expected a number from 1 to 1000$/],
    [["screen=big"], /^--context screen=big: expected WIDTHxHEIGHT/],
    [["device_model"], /^--context "device_model": expected key=value$/],
  ])("rejects --context %s", (pairs, message) => {
    expect(() => parseContextOverrides(pairs)).toThrow(message);
  });

  it("reports context files that disagree and keeps the first", () => {
    const r = mergeContexts([
      { file: "a", context: { app: "unknown", api_level: 30 } },
      { file: "b", context: { app: "com.x", api_level: 31 } },
    ]);
    expect(r.context).toMatchObject({ app: "com.x", api_level: 30 });
    expect(r.warnings).toEqual(["b: api_level 31 differs from 30 in a; kept the first"]);
  });
});

describe("the registry detects each kind from its content", () => {
  const three = (line: string) => `${line}\n${line}\n${line}\n`;
  it.each([
    ["logcat threadtime", three("03-17 16:13:38.811  1234  1250 I Choreographer: x")],
    ["logcat brief", three("I/Choreographer( 1234): x")],
    ["logcat process", three("I( 1234) x  (Choreographer)")],
    ["logcat long", "[ 03-17 16:13:38.811  1234: 1250 I/Choreographer ]\nline one\nline two\n\n".repeat(3)],
    ["logcat Android Studio", three("2024-03-17 16:13:38.811  1234-1250  Choreographer  com.x  I  x")],
    ["getprop", GETPROP],
    ["wm-size", WM],
    ["dumpsys-battery", BATTERY],
    ["dumpsys-display", DISPLAY],
    ["gfxinfo", readFileSync(GFX, "utf8")],
    ["framestats", FRAMESTATS(["0,1000,1000,9000000,"])],
  ])("%s", (kind, text) => {
    expect(detectImporter(new ImportFile("f", new TextEncoder().encode(text))).kind).toBe(kind.split(" ")[0]);
  });
});

describe("files jankbook cannot read", () => {
  it.each([
    ["empty.txt", new Uint8Array(), /^empty\.txt: the file is empty$/],
    ["blank.txt", "\n \n", /^blank\.txt: the file holds only blank space$/],
    [
      "x.bin",
      new Uint8Array([0x1f, 0x8b, 8, 0, 0x41]),
      /^x\.bin: not a kind jankbook imports \(gzip-compressed: gunzip it first\); it starts with "\\x1f\\x8b\\x08\\x00A" \(5 bytes\)\. Accepted: method trace .*; logcat .*; adb shell getprop/,
    ],
    [
      "notes.md",
      "# my notes\nnothing to see\n",
      /^notes\.md: not a kind jankbook imports; it starts with "# my notes\\nnothing to see\\n" \(26 bytes\)/,
    ],
  ])("%s", (name, body, message) => {
    const f = new ImportFile(name, typeof body === "string" ? new TextEncoder().encode(body) : body);
    expect(() => detectImporter(f)).toThrow(message);
  });

  it("the command prints one line naming the file, no stack trace, exit 1; a missing file too", async () => {
    const [bin] = files({ "x.bin": new Uint8Array([0, 1, 2, 3]) });
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
    expect(await main(["node", "jankbook", "import", bin!, "--out", tmp()])).toBe(1);
    expect(await main(["node", "jankbook", "import", "/nonexistent/a.log", "--out", tmp()])).toBe(1);
    expect(await main(["node", "jankbook", "import", LOGHUB, "--out", tmp(), "--context", "x=1"])).toBe(1);
    expect(err).toHaveLength(3);
    expect(err[0]).toMatch(
      /^jankbook: x\.bin: not a kind jankbook imports; it starts with "\\x00\\x01\\x02\\x03"/,
    );
    expect(err[1]).toBe("jankbook: /nonexistent/a.log: cannot read (no such file)\n");
    expect(err[2]).toMatch(/^jankbook: --context x: unknown key/);
    expect(err.join("")).not.toMatch(/\n\s+at /);
  });
  afterEach(() => vi.restoreAllMocks());
});

describe("encodings and line ends", () => {
  const line = "03-17 16:13:38.811  1234  1250 I Choreographer: Skipped 31 frames!  x";
  const text = `${line}\r\n${line}\r\n${line}\r\n`;
  const utf16 = (s: string, bom: boolean) => {
    const b = new Uint8Array((bom ? 2 : 0) + s.length * 2);
    if (bom) b.set([0xff, 0xfe]);
    for (let i = 0; i < s.length; i++) b[(bom ? 2 : 0) + 2 * i] = s.charCodeAt(i);
    return b;
  };
  it.each([
    ["utf-8 CRLF", new TextEncoder().encode(text), null],
    ["utf-8 with BOM", new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]), null],
    ["UTF-16 LE with BOM", utf16(text, true), "read as UTF-16LE (byte-order mark)"],
    ["UTF-16 LE without BOM (PowerShell)", utf16(text, false), "read as UTF-16LE"],
  ])("%s", async (_, bytes, note) => {
    const out = tmp();
    const [p] = files({ "enc.log": bytes as Uint8Array });
    const runs = await importFiles([p!], out);
    const t = runs[0]!.tables.logcat!;
    expect(t.numRows).toBe(3);
    expect(t.getChild("message")!.get(2)).toBe("Skipped 31 frames!  x");
    expect(t.getChild("wall_time")!.get(0)).toBe("03-17 16:13:38.811");
    if (note) expect(runs[0]!.warnings).toContain(`enc.log: ${note}`);
    expect(runs[0]!.tables.log_events!.numRows).toBe(3);
  });

  it("a logcat with JankStats lines gets jankstats frames", async () => {
    const [p] = files({
      "js.log": [
        "  100.020000  500  500 V JankStats: FrameData(frameStartNanos=100016666667, frameDurationUiNanos=9000000, frameDurationCpuNanos=12000000, isJank=false, states=[])",
        "  100.060000  500  500 V JankStats: FrameData(frameStartNanos=100033333334, frameDurationUiNanos=20000000, frameDurationCpuNanos=30000000, frameDurationTotalNanos=41000000, frameOverrunNanos=24333333, isJank=true, states=[])",
        "",
      ].join("\n"),
    });
    const runs = await importFiles([p!], tmp());
    const f = runs[0]!.tables.frames!;
    expect(Array.from(f.getChild("duration")!.toArray() as BigInt64Array)).toEqual([
      12_000_000n,
      41_000_000n,
    ]);
    // API 31: deadline = total - overrun = 16.666667 ms; API 24: 16.67 ms
    expect(Array.from(f.getChild("deadline")!.toArray() as BigInt64Array)).toEqual([
      16_670_000n,
      16_666_667n,
    ]);
    expect(Array.from(f.getChild("jank")!.toArray() as Iterable<boolean>, Boolean)).toEqual([false, true]);
    expect(f.getChild("source")!.get(0)).toBe("jankstats");
  });

  it("gfxinfo summaries still import beside the rest (no BigInt crash)", async () => {
    const runs = await importFiles([GFX], tmp());
    expect(runs[0]!.kinds).toEqual(["gfxinfo"]);
    expect(runs[0]!.manifest.context.app).toBe("com.android.chrome");
  });
});

describe("device-context parsers under fuzz", () => {
  it("any text gives a result, never a throw, and getprop warnings name a line", () => {
    fc.assert(
      fc.property(piecesAndNoise(DEVICE_CONTEXT_PIECES, { noise: 5, maxParts: 40 }), (text) => {
        const g = parseGetprop(text, "gp");
        for (const w of g.warnings) expect(w).toMatch(/^gp line \d+: /);
        contextFromGetprop(g.props);
        parseWmSize(text);
        parseBattery(text);
        const hz = parseDisplayRefresh(text);
        expect(hz === null || typeof hz === "number").toBe(true);
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});

describe("logcat import under fuzz", () => {
  it("any mix of log-like pieces gives tables that match the schema, or warnings naming the line", () => {
    fc.assert(
      fc.property(piecesAndNoise(LOGCAT_PIECES, { noise: 8, maxParts: 30 }), (text) => {
        const r = importLogcat(text, "fz.log", "fz");
        for (const w of r.warnings) expect(w).toMatch(/^fz\.log/);
        for (const t of Object.values(r.tables)) expect(t!.getChild("run_id")!.get(0)).toBe("fz");
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});
