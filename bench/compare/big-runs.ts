// Big runs for the compare speed bench: `n` frames at 60 Hz with a UI event every second (so the block
// bootstrap has its buckets), durations drawn from a seeded generator, `slow` times longer on side B.
import { join } from "node:path";
import { newManifest } from "../../bundle/manifest";
import { writeBundleFolder } from "../../bundle/node-io";
import { makeBundleTable } from "../../bundle/table-builder";
import { seededRng } from "../../cells/compare/stats/rng";

export async function writeFramesRun(
  root: string,
  runId: string,
  n: number,
  seed: number,
  slow: number,
): Promise<string> {
  const rng = seededRng(seed);
  const period = 16_666_667;
  const base = 3_600_000_000_000;
  const intended = new BigInt64Array(n);
  const completed = new BigInt64Array(n);
  const duration = new BigInt64Array(n);
  const deadline = new BigInt64Array(n).fill(BigInt(period));
  const jank = new Uint8Array(n);
  for (let f = 0; f < n; f++) {
    const work = Math.round(slow * (4e6 + 9e6 * rng() + (rng() < 0.01 ? 30e6 : 0)));
    intended[f] = BigInt(base + f * period);
    completed[f] = intended[f]! + BigInt(work);
    duration[f] = BigInt(work);
    jank[f] = work > period ? 1 : 0;
  }
  const frames = makeBundleTable(
    "frames",
    runId,
    { intended_vsync: intended, frame_completed: completed, duration, deadline, jank },
    n,
    { adopt: true },
  );
  const events = Math.floor(n / 60);
  const kinds = ["click", "scroll", "swipe"];
  const targets = ["feed", "menu", "photo", "list"];
  const ui = makeBundleTable(
    "ui_events",
    runId,
    {
      ts: BigInt64Array.from({ length: events }, (_, i) => BigInt(base + i * 60 * period + 8_000_000)),
      seq: Int32Array.from({ length: events }, (_, i) => i),
      kind: Array.from({ length: events }, (_, i) => kinds[i % 3]!),
      target: Array.from({ length: events }, (_, i) => targets[(i * 7) % 4]!),
    },
    events,
  );
  const dir = join(root, runId);
  await writeBundleFolder(dir, newManifest(runId, { app: "com.example.big" }, { synthetic: true }), {
    frames,
    ui_events: ui,
  });
  return dir;
}
