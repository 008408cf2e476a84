// notebooks/examples/frames-overview.md on two imported Perfetto traces at once (Perfetto's jank-CUJ test trace
// and its FrameTimeline events test trace): every count is that run's own, as a brute-force reading of each
// bundle's frames gives it, never the two summed; the seconds count from each run's first frame.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Table } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundleFolder } from "../../bundle/node-io";
import { importFiles } from "../../cli/commands/import";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";

const ROOT = join(import.meta.dirname, "../..");
const NOTEBOOK = join(ROOT, "notebooks/examples/frames-overview.md");
const TRACES = ["difftest_android_jank_cuj.pftrace", "difftest_frame_timeline_events.pftrace"];

type Row = Record<string, unknown>;
const rows = (t: Table | undefined): Row[] =>
  t ? t.toArray().map((r: { toJSON(): Row }) => r.toJSON()) : [];
let r: HeadlessResult;
const own = new Map<string, Row[]>(); // run_id -> its frames (suspect ones left out, as the notebook does)

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "jb-overview-traces-"));
  const dirs: string[] = [];
  for (const f of TRACES) {
    const [run] = await importFiles([join(ROOT, "test/fixtures/perfetto", f)], out);
    dirs.push(run!.dir);
    const b = await readBundleFolder(run!.dir);
    own.set(
      b.manifest.run_id,
      rows(b.tables.get("frames")).filter((x) => x.suspect == null),
    );
  }
  r = await runNotebookFile(NOTEBOOK, { runs: dirs, set: { budgetMs: 16.7 } });
}, 120_000);
afterAll(() => r?.close());

describe("frames-overview on two Perfetto traces", () => {
  it("has frames in both runs (else the test proves nothing)", () => {
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    expect([...own.values()].every((f) => f.length > 0)).toBe(true);
  });

  it("frame and slow counts per run, each its own", async () => {
    const got = rows((await r.runtime.value("frame_counts")) as Table);
    const want = [...own]
      .map(([run_id, f]) => ({
        run_id,
        frames: f.length,
        slow: f.filter((x) => Number(x.duration) / 1e6 > 16.7).length,
      }))
      .sort((a, b) => (a.run_id < b.run_id ? -1 : 1));
    expect(got).toEqual(want);
  });

  it("janky frames per second from each run's own first frame, per run", async () => {
    const got = rows((await r.runtime.value("jank_by_second")) as Table).map(
      (x) => `${x.run_id}|${x.t_s}|${x.frames}|${x.janky_frames}`,
    );
    const want: string[] = [];
    for (const [run, f] of own) {
      const v0 = Math.min(...f.map((x) => Number(x.intended_vsync)));
      const bySecond = new Map<number, { frames: number; janky: number }>();
      for (const x of f) {
        const s = Math.floor((Number(x.intended_vsync) - v0) / 1e9);
        const e = bySecond.get(s) ?? { frames: 0, janky: 0 };
        bySecond.set(s, { frames: e.frames + 1, janky: e.janky + (x.jank ? 1 : 0) });
      }
      for (const [s, e] of bySecond) want.push(`${run}|${s}|${e.frames}|${e.janky}`);
    }
    expect(got.sort()).toEqual(want.sort());
  });

  it("DUNE's metrics, one line per run", async () => {
    const metrics = (await r.runtime.value("metrics")) as { runId: string; total: { frames: number } }[];
    expect(new Map(metrics.map((m) => [m.runId, m.total.frames]))).toEqual(
      new Map([...own].map(([id, f]) => [id, f.length])),
    );
  });
});
