// framestats and gfxinfo dumps through their importers (and importFile for the decoding), against values read off
// the files by hand. The Android 14 fixture is written for this project after the layout of real dumps: two
// windows, the FrameInterval/FrameStartTime order swapped as devices print it, two frames sharing a vsync, a frame
// dumped before it completed and a 9-year frame.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFile } from "../../../cli/commands/import";
import { detectFramestats, importFramestats } from "../../../collectors/import/framestats";
import { detectGfxinfo, importGfxinfo } from "../../../collectors/import/gfxinfo";
import { decodeText } from "../../../collectors/sources/text-decode";

const FIX = "test/fixtures/gfxinfo";
const read = (f: string) => readFileSync(join(FIX, f), "utf8");
const A14 = read("jankbook_android14_two-windows_framestats.txt");
const P = 16_666_667n;
const BASE = 25_810_000_000_000n;
const POPUP = 25_812_000_000_000n;
const MAIN = "com.example.feed/com.example.feed.MainActivity/android.view.ViewRootImpl@4db95cb";

const col = (t: Table, name: string) => Array.from(t.getChild(name)!.toArray() as ArrayLike<unknown>);
const rows = (t: Table) => t.toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());

describe("importFramestats on an Android 14 dump with two windows", () => {
  const r = importFramestats(A14, "a14.txt", "run");
  const f = r.tables.frames!;

  it("keeps every one of the 5 rows, in IntendedVsync order, with their windows", () => {
    expect(f.numRows).toBe(5);
    expect(col(f, "intended_vsync")).toEqual([BASE, BASE + P, BASE + P, BASE + 2n * P, POPUP]);
    expect(col(f, "window")).toEqual([
      MAIN,
      MAIN,
      MAIN,
      MAIN,
      "PopupWindow:1a2b3c/android.view.ViewRootImpl@77aa",
    ]);
    // the two frames of one vsync differ in DrawStart (8 ms apart)
    expect(col(f, "draw_start").slice(1, 3)).toEqual([BASE + P + 1_000_000n, BASE + P + 9_000_000n]);
  });

  it("reads FrameInterval and FrameStartTime the right way round, and says so per section", () => {
    expect(col(f, "frame_interval")).toEqual([P, P, P, P, P]);
    expect(col(f, "frame_start_time")).toEqual([
      BASE + 400_000n,
      BASE + P + 400_000n,
      BASE + P + 400_000n,
      BASE + 2n * P + 400_000n,
      POPUP + 400_000n,
    ]);
    const swaps = r.warnings.filter((w) => w.includes("in the other order than its header says"));
    expect(swaps.map((w) => w.slice(0, 16))).toEqual(["a14.txt line 58:", "a14.txt line 92:"]);
  });

  it("measures durations against FrameDeadline and flags the unfinished and the impossible frame", () => {
    expect(col(f, "duration")).toEqual([
      9_000_000n,
      12_000_000n,
      20_000_000n,
      5_500_000n,
      288_208_950_232_000_000n,
    ]);
    expect(col(f, "deadline")).toEqual([P, P, P, P, P]);
    expect(col(f, "jank").map(Boolean)).toEqual([false, false, true, false, true]);
    expect(col(f, "suspect")).toEqual([
      null,
      null,
      null,
      "not completed when dumped (FrameCompleted 0): duration measured to swap_buffers_completed, a lower bound",
      "duration 288208950.232 s is longer than a frame can take",
    ]);
    expect(r.warnings).toContain(
      "a14.txt: 2 frame rows flagged suspect (frames.suspect) and left out of analyses by default (a row may have several reasons): 0 negative " +
        "duration, 1 longer than 60 s, 0 int64 overflow, 0 IntendedVsync not a time, 1 not completed when dumped",
    );
    expect(r.complete).toBe(true);
  });

  it("writes the process summary and both window summaries, with legacy and GPU figures", () => {
    const s = rows(r.tables.gfxinfo_summaries!);
    expect(s.map((x) => [x.window, x.total_frames, x.janky_frames, x.janky_frames_legacy])).toEqual([
      [null, 5n, 2n, 3n],
      ["com.example.feed/com.example.feed.MainActivity", 4n, 1n, 2n],
      ["PopupWindow:1a2b3c", 1n, 1n, 1n],
    ]);
    expect(s[0]).toMatchObject({
      pid: 17477,
      package: "com.example.feed",
      stats_since: 25_809_000_000_000n,
      p50_ms: 9,
      p90_ms: 20,
      p99_ms: 4950,
      gpu_p50_ms: 4,
      gpu_p99_ms: 6,
      missed_vsync: 1n,
      slow_ui_thread: 1n,
      frame_deadline_missed: 2n,
    });
    // HISTOGRAM buckets: 6 + 5 + 1 frame buckets and 7 GPU buckets for each of the 3 summaries
    const h = rows(r.tables.gfxinfo_histogram!);
    expect(h).toHaveLength(12 + 21);
    expect(
      h.filter((x) => x.kind === "frame" && x.window === null).map((x) => [x.bucket_ms, x.count]),
    ).toEqual([
      [5, 0n],
      [6, 1n],
      [9, 1n],
      [12, 1n],
      [20, 1n],
      [4950, 1n],
    ]);
  });
});

describe("framestats polling sessions and encodings", () => {
  // The second poll sees the frame that was unfinished in the first one completed (FrameCompleted 12 ms).
  const unfinished = A14.split("\n").find((l) => l.startsWith("0,2003,"))!;
  const fields = unfinished.split(",");
  const done = BASE + 2n * P + 12_000_000n;
  fields[16] = fields[19] = String(done);
  fields[21] = String(BASE + 2n * P + 25_000_000n);
  const later = A14.replace(unfinished, fields.join(","));

  it("keeps each frame once across two saved polls, taking late columns from the later one", () => {
    const r = importFramestats(A14 + later, "session.txt", "run");
    const f = r.tables.frames!;
    expect(f.numRows).toBe(5);
    expect(col(f, "duration")[3]).toBe(12_000_000n);
    expect(col(f, "suspect")[3]).toBeNull();
    expect(r.warnings).toContain("session.txt: 2 dumps overlap; 5 repeated frames kept once");
  });

  it("reads a CRLF file with a UTF-8 BOM exactly as the LF original", () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(A14.replaceAll("\n", "\r\n")),
    ]);
    const text = decodeText(bytes).text;
    expect(detectFramestats(text)).toBe(true);
    const a = importFramestats(A14, "x", "run");
    const b = importFramestats(text, "x", "run");
    expect(rows(b.tables.frames!)).toEqual(rows(a.tables.frames!));
    expect(rows(b.tables.gfxinfo_summaries!)).toEqual(rows(a.tables.gfxinfo_summaries!));
  });

  it("reports a UTF-16 'Failure while dumping' file as a failed framestats dump, not as binary", async () => {
    const text =
      "Applications Graphics Acceleration Info:\r\nUptime: 6897124 Realtime: 6897124\r\n\r\n" +
      "** Graphics info for pid 1516 [com.miui.home] **\r\n\r\n" +
      "Failure while dumping the app: ProcessRecord{43294230 1516:com.miui.home/1000}\r\n";
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i); // ASCII: high bytes stay 0
    const dir = mkdtempSync(join(tmpdir(), "jankbook-fs-"));
    const file = join(dir, "framestats.txt");
    writeFileSync(file, bytes);
    const r = await importFile(file, join(dir, "out"), "failed");
    expect(r.kind).toBe("framestats");
    expect(r.imported.complete).toBe(false);
    expect(r.imported.warnings).toContain(
      "the dump failed on the device: framestats.txt line 6: Failure while dumping the app: ProcessRecord{43294230 1516:com.miui.home/1000}",
    );
    const manifest = JSON.parse(readFileSync(join(dir, "out", "failed", "manifest.json"), "utf8"));
    expect(manifest.complete).toBe(false);
  });
});

describe("jankbook import of a summary-only gfxinfo dump (it crashed on BigInt before)", () => {
  it("writes a bundle holding the summary and histogram tables, and no side file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "jankbook-gfx-"));
    const r = await importFile(join(FIX, "droid-monitor_api28_chrome_gfxinfo.txt"), dir, "api28");
    expect(r.kind).toBe("gfxinfo");
    expect(readdirSync(join(dir, "api28")).sort()).toEqual([
      "gfxinfo_histogram.arrows",
      "gfxinfo_summaries.arrows",
      "manifest.json",
    ]);
    const b = await readBundleFolder(join(dir, "api28"));
    expect(b.errors).toEqual([]);
    const s = rows(b.tables.get("gfxinfo_summaries")!)[0]!;
    expect([s.stats_since, s.total_frames, s.janky_frames, s.slow_issue_draw_commands]).toEqual([
      101382312046230n,
      43n,
      7n,
      1n,
    ]);
    expect(b.tables.get("gfxinfo_histogram")!.numRows).toBe(154);
  });
});

describe("gfxinfo summaries from real dumps (droid-monitor, Android 4.3 to 9)", () => {
  it.each([
    ["droid-monitor_api18_chrome_gfxinfo.txt", []],
    ["droid-monitor_api21_chrome_gfxinfo.txt", []],
    [
      "droid-monitor_api23_chrome_gfxinfo.txt",
      [
        [9702, null, 9656484850794n, 3n, 2n, null, 101, 101],
        [
          9702,
          "com.android.chrome/org.chromium.chrome.browser.firstrun.FirstRunActivityStaging/android.view.ViewRootImpl@6b40547",
          9656484850794n,
          3n,
          2n,
          null,
          101,
          101,
        ],
      ],
    ],
    ["droid-monitor_api24_settings_gfxinfo.txt", [[3015, null, 6839009800620n, 24n, 14n, 19, 65, 300]]],
    ["droid-monitor_api28_chrome_gfxinfo.txt", [[2720, null, 101382312046230n, 43n, 7n, 5, 69, 200]]],
  ] as const)("%s", (file, want) => {
    const text = read(file);
    expect(detectGfxinfo(text)).toBe(true);
    const r = importGfxinfo(text, file, "run");
    expect(r.complete).toBe(true);
    const got = r.tables.gfxinfo_summaries
      ? rows(r.tables.gfxinfo_summaries).map((s) => [
          s.pid,
          s.window,
          s.stats_since,
          s.total_frames,
          s.janky_frames,
          s.p50_ms,
          s.p90_ms,
          s.p99_ms,
        ])
      : [];
    expect(got).toEqual(want);
  });

  it("every HISTOGRAM holds the summary's frames (Android 7 and 9)", () => {
    for (const [file, total] of [
      ["droid-monitor_api24_settings_gfxinfo.txt", 24n],
      ["droid-monitor_api28_chrome_gfxinfo.txt", 43n],
    ] as const) {
      const h = importGfxinfo(read(file), file, "run").tables.gfxinfo_histogram!;
      expect(h.numRows).toBe(154);
      expect((col(h, "count") as bigint[]).reduce((a, b) => a + b, 0n)).toBe(total);
    }
  });

  it("reads a bare excerpt starting at 'Stats since:' as one process-wide summary", () => {
    const excerpt = A14.slice(A14.indexOf("Stats since:"), A14.indexOf("\n\nPipeline="));
    expect(detectFramestats(excerpt)).toBe(false);
    expect(detectGfxinfo(excerpt)).toBe(true);
    const r = importGfxinfo(excerpt, "excerpt.txt", "run");
    const s = rows(r.tables.gfxinfo_summaries!);
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({
      pid: null,
      package: null,
      window: null,
      total_frames: 5n,
      janky_frames_legacy: 3n,
    });
    expect(r.tables.gfxinfo_histogram!.numRows).toBe(13);
  });
});
