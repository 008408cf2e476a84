// Loading a big frames table in Chromium (issue 8: < 5 s, and no main-thread task over 200 ms meanwhile).
// The table has the columns an Android 12+ framestats dump prints (the widest common layout), so it is the
// size a real long device-lab run would be: 10M frames is ~46 hours at 60 Hz.
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordBatchStreamWriter } from "apache-arrow";
import type { Browser } from "playwright-core";
import { newManifest } from "../bundle/manifest";
import { makeBundleTable } from "../bundle/table-builder";
import { launchChromium } from "../test/support/chromium";
import { serveStatic, type StaticServer } from "../workspace/static-server";
import type { Benchmark } from "./harness";

// Issue 8 asks for 10M rows: at this width a 2.7 GB stream, which the workspace streams into DuckDB as it
// downloads (no browser buffer holds it whole). It takes ~20 s here, nearly all of it DuckDB-WASM's Arrow ingest
// (Node's build of the same engine needs 12.7 s with nothing of ours in the loop). JB_BENCH_FRAMES=... for less.
const FRAMES = Number(process.env.JB_BENCH_FRAMES ?? 10_000_000);
const label = `${FRAMES / 1e6}M-row`;
let browser: Browser;
let server: StaticServer;
/** the generated bundle (2.7 GB at 10M rows), removed after the runs */
let dataDir = "";
/** The longest main-thread task seen during each timed load, reported as its own result. */
const longestTasks: number[] = [];

/** Writes the frames table as one IPC stream of 65,536-row batches, yielding so the file stream drains. */
async function writeFrames(dir: string) {
  mkdirSync(dir, { recursive: true });
  const runId = "bench-10m-frames";
  const n = FRAMES;
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
  const table = makeBundleTable("frames", runId, { ...c, jank }, n, { adopt: true });
  const out = createWriteStream(join(dir, "frames.arrows"));
  const done = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  const writer = new RecordBatchStreamWriter();
  writer.pipe(out as never);
  for (let s = 0; s < n; s += 65_536) {
    for (const batch of table.slice(s, Math.min(n, s + 65_536)).batches) writer.write(batch);
    if ((s / 65_536) % 8 === 7) await new Promise((r) => setImmediate(r));
  }
  writer.finish();
  await done;
  const manifest = {
    ...newManifest(runId, { app: "bench.frames", refresh_hz: 60 }, { synthetic: true }),
    tables: { frames: { file: "frames.arrows", rows: n } },
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

export const benchmarks: Benchmark[] = [
  {
    name: `workspace/${label} frames table loaded (navigation to run in DuckDB), 10M budget`,
    unit: "ms",
    budget: 5000,
    runs: 3,
    async setup() {
      const data = (dataDir = mkdtempSync(join(tmpdir(), "jb-bench-frames-")));
      await writeFrames(join(data, "frames-big"));
      execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
      server = await serveStatic("dist", 0, { "/bench-data/": data, "/bench-nb/": "bench/fixtures" });
      browser = await launchChromium();
    },
    async measure() {
      const context = await browser.newContext();
      const page = await context.newPage();
      // Long tasks are recorded from the first script on, so nothing the load does escapes the count.
      await page.addInitScript(() => {
        const w = window as unknown as { jbLongTasks: [number, number][] };
        w.jbLongTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.jbLongTasks.push([e.startTime, e.duration]);
        }).observe({ type: "longtask", buffered: true });
      });
      await page.goto(`${server.url}?notebook=bench-nb/empty.md&runs=bench-data/frames-big/`);
      await page.waitForFunction(() => performance.getEntriesByName("jb:runs-loaded").length > 0, undefined, {
        timeout: 120_000,
      });
      // The overview chart is part of what the user waits through: long tasks are counted until it is drawn.
      await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0, undefined, {
        timeout: 120_000,
      });
      const result = await page.evaluate(() => {
        // (no named helper here: tsx would wrap it in a __name call the page does not have)
        const [loaded, engineReady, loadStart] = ["jb:runs-loaded", "jb:engine-ready", "jb:load-start"].map(
          (m) => performance.getEntriesByName(m)[0]!.startTime,
        ) as [number, number, number];
        const tasks = (window as unknown as { jbLongTasks: [number, number][] }).jbLongTasks;
        return {
          loaded,
          engineReady,
          loadStart,
          // a task that ends after the first table request is one the load could have caused or delayed
          longest: Math.max(0, ...tasks.filter(([start, d]) => start + d > loadStart).map(([, d]) => d)),
          longestBoot: Math.max(0, ...tasks.filter(([start, d]) => start + d <= loadStart).map(([, d]) => d)),
          status: document.querySelector("jb-app")?.shadowRoot?.textContent ?? "",
          runErrors:
            (
              document
                .querySelector("jb-app")
                ?.shadowRoot?.querySelector("jb-run-overview") as HTMLElement | null
            )?.shadowRoot?.textContent ?? "",
        };
      });
      if (!/1 run loaded(?!, )/.test(result.status))
        throw new Error(`load failed: ${result.runErrors.replace(/\s+/g, " ").slice(0, 1500)}`);
      longestTasks.push(result.longest);
      process.stderr.write(
        `  loaded in ${result.loaded.toFixed(0)} ms (DuckDB ready at ${result.engineReady.toFixed(0)}, first request at ${result.loadStart.toFixed(0)}); ` +
          `longest main-thread task ${result.longest.toFixed(0)} ms during the load, ${result.longestBoot.toFixed(0)} ms before it (page start)\n`,
      );
      await context.close();
      return result.loaded;
    },
    async teardown() {
      await browser?.close();
      await server?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  },
  {
    name: `workspace/longest main-thread task while loading ${label} frames (from the first table request to the chart)`,
    unit: "ms",
    budget: 200,
    runs: 3,
    measure() {
      const next = longestTasks.shift();
      if (next === undefined) throw new Error("the frames load benchmark did not run first");
      return next;
    },
  },
];
