// The timeline's acceptance bench (docs/budgets.md): in Chromium, the built workspace with a run of 1M calls
// (8 threads, up to 40 deep: androscope-timeline.bench.ts's generator, written to a temporary folder, never
// into git), a few seconds of scripted zoom and pan on <jb-timeline> (wheel in and out at several places,
// drags both ways), and the time between animation frames meanwhile: its p95 (target < 50 ms) and the longest
// main-thread task. Each run is one gesture session; the second benchmark reports the longest task of those
// same sessions.
import type { Page } from "playwright-core";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { makeBundleTable } from "../bundle/table-builder";
import { syntheticCalls } from "./androscope-timeline.bench";
import { openBenchNotebook, type BenchNotebookPage } from "./bench-notebook-page";
import { quantile, type Benchmark } from "./harness";

const CALLS = Number(process.env.JB_TIMELINE_CALLS ?? 1_000_000);
let opened: BenchNotebookPage | null = null;
let page: Page;
const longestTasks: number[] = [];

async function writeRun(dir: string) {
  const methods = 500;
  await writeBundleFolder(dir, newManifest("bench", { app: "bench" }, { synthetic: true }), {
    calls: syntheticCalls(CALLS),
    methods: makeBundleTable("methods", "bench", {
      method_id: BigInt64Array.from({ length: methods }, (_, i) => BigInt(i + 1)),
      class_name: Array.from({ length: methods }, (_, i) => `com.example.feed.Class${i % 37}`),
      method_name: Array.from({ length: methods }, (_, i) => `method${i}`),
      signature: Array.from({ length: methods }, () => "()V"),
    }),
    threads: makeBundleTable("threads", "bench", {
      thread_id: Int32Array.from({ length: 8 }, (_, i) => i + 1),
      name: Array.from({ length: 8 }, (_, i) => (i === 0 ? "main" : `worker-${i}`)),
    }),
  });
}

async function setup() {
  if (opened) return;
  opened = await openBenchNotebook("timeline.md", writeRun);
  page = opened.page;
  await page.locator("jb-timeline canvas").waitFor({ timeout: 300_000 });
  await page.locator("jb-timeline canvas").scrollIntoViewIfNeeded();
  await page.locator("jb-timeline p.summary", { hasText: "boxes loaded" }).waitFor({ timeout: 120_000 });
  process.stderr.write(`  ${await page.locator("jb-timeline p.summary").innerText()}\n`);
}

// Page scripts as text: tsx would wrap named functions in a helper the page does not have.
const RECORD = `(() => {
  const b = (window.__bench = { frames: [], longest: 0, stop: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longest = Math.max(b.longest, e.duration);
  }).observe({ type: "longtask" });
  let last = performance.now();
  const tick = (now) => {
    b.frames.push(now - last);
    last = now;
    if (!b.stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;
const STOP = `(() => {
  window.__bench.stop = true;
  return { frames: window.__bench.frames.slice(1), longest: window.__bench.longest };
})()`;

/** One session: frame intervals and long tasks recorded in the page while the mouse zooms and pans. */
async function session(): Promise<number> {
  await page.evaluate(RECORD);
  const box = (await page.locator("jb-timeline canvas").boundingBox())!;
  const y = box.y + box.height / 2;
  const xs = [0.3, 0.7, 0.5].map((s) => box.x + 160 + s * 580);
  for (const x of xs) {
    await page.mouse.move(x, y);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -120);
    await page.mouse.down();
    await page.mouse.move(x + 150, y, { steps: 15 });
    await page.mouse.move(x - 150, y, { steps: 30 });
    await page.mouse.up();
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 120);
  }
  await page.waitForTimeout(300);
  const r = (await page.evaluate(STOP)) as { frames: number[]; longest: number };
  longestTasks.push(r.longest);
  process.stderr.write(
    `  ${r.frames.length} frames, median ${quantile(r.frames, 0.5).toFixed(1)} ms, p95 ${quantile(r.frames, 0.95).toFixed(1)} ms, max ${Math.max(...r.frames).toFixed(1)} ms, longest task ${r.longest.toFixed(0)} ms\n`,
  );
  return quantile(r.frames, 0.95);
}

export const benchmarks: Benchmark[] = [
  {
    name: `workspace/timeline zoom and pan at ${CALLS / 1e6}M calls: frame time p95`,
    unit: "ms",
    budget: 50,
    runs: 3,
    setup,
    measure: session,
  },
  {
    name: `workspace/timeline zoom and pan at ${CALLS / 1e6}M calls: longest main-thread task`,
    unit: "ms",
    budget: 50,
    runs: 3,
    // the sessions above, one value each
    measure: () => longestTasks.shift() ?? NaN,
    async teardown() {
      await opened?.close();
      opened = null;
    },
  },
];
