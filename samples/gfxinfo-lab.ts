// The sample lab of notebooks/examples/gfxinfo-lab.md: nine runs kept as `dumpsys gfxinfo` summaries only (no
// framestats), each dump in the shape hwui prints (frameworks/base/libs/hwui/ProfileData.cpp dump, a subset of its
// lines) and put through the real importer into a run bundle. test/notebooks/gfxinfo-lab.test.ts checks the
// notebook on the same lab.
//
//   npm run sample-gfxinfo-lab   (rewrites notebooks/examples/gfxinfo-lab/<run_id>/ only)
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { newManifest, type Manifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { importGfxinfo } from "../collectors/import/gfxinfo";

export const LAB_APP = "com.example.feed";

export interface LabRun {
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
export const LAB: readonly LabRun[] = [
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

/** Frames a run rendered: the sum of its histogram. */
export const labTotal = (r: LabRun): number => r.hist.reduce((a, b) => a + b, 0);

function summary(r: { total: number; janky: number; hist: readonly number[]; p90: number; p99: number }) {
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
export function labDump(r: LabRun): string {
  const own = { total: labTotal(r), janky: r.janky, hist: r.hist, p90: r.p90, p99: r.p99 };
  const lines = [
    "Applications Graphics Acceleration Info:",
    "Uptime: 1 Realtime: 1",
    "",
    `** Graphics info for pid 4242 [${LAB_APP}] **`,
    "",
    ...summary(own),
    "Profile data in ms:",
    "",
    `\t${LAB_APP}/${LAB_APP}.Main/android.view.ViewRootImpl@1 (visibility=0)`,
    ...(r.id === "lab-p1"
      ? [
          `Window: ${LAB_APP}/${LAB_APP}.Main`,
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

/**
 * Imports one run's dump as `jankbook import` does and writes its bundle to `<dir>/<run_id>/`, with the context
 * a lab records beside the dump (device, OS, scenario, app version: DUNE §5.3.1's attributes).
 */
export async function writeLabRun(dir: string, run: LabRun): Promise<Manifest> {
  const imp = importGfxinfo(labDump(run), `${run.id}.txt`, run.id);
  const context = {
    ...imp.context,
    device_model: run.device,
    sdk_release: "13",
    api_level: 33,
    scenario: "scroll-feed",
    app_version: run.id === "lab-t" ? "2.1" : "2.0",
  };
  // made-up dumps, not a device's: provenance says so
  const manifest = newManifest(run.id, context, {
    synthetic: true,
    warnings: imp.warnings,
    complete: imp.complete,
    sources: [imp.source],
  });
  return writeBundleFolder(join(dir, run.id), manifest, imp.tables);
}

/** Every run of the lab into `dir`, in LAB order. */
export async function writeGfxinfoLab(dir: string): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const run of LAB) out.push(await writeLabRun(dir, run));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = new URL("../notebooks/examples/gfxinfo-lab/", import.meta.url).pathname;
  const written = await writeGfxinfoLab(out);
  // a run dropped from LAB leaves no stale bundle behind for the notebook's `gfxinfo-lab/*`
  for (const entry of await readdir(out, { withFileTypes: true }))
    if (!LAB.some((r) => r.id === entry.name))
      await rm(join(out, entry.name), { recursive: true, force: true });
  const partial = written.filter((m) => !m.complete).map((m) => m.run_id);
  if (partial.length) throw new Error(`gfxinfo lab: import incomplete for ${partial.join(", ")}`);
  process.stdout.write(`wrote ${written.length} gfxinfo lab runs to ${out}\n`);
}
