// notebooks/examples/perfetto-frames.md headless on its sample (Perfetto's jank-CUJ test trace imported into
// notebooks/examples/runs/perfetto-jank-cuj): the bundle is what importing the fixture gives today, and every
// value the notebook shows matches a brute-force reading of the bundle's rows in plain JavaScript.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { importPerfetto } from "../../collectors/import/perfetto";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";

const ROOT = join(import.meta.dirname, "../..");
const NOTEBOOK = join(ROOT, "notebooks/examples/perfetto-frames.md");
const RUN = join(ROOT, "notebooks/examples/runs/perfetto-jank-cuj");
const FIXTURE = join(ROOT, "test/fixtures/perfetto/difftest_android_jank_cuj.pftrace");

type Row = Record<string, unknown>;
const rowsOf = (t: Table | undefined): Row[] =>
  t ? t.toArray().map((r: { toJSON(): Row }) => r.toJSON()) : [];
const n = (v: unknown) => Number(v);

let r: HeadlessResult;
const value = async (name: string) => rowsOf((await r.runtime.value(name)) as Table);
const bundle = await readBundleFolder(RUN);
const timeline = rowsOf(bundle.tables.get("frame_timeline"));
const label = (f: Row) =>
  `frame ${f.token}, ${f.layer_name}, ${(n(f.ts) / 1e6).toFixed(1)}-${((n(f.ts) + n(f.dur)) / 1e6).toFixed(1)} ms`;
const janky = timeline.filter(
  (f) =>
    f.scope === "surface" &&
    f.timeline === "actual" &&
    f.dur != null &&
    f.jank_type != null &&
    f.jank_type !== "None",
);

beforeAll(async () => {
  r = await runNotebookFile(NOTEBOOK);
});
afterAll(() => r?.close());

describe("notebooks/examples/perfetto-frames.md headless", () => {
  it("runs every cell on its sample run; the FrameTimeline check passes", () => {
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([["the trace has FrameTimeline", true]]);
    expect(r.provenance.runs.map((x) => x.run_id)).toEqual(["perfetto-jank-cuj"]);
  });

  it("the sample bundle is what importing the fixture gives", () => {
    const fresh = importPerfetto(
      new Uint8Array(readFileSync(FIXTURE)),
      "difftest_android_jank_cuj.pftrace",
      "perfetto-jank-cuj",
    );
    const names = Object.keys(fresh.tables).sort();
    expect([...bundle.tables.keys()].filter((k) => k !== "runs").sort()).toEqual(names);
    for (const t of names)
      expect(rowsOf(bundle.tables.get(t as never)), t).toEqual(rowsOf(fresh.tables[t as never]));
  });

  it("jank by type and layer: each jank type a frame names counts once, display frames apart", async () => {
    const want = new Map<string, number>();
    for (const f of timeline.filter(
      (x) => x.timeline === "actual" && x.jank_type != null && x.jank_type !== "None",
    ))
      for (const t of String(f.jank_type).split(", ")) {
        const k = `${f.scope === "display" ? "(SurfaceFlinger display frame)" : f.layer_name}|${t}`;
        want.set(k, (want.get(k) ?? 0) + 1);
      }
    const got = new Map((await value("jank_by_type")).map((x) => [`${x.layer}|${x.jank_type}`, x.frames]));
    expect(got).toEqual(want);
    expect(got.get("TX - NotificationShade#0|App Deadline Missed")).toBe(9); // counted by hand in the dump above
  });

  it("the timeline: a track per layer's frames, late ones as jank, then the main thread's slices; the whole trace in view", async () => {
    const v = (await r.runtime.value("framesWindow")) as [number, number];
    const view = (await r.runtime.value("frameSlices")) as { track: string; color?: string; end: number }[];
    const frames = timeline.filter((f) => f.scope === "surface" && f.timeline === "actual" && f.dur != null);
    const mainSlices = rowsOf(bundle.tables.get("slices")).filter(
      (x) => x.tid === x.pid && frames.some((f) => f.pid === x.pid),
    );
    expect(view.length).toBe(frames.length + mainSlices.length);
    expect(view.filter((x) => x.color === "jank").length).toBe(janky.length);
    expect(new Set(view.map((x) => x.track)).size).toBe(
      new Set(frames.map((f) => f.layer_name)).size + new Set(mainSlices.map((x) => x.tid)).size,
    );
    const starts = [...frames.map((f) => n(f.ts)), ...mainSlices.map((x) => n(x.ts))];
    expect(v).toEqual([Math.min(...starts), Math.max(...view.map((x) => x.end))]);
  });

  it("main-thread states per janky frame: brute-force overlap, and frames 30 and 60 worked by hand", async () => {
    const states = rowsOf(bundle.tables.get("thread_states"));
    const want = new Map<string, number>();
    for (const f of janky) {
      const [a, b] = [n(f.ts), n(f.ts) + n(f.dur)];
      for (const s of states.filter((x) => x.tid === f.pid)) {
        const [c, d] = [n(s.ts), s.dur == null ? b : n(s.ts) + n(s.dur)];
        const o = Math.min(b, d) - Math.max(a, c);
        if (c < b && d > a)
          want.set(`${label(f)}|${s.state}`, (want.get(`${label(f)}|${s.state}`) ?? 0) + o / 1e6);
      }
    }
    const got = new Map((await value("frame_main_states")).map((x) => [`${x.frame}|${x.state}`, x.ms]));
    expect(got).toEqual(want);
    // tid 1000 runs 39-53 ms, is preempted 53-70, runs 70-71, preempted from 71 on.
    expect(got.get("frame 30, TX - NotificationShade#0, 30.0-55.0 ms|running")).toBe(14);
    expect(got.get("frame 30, TX - NotificationShade#0, 30.0-55.0 ms|runnable_preempted")).toBe(2);
    expect(got.get("frame 60, TX - NotificationShade#0, 70.0-80.0 ms|running")).toBe(1);
    expect(got.get("frame 60, TX - NotificationShade#0, 70.0-80.0 ms|runnable_preempted")).toBe(9);
  });

  it("main-thread slices per janky frame: every overlapping slice of the main thread, clipped to the frame", async () => {
    const slices = rowsOf(bundle.tables.get("slices"));
    const want: string[] = [];
    for (const f of janky) {
      const [a, b] = [n(f.ts), n(f.ts) + n(f.dur)];
      for (const s of slices.filter((x) => x.tid === f.pid && x.pid === f.pid)) {
        const [c, d] = [n(s.ts), s.dur == null ? b : n(s.ts) + n(s.dur)];
        if (c < b && (d > a || c >= a))
          want.push(`${label(f)}|${s.name}|${(Math.min(b, d) - Math.max(a, c)) / 1e6}`);
      }
    }
    const got = (await value("frame_main_slices")).map((x) => `${x.frame}|${x.name}|${x.overlap_ms}`);
    expect(got.sort()).toEqual(want.sort());
    expect(got).toContain("frame 60, TX - NotificationShade#0, 70.0-80.0 ms|Choreographer#doFrame 60|10");
    const text = ((await r.runtime.value("perFrame")) as string[]).join("\n");
    expect(text).toMatch(
      /frame 20, TX - NotificationShade#0, 8\.0-36\.0 ms\*\* \(\*SurfaceFlinger Scheduling, App Deadline Missed\*\): UI thread ran binder transaction ×10/,
    );
  });
});
