// The importer: detection by content against every other fixture kind, the bundle `jankbook import` writes, and
// what it says about a trace without FrameTimeline or with a cut.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../../bundle/node-io";
import { importFile } from "../../../cli/commands/import";
import { detectPerfetto, importPerfetto } from "../../../collectors/import/perfetto";

const out = mkdtempSync(join(tmpdir(), "perfetto-import-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const read = (p: string) => new Uint8Array(readFileSync(p));

describe("detectPerfetto", () => {
  it("accepts every Perfetto fixture, also cut after its first bytes", () => {
    for (const f of readdirSync("test/fixtures/perfetto")) {
      const b = read(`test/fixtures/perfetto/${f}`);
      expect(detectPerfetto(b), f).toBe(true);
      expect(detectPerfetto(b.subarray(0, Math.min(b.length, 12))), `${f} cut`).toBe(true);
    }
  });

  it("refuses every other fixture (method traces, systrace, framestats, logcat, gfxinfo, simpleperf) and text starting with a newline", () => {
    for (const dir of ["dmtrace", "systrace", "gfxinfo", "logcat", "simpleperf", "agent"])
      for (const f of readdirSync(`test/fixtures/${dir}`, { recursive: true, encoding: "utf8" }).filter((f) =>
        statSync(`test/fixtures/${dir}/${f}`).isFile(),
      ))
        expect(detectPerfetto(read(`test/fixtures/${dir}/${f}`)), `${dir}/${f}`).toBe(false);
    expect(detectPerfetto(new TextEncoder().encode("\n\nTASK-PID  CPU#  TIMESTAMP  FUNCTION\n"))).toBe(false);
    expect(detectPerfetto(new Uint8Array())).toBe(false);
  });
});

describe("importPerfetto", () => {
  it("a trace without FrameTimeline imports its slices and says what FrameTimeline needs", () => {
    const r = importPerfetto(
      read("test/fixtures/perfetto/difftest_track_event_with_atrace.pftrace"),
      "t.pftrace",
      "r",
    );
    expect(r.tables.slices!.numRows).toBe(3);
    expect(r.tables.frames).toBeUndefined();
    expect(r.context.app).toBe("unknown");
    expect(r.warnings).toContain(
      "t.pftrace: no FrameTimeline in this trace, so no frames: FrameTimeline needs Android 12+ and the android.surfaceflinger.frametimeline data source; imported: slices (3), processes (1), threads (1)",
    );
  });

  it("a cut trace is incomplete, keeps what came before and names the byte", () => {
    const b = read("test/fixtures/perfetto/difftest_android_jank_cuj.pftrace");
    const r = importPerfetto(b.subarray(0, 6000), "cut.pftrace", "r");
    expect(r.complete).toBe(false);
    expect(r.warnings[0]).toMatch(
      /^cut\.pftrace: byte \d+: trace truncated: the packet starting here claims \d+ bytes, but the file ends \d+ bytes later; every whole packet before it was kept$/,
    );
    expect(r.tables.slices!.numRows).toBeGreaterThan(0);
  });
});

describe("jankbook import <perfetto trace>", () => {
  it("an unnamed file is detected by content; the bundle reads back with frames, the app and the clock", async () => {
    const file = join(out, "no-extension");
    writeFileSync(file, read("test/fixtures/perfetto/difftest_android_jank_cuj.pftrace"));
    const r = await importFile(file, out, "cuj");
    expect(r.kind).toBe("perfetto");
    const b = await readBundleFolder(r.dir);
    expect(b.errors).toEqual([]);
    expect(b.manifest.context.app).toBe("com.android.systemui");
    expect(b.manifest.clock).toEqual({
      domain: "CLOCK_BOOTTIME",
      offset_ns: 0,
      note: "Perfetto trace without a BOOTTIME/MONOTONIC ClockSnapshot",
    });
    const frames = b.tables.get("frames")!;
    expect(frames.numRows).toBeGreaterThan(0);
    expect([...frames.getChild("source")!].every((s) => s === "perfetto")).toBe(true);
    expect(b.manifest.sources[0]!.tables).toEqual([
      "slices",
      "thread_states",
      "counter_samples",
      "processes",
      "threads",
      "frame_timeline",
      "packages",
      "frames",
    ]);
  });

  it("the manifest records the MONOTONIC offset applied", async () => {
    const r = await importFile("test/fixtures/perfetto/difftest_monotonic_trace_clock.pftrace", out, "mono");
    const b = await readBundleFolder(r.dir);
    expect(b.manifest.clock.domain).toBe("CLOCK_MONOTONIC");
    expect(b.manifest.clock.offset_ns).toBe(-10000);
    expect(b.manifest.clock.note).toMatch(/from 1 ClockSnapshots/);
  });
});
