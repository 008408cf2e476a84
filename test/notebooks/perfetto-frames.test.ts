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
import { importFiles } from "../../cli/commands/import";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";

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
// frames are labelled from the trace's first FrameTimeline event (a trace's clock counts from boot)
const t0 = Math.min(...timeline.map((f) => n(f.ts)));
const label = (f: Row) =>
  `frame ${f.token}, ${f.layer_name}, ${((n(f.ts) - t0) / 1e6).toFixed(1)}-${((n(f.ts) + n(f.dur) - t0) / 1e6).toFixed(1)} ms`;
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
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ["the trace has FrameTimeline", true],
      ["every App Deadline Missed frame ended after its expected end", true],
      ["the chosen frame's UI-thread states neither overlap nor outlast it", true],
    ]);
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
    const got = new Map(
      (await value("frame_main_states")).map((x) => [`${x.frame}|${x.state}`, x.time_in_state_ms]),
    );
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

describe("perfetto-frames: one chosen janky frame", () => {
  const expectedEnd = (f: Row) => {
    const e = timeline.find(
      (x) =>
        x.scope === "surface" &&
        x.timeline === "expected" &&
        x.token === f.token &&
        x.pid === f.pid &&
        x.layer_name === f.layer_name &&
        x.dur != null,
    );
    return e ? n(e.ts) + n(e.dur) : null;
  };
  const late = (f: Row) => {
    const e = expectedEnd(f);
    return e === null ? n(f.dur) / 1e6 : (n(f.ts) + n(f.dur) - e) / 1e6;
  };
  // both threads' slices overlapping the frame, as the brute force reads the bundle
  const threadSlices = (f: Row) => {
    const [a, b] = [n(f.ts), n(f.ts) + n(f.dur)];
    return rowsOf(bundle.tables.get("slices"))
      .filter((x) => x.pid === f.pid && (x.tid === f.pid || x.thread_name === "RenderThread"))
      .filter((x) => n(x.ts) < b && (x.dur == null ? b : n(x.ts) + n(x.dur)) > a)
      .map((x) => `${x.tid === f.pid ? "UI thread" : "RenderThread"}|${x.name}|${(n(x.ts) - a) / 1e6}`)
      .sort();
  };

  it("opens the frame that ended furthest past its expected end; choosing another re-reads its threads", async () => {
    const worst = janky.reduce((w, f) => (late(f) > late(w) ? f : w), janky[0]!);
    expect(await r.runtime.value("chosenFrame")).toBe(label(worst));
    const got = async () =>
      (await value("chosen_slices")).map((x) => `${x.thread}|${x.name}|${x.from_ms}`).sort();
    expect(await got()).toEqual(threadSlices(worst));
    const other = janky.find((f) => f !== worst && threadSlices(f).length > 0)!;
    r.runtime.setInput("chosenFrame", label(other));
    await r.runtime.settled();
    expect(await got()).toEqual(threadSlices(other));
    // its UI-thread states: the brute-force overlap per state, summed
    const [a, b] = [n(other.ts), n(other.ts) + n(other.dur)];
    const want = new Map<string, number>();
    for (const s of rowsOf(bundle.tables.get("thread_states")).filter((x) => x.tid === other.pid)) {
      const [c, d] = [n(s.ts), s.dur == null ? b : n(s.ts) + n(s.dur)];
      if (c < b && d > a)
        want.set(String(s.state), (want.get(String(s.state)) ?? 0) + (Math.min(b, d) - Math.max(a, c)) / 1e6);
    }
    const states = new Map<string, number>();
    for (const x of (await value("chosen_states")).filter((x) => x.thread === "UI thread"))
      states.set(String(x.state), (states.get(String(x.state)) ?? 0) + n(x.ms));
    expect(states).toEqual(want);
    r.runtime.setInput("chosenFrame", label(worst));
    await r.runtime.settled();
  });
});

describe("perfetto-frames on two traces", () => {
  it("never sums them: jank by type and tag per run, each run's counts its own, frames labelled with their run", async () => {
    const second = (
      await importFiles(
        [join(ROOT, "test/fixtures/perfetto/difftest_frame_timeline_events.pftrace")],
        mkdtempSync(join(tmpdir(), "jb-two-traces-")),
      )
    )[0]!.dir;
    const two = await runNotebookFile(NOTEBOOK, { runs: [RUN, second] });
    try {
      expect(two.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
      const got = rowsOf((await two.runtime.value("jank_by_type")) as Table);
      const runs = [...new Set(got.map((x) => x.run_id))].sort();
      expect(runs.length).toBe(2);
      // per run, the same brute-force count as for that run alone
      for (const dir of [RUN, second]) {
        const b = await readBundleFolder(dir);
        const want = new Map<string, number>();
        for (const f of rowsOf(b.tables.get("frame_timeline")).filter(
          (x) => x.timeline === "actual" && x.jank_type != null && x.jank_type !== "None",
        ))
          for (const t of String(f.jank_type).split(", ")) {
            const k = `${f.scope === "display" ? "(SurfaceFlinger display frame)" : f.layer_name}|${t}`;
            want.set(k, (want.get(k) ?? 0) + 1);
          }
        const mine = got.filter((x) => x.run_id === b.manifest.run_id);
        expect(new Map(mine.map((x) => [`${x.layer}|${x.jank_type}`, x.frames]))).toEqual(want);
      }
      const frames = rowsOf((await two.runtime.value("app_frames_janky")) as Table).map((x) =>
        String(x.frame),
      );
      expect(frames.length).toBeGreaterThan(0);
      for (const f of frames) expect(runs.some((id) => f.startsWith(`${String(id)}: frame `))).toBe(true);
    } finally {
      await two.close();
    }
  });
});
