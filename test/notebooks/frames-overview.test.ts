// notebooks/examples/frames-overview.md on a run long enough to be drawn at the chart's resolution (60,000 frames)
// beside a short one (500): the short run's frames are all drawn, the long run's are the fastest and slowest frame
// of each of 4,000 time slices, and the shares and DUNE metrics count every frame. Each value against a
// brute-force reading of the frames written, in plain JavaScript.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newManifest } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import { makeBundleTable } from "../../bundle/table-builder";
import { frameMetrics } from "../../cells/dune/frame-metrics";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";

const NOTEBOOK = join(import.meta.dirname, "../../notebooks/examples/frames-overview.md");
const PERIOD = 16_666_667;
const T0 = 476_593_000_000_000; // a clock since boot, as a phone's

interface Frame {
  vsync: number;
  ns: number;
}

/** Frame times from a seeded generator: 4-13 ms, with a 40-90 ms spike now and then. */
function frames(n: number, seed: number): Frame[] {
  let s = seed;
  const next = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const spike = next() < 0.01;
    return { vsync: T0 + i * PERIOD, ns: Math.round((spike ? 40 + 50 * next() : 4 + 9 * next()) * 1e6) };
  });
}

async function writeRun(dir: string, id: string, list: Frame[]) {
  const vsync = list.map((f) => BigInt(f.vsync));
  const duration = list.map((f) => BigInt(f.ns));
  await writeBundleFolder(join(dir, id), newManifest(id, { app: "org.example", refresh_hz: 60 }), {
    frames: makeBundleTable("frames", id, {
      intended_vsync: vsync,
      draw_start: vsync.map((v) => v + 1_000_000n),
      frame_completed: vsync.map((v, i) => v + duration[i]!),
      duration,
      deadline: list.map(() => BigInt(PERIOD)),
      jank: list.map((f) => f.ns > PERIOD),
    }),
  });
}

/** Brute force: the frames the notebook draws of a run, by the rule its prose states. */
function drawn(list: Frame[]): number[] {
  if (list.length <= 20_000) return list.map((f) => f.vsync);
  const first = list[0]!.vsync;
  const span = Math.max(list.at(-1)!.vsync - first, 1);
  const slices = new Map<number, Frame[]>();
  for (const f of list) {
    // the last frame goes in the last slice, not a 4,001st
    const k = Math.min(Math.floor(((f.vsync - first) * 4000) / span), 3999);
    slices.set(k, [...(slices.get(k) ?? []), f]);
  }
  const kept = new Set<number>();
  for (const s of slices.values()) {
    // slowest and fastest, the earlier frame on a tie
    kept.add(s.reduce((a, f) => (f.ns > a.ns ? f : a)).vsync);
    kept.add(s.reduce((a, f) => (f.ns < a.ns ? f : a)).vsync);
  }
  return [...kept].sort((a, b) => a - b);
}

describe("frames-overview on a long run beside a short one", () => {
  const long = frames(60_000, 7);
  const short = frames(500, 11);
  let r: HeadlessResult;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "jb-frames-overview-"));
    await writeRun(dir, "long-run", long);
    await writeRun(dir, "short-run", short);
    r = await runNotebookFile(NOTEBOOK, { runs: [join(dir, "long-run"), join(dir, "short-run")] });
  }, 180_000);
  afterAll(() => r?.close());

  it("runs every cell", () => {
    expect(r.failedCells.map((c) => c.error)).toEqual([]);
  });

  it("draws every frame of the short run and each slice's fastest and slowest frame of the long one", async () => {
    const t = (await r.runtime.value("frame_times")) as Table;
    const rows = t.toArray() as { run_id: string; intended_vsync: bigint; ms: number }[];
    const of = (run: string) => rows.filter((x) => x.run_id === run).map((x) => Number(x.intended_vsync));
    expect(of("short-run")).toEqual(drawn(short));
    const kept = drawn(long);
    expect(kept.length).toBeLessThanOrEqual(8000);
    expect(of("long-run")).toEqual(kept);
    // the run's worst frame is among them
    const worst = long.reduce((a, f) => (f.ns > a.ns ? f : a));
    expect(of("long-run")).toContain(worst.vsync);
  });

  it("counts every frame in the slow share, per run and over both", async () => {
    const slow = (list: Frame[]) => list.filter((f) => f.ns / 1e6 > 16.7).length;
    expect(await r.runtime.value("slowShare")).toBeCloseTo((slow(long) + slow(short)) / 60_500, 12);
    const counts = ((await r.runtime.value("frame_counts")) as Table).toArray().map((x) => ({ ...x }));
    expect(counts).toEqual([
      { run_id: "long-run", frames: 60_000, slow: slow(long) },
      { run_id: "short-run", frames: 500, slow: slow(short) },
    ]);
  });

  it("gives DUNE's metrics of the frames' own columns as of every column", async () => {
    const all = await r.engine.query("SELECT * FROM frames");
    const runs = await r.engine.query("SELECT * FROM runs");
    const expected = frameMetrics(all, { runs }).map((m) => [m.runId, m.total]);
    const got = ((await r.runtime.value("metrics")) as ReturnType<typeof frameMetrics>).map((m) => [
      m.runId,
      m.total,
    ]);
    expect(got).toEqual(expected);
  });
});
