// Notebook benchmarks in Chromium: a slider change to the re-drawn plot with 1M tasks loaded.
import type { Page } from "playwright-core";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { makeBundleTable } from "../bundle/table-builder";
import { openBenchNotebook, type BenchNotebookPage } from "./bench-notebook-page";
import type { Benchmark } from "./harness";

let opened: BenchNotebookPage;
let page: Page;
let step = 0;

async function millionTasks(dir: string) {
  const n = 1_000_000;
  const scheduled = new BigInt64Array(n);
  const started = new BigInt64Array(n);
  const ended = new BigInt64Array(n);
  const executor: string[] = new Array(n);
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    const s = BigInt(i) * 1_000_000n;
    scheduled[i] = s;
    started[i] = s + BigInt(Math.floor(rand() * 2e9));
    ended[i] = started[i]! + 5_000_000n;
    executor[i] = `pool-${i % 40}`;
  }
  const tasks = makeBundleTable("tasks", "bench-1m", {
    task_id: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)),
    category: executor.map(() => "thread_pool_executor"),
    executor_id: executor,
    scheduled,
    started,
    ended,
    context_id: new Int32Array(n),
  });
  await writeBundleFolder(dir, newManifest("bench-1m", { app: "bench" }, { synthetic: true }), { tasks });
}

/** Walks every shadow root for the first element matching a selector (runs in the page). */
const deepQuery = `(selector) => {
  const walk = (root) => {
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { const h = walk(el.shadowRoot); if (h) return h; }
    return null;
  };
  return walk(document);
}`;

export const benchmarks: Benchmark[] = [
  {
    name: "notebook/slider change to re-drawn plot, 1M tasks loaded",
    unit: "ms",
    budget: 100,
    runs: 15,
    async setup() {
      opened = await openBenchNotebook("slider.md", millionTasks);
      page = opened.page;
      await page.waitForFunction(`(${deepQuery})("svg g[aria-label='bar']") !== null`, undefined, {
        timeout: 120_000,
      });
    },
    async measure() {
      const tau = 300 + (step++ % 2) * 600; // alternate so every change really changes the result
      return page.evaluate(
        async ([query, value]) => {
          const find = new Function(`return ${query}`)() as (s: string) => Element | null;
          const input = find("input[type=range]") as HTMLInputElement;
          const before = find("svg g[aria-label='bar']");
          const t0 = performance.now();
          input.value = String(value);
          input.dispatchEvent(new Event("input", { bubbles: true }));
          for (;;) {
            await new Promise((r) => requestAnimationFrame(r));
            const now = find("svg g[aria-label='bar']");
            if (now && now !== before) return performance.now() - t0;
            if (performance.now() - t0 > 10_000) throw new Error("plot not redrawn within 10 s");
          }
        },
        [deepQuery, tau] as const,
      );
    },
    async teardown() {
      await opened.close();
    },
  },
];
