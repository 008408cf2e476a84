// notebooks/examples/gfxinfo-lab.md headless over a lab of gfxinfo summary dumps (no framestats): each dump goes
// through the real importer into a run bundle, and the notebook's metrics and DUNE label are checked against
// values worked out by hand from the dumps.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newManifest } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import { importGfxinfo } from "../../collectors/import/gfxinfo";
import { runNotebookFile, type HeadlessResult } from "../../workspace/notebook/headless";

const NOTEBOOK = join(import.meta.dirname, "../../notebooks/examples/gfxinfo-lab.md");
const APP = "com.example.feed";

interface LabRun {
  id: string;
  device: string;
  janky: number;
  /** frames in the 5, 10, 20 and 40 ms buckets */
  hist: [number, number, number, number];
  p90: number;
  p99: number;
}

// Six Pixel 4a runs (the history the target is compared with), two Galaxy S21 runs (less similar) and the target:
// a Pixel 4a run that regressed. 100 frames each on the Pixels, 120 on the Galaxies.
const LAB: LabRun[] = [
  { id: "lab-g1", device: "Galaxy S21", janky: 30, hist: [40, 50, 20, 10], p90: 25, p99: 60 },
  { id: "lab-g2", device: "Galaxy S21", janky: 28, hist: [42, 50, 18, 10], p90: 24, p99: 58 },
  { id: "lab-p1", device: "Pixel 4a", janky: 5, hist: [60, 30, 8, 2], p90: 12, p99: 30 },
  { id: "lab-p2", device: "Pixel 4a", janky: 6, hist: [58, 32, 8, 2], p90: 13, p99: 32 },
  { id: "lab-p3", device: "Pixel 4a", janky: 4, hist: [61, 30, 7, 2], p90: 12, p99: 31 },
  { id: "lab-p4", device: "Pixel 4a", janky: 5, hist: [60, 31, 7, 2], p90: 12, p99: 30 },
  { id: "lab-p5", device: "Pixel 4a", janky: 5, hist: [59, 31, 8, 2], p90: 13, p99: 31 },
  { id: "lab-p6", device: "Pixel 4a", janky: 4, hist: [60, 30, 9, 1], p90: 12, p99: 30 },
  { id: "lab-t", device: "Pixel 4a", janky: 25, hist: [30, 40, 20, 10], p90: 26, p99: 70 },
];
const total = (r: LabRun) => r.hist.reduce((a, b) => a + b, 0);

function summary(r: { total: number; janky: number; hist: number[]; p90: number; p99: number }) {
  return [
    "Stats since: 5000000000ns",
    `Total frames rendered: ${r.total}`,
    `Janky frames: ${r.janky} (${((100 * r.janky) / r.total).toFixed(2)}%)`,
    "50th percentile: 6ms",
    `90th percentile: ${r.p90}ms`,
    "95th percentile: 20ms",
    `99th percentile: ${r.p99}ms`,
    `HISTOGRAM: ${[5, 10, 20, 40].map((ms, i) => `${ms}ms=${r.hist[i]}`).join(" ")}`,
  ];
}

/** A dumpsys gfxinfo of every process (lab-p1 also holds systemui and a window summary: both left out). */
function dump(r: LabRun): string {
  const own = { total: total(r), janky: r.janky, hist: r.hist, p90: r.p90, p99: r.p99 };
  const lines = [
    "Applications Graphics Acceleration Info:",
    "Uptime: 1 Realtime: 1",
    "",
    `** Graphics info for pid 4242 [${APP}] **`,
    "",
    ...summary(own),
    "Profile data in ms:",
    "",
    `\t${APP}/${APP}.Main/android.view.ViewRootImpl@1 (visibility=0)`,
    ...(r.id === "lab-p1"
      ? [
          `Window: ${APP}/${APP}.Main`,
          ...summary({ total: 3, janky: 3, hist: [0, 0, 0, 3], p90: 40, p99: 40 }),
        ]
      : []),
    "View hierarchy:",
    "",
    "Total ViewRootImpl: 1",
  ];
  if (r.id === "lab-p1")
    lines.push(
      "",
      "** Graphics info for pid 999 [com.android.systemui] **",
      "",
      ...summary({ total: 1000, janky: 900, hist: [0, 0, 0, 1000], p90: 99, p99: 99 }),
      "View hierarchy:",
      "",
      "Total ViewRootImpl: 3",
    );
  return lines.join("\n") + "\n";
}

let r: HeadlessResult;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "jankbook-gfxlab-"));
  for (const run of LAB) {
    const imp = importGfxinfo(dump(run), `${run.id}.txt`, run.id);
    expect(imp.complete).toBe(true);
    const context = {
      ...imp.context,
      device_model: run.device,
      sdk_release: "13",
      api_level: 33,
      scenario: "scroll-feed",
      app_version: run.id === "lab-t" ? "2.1" : "2.0",
    };
    await writeBundleFolder(
      join(dir, run.id),
      newManifest(run.id, context, { warnings: imp.warnings }),
      imp.tables,
    );
  }
  r = await runNotebookFile(NOTEBOOK, { runs: [dir] });
}, 120_000);
afterAll(() => r?.close());

describe("notebooks/examples/gfxinfo-lab.md headless", () => {
  it("runs every cell on a lab of summary-only runs", () => {
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
});
