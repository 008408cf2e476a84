// notebooks/examples/gfxinfo-lab.md headless over a lab of gfxinfo summary dumps (no framestats): each dump goes
// through the real importer into a run bundle, and the notebook's metrics and DUNE label are checked against
// values worked out by hand from the dumps.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../bundle/manifest";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { LAB, labTotal as total, writeGfxinfoLab } from "../../samples/gfxinfo-lab";

const NOTEBOOK = join(import.meta.dirname, "../../notebooks/examples/gfxinfo-lab.md");
const COMMITTED = join(import.meta.dirname, "../../notebooks/examples/gfxinfo-lab");

let r: HeadlessResult;
let dir: string;
let written: Manifest[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "jankbook-gfxlab-"));
  written = await writeGfxinfoLab(dir);
  r = await runNotebookFile(NOTEBOOK, { runs: [dir] });
}, 120_000);
afterAll(() => r?.close());

describe("notebooks/examples/gfxinfo-lab.md headless", () => {
  it("runs every cell on a lab of summary-only runs", () => {
    expect(written.map((m) => [m.run_id, m.complete])).toEqual(LAB.map((x) => [x.id, true]));
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    expect(r.provenance.runs).toHaveLength(LAB.length);
  });

  it("one row per run from the app's process summary, mean frame time from the HISTOGRAM", async () => {
    const t = (await r.runtime.value("lab_metrics")) as {
      toArray(): { toJSON(): Record<string, unknown> }[];
    };
    const got = t.toArray().map((x) => x.toJSON());
    // by hand: smooth = 1 - janky/total; mean = (5a + 10b + 20c + 40d) / total; e.g. lab-p1 (300+300+160+80)/100
    const mean: Record<string, number> = {
      "lab-g1": 12.5,
      "lab-g2": 12.25,
      "lab-p1": 8.4,
      "lab-p2": 8.5,
      "lab-p3": 8.25,
      "lab-p4": 8.3,
      "lab-p5": 8.45,
      "lab-p6": 8.2,
      "lab-t": 13.5,
    };
    expect(got.map((x) => x.run_id)).toEqual(LAB.map((x) => x.id));
    for (const [i, run] of LAB.entries()) {
      const row = got[i]!;
      expect(row.device_model).toBe(run.device);
      expect(row.frames).toBe(total(run));
      expect(row.smooth_ratio as number).toBeCloseTo(1 - run.janky / total(run), 12);
      expect(row.mean_ms as number).toBeCloseTo(mean[run.id]!, 12);
      expect([row.p90_ms, row.p99_ms]).toEqual([run.p90, run.p99]);
    }
  });

  it("labels the regressed run Outlier- against the six most similar runs (DUNE §5.3)", async () => {
    expect(await r.runtime.value("targetRun")).toBe("lab-t");
    const labels = (await r.runtime.value("labLabels")) as {
      coarse: {
        label: string;
        metrics: { metric: string; lowerFence: number; upperFence: number; label: string }[];
      };
      members: number[];
    };
    // history = every run but lab-t in run_id order: the Pixels are indices 2..7
    expect(labels.members).toEqual([2, 3, 4, 5, 6, 7]);
    expect(labels.coarse.label).toBe("Outlier-");
    // smooth ratios 0.95 0.94 0.96 0.95 0.95 0.96 and 0.75: sorted, hf6 Q1 = 2nd = 0.94, Q3 = 6th = 0.96, IQR 0.02
    const smooth = labels.coarse.metrics.find((m) => m.metric === "smoothRatio")!;
    expect(smooth.lowerFence).toBeCloseTo(0.94 - 1.5 * 0.02, 12);
    expect(smooth.upperFence).toBeCloseTo(0.96 + 1.5 * 0.02, 12);
    expect(smooth.label).toBe("Outlier-");
  });

  it("a history run is labelled N against the others", async () => {
    r.runtime.setInput("targetRun", "lab-p2");
    await r.runtime.settled(60_000);
    const labels = (await r.runtime.value("labLabels")) as { coarse: { label: string } };
    expect(labels.coarse.label).toBe("N");
  });

  it("the bundles committed beside the notebook (its default runs) are what samples/gfxinfo-lab.ts writes", () => {
    const files = (d: string) =>
      readdirSync(d, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(d.length + 1))
        .sort();
    expect(files(COMMITTED)).toEqual(files(dir));
    for (const f of files(dir))
      expect(
        readFileSync(join(COMMITTED, f)).equals(readFileSync(join(dir, f))),
        `${f}: regenerate with npm run sample-gfxinfo-lab`,
      ).toBe(true);
  });
});
