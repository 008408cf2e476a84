// The 10M-row frames run the workspace benchmarks share (the streaming load and the attached run,
// docs/budgets.md): generated once per bench process, as a plain bundle and as a packed copy, and removed
// when the process exits.
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  linkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordBatchStreamWriter, type Table } from "apache-arrow";
import { ownBatches } from "../bundle/encode-stream";
import { newManifest } from "../bundle/manifest";
import { packBundle } from "../workspace/db/node/pack-bundle";
import { makeBundleTable } from "../bundle/table-builder";

// The budgets are for 10M rows: at this width a 2.5 GB stream. JB_BENCH_FRAMES=... for less.
export const FRAMES = Number(process.env.JB_BENCH_FRAMES ?? 10_000_000);
export const FRAMES_LABEL = `${FRAMES / 1e6}M-row`;

export interface FramesData {
  /** mount this at /bench-data/ */
  root: string;
  /** the bundle as collected: frames.arrows only (streamed) */
  streamed: string;
  /** the same frames.arrows (a hard link: a symlink out of the bundle is refused) plus run.duckdb (attached) */
  packed: string;
  /** how long `packBundle` took, ms */
  packMs: number;
}

let made: Promise<FramesData> | undefined;

/** First-chart times of the streaming load (frames-load-browser.bench.ts), for the attached run's speed-up. */
export const streamingFirstCharts: number[] = [];

/** The frames run, written on first use. */
export function framesData(): Promise<FramesData> {
  made ??= (async () => {
    const root = mkdtempSync(join(tmpdir(), "jb-bench-frames-"));
    process.on("exit", () => rmSync(root, { recursive: true, force: true }));
    await writeFrames(join(root, "frames-big"));
    mkdirSync(join(root, "frames-big-packed"));
    linkSync(join(root, "frames-big", "frames.arrows"), join(root, "frames-big-packed", "frames.arrows"));
    const manifest = join(root, "frames-big", "manifest.json");
    writeFileSync(join(root, "frames-big-packed", "manifest.json"), readFileSync(manifest));
    const t0 = performance.now();
    await packBundle(join(root, "frames-big-packed"));
    const packMs = performance.now() - t0;
    process.stderr.write(
      `  packed ${FRAMES_LABEL} frames into run.duckdb in ${(packMs / 1000).toFixed(1)} s\n`,
    );
    return { root, streamed: "frames-big", packed: "frames-big-packed", packMs };
  })();
  return made;
}

/** Writes the frames table as one IPC stream of 65,536-row batches, yielding so the file stream drains. */
export async function writeFrames(dir: string, n = FRAMES, runId = "bench-10m-frames") {
  mkdirSync(dir, { recursive: true });
  const table = framesTable(runId, n);
  const out = createWriteStream(join(dir, "frames.arrows"));
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  const writer = new RecordBatchStreamWriter();
  writer.pipe(out as never);
  let i = 0;
  for (const batch of ownBatches(table)) {
    writer.write(batch);
    if (++i % 8 === 0) await new Promise((r) => setImmediate(r));
  }
  writer.finish();
  await done;
  const manifest = {
    ...newManifest(runId, { app: "bench.frames", refresh_hz: 60 }, { synthetic: true }),
    tables: { frames: { file: "frames.arrows", rows: n } },
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

/** `n` frames at 60 Hz, every framestats column filled, window, suspect and source all null. */
export function framesTable(runId: string, n: number): Table {
  const names = [
    "flags",
    "frame_timeline_vsync_id",
    "intended_vsync",
    "vsync",
    "input_event_id",
    "handle_input_start",
    "animation_start",
    "perform_traversals_start",
    "draw_start",
    "frame_deadline",
    "frame_start_time",
    "frame_interval",
    "sync_queued",
    "sync_start",
    "issue_draw_commands_start",
    "swap_buffers",
    "frame_completed",
    "dequeue_buffer_duration",
    "queue_buffer_duration",
    "gpu_completed",
    "swap_buffers_completed",
    "display_present_time",
    "duration",
    "deadline",
  ] as const;
  const c = Object.fromEntries(names.map((name) => [name, new BigInt64Array(n)])) as Record<
    (typeof names)[number],
    BigInt64Array
  >;
  const jank = new Uint8Array(n);
  const period = 16_666_667;
  for (let f = 0; f < n; f++) {
    const t = f * period;
    // 4-13 ms of work, a 30 ms spike every 97th frame: about 1 % janky frames
    const work = 4_000_000 + ((f * 7919) % 9_000_000) + (f % 97 === 0 ? 30_000_000 : 0);
    const at = (offset: number) => BigInt(Math.round(t + offset));
    c.flags[f] = 0n;
    c.frame_timeline_vsync_id[f] = BigInt(f);
    c.intended_vsync[f] = c.vsync[f] = c.frame_start_time[f] = at(0);
    c.input_event_id[f] = 0n;
    c.handle_input_start[f] = at(100_000);
    c.animation_start[f] = at(200_000);
    c.perform_traversals_start[f] = at(400_000);
    c.draw_start[f] = at(work / 2);
    c.frame_deadline[f] = at(period);
    c.frame_interval[f] = BigInt(period);
    c.sync_queued[f] = at(work / 2 + 50_000);
    c.sync_start[f] = at(work / 2 + 70_000);
    c.issue_draw_commands_start[f] = at(work / 2 + 170_000);
    c.swap_buffers[f] = at(work - 200_000);
    c.frame_completed[f] = at(work);
    c.dequeue_buffer_duration[f] = 30_000n;
    c.queue_buffer_duration[f] = 40_000n;
    c.gpu_completed[f] = at(work + 500_000);
    c.swap_buffers_completed[f] = at(work + 600_000);
    c.display_present_time[f] = at(2 * period);
    c.duration[f] = BigInt(work);
    c.deadline[f] = BigInt(period);
    jank[f] = work > period ? 1 : 0;
  }
  return makeBundleTable("frames", runId, { ...c, jank }, n, { adopt: true });
}
