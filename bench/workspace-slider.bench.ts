// A dragged slider in Chromium (docs/budgets.md): the triage notebook's τ slider moves for 1 s with 60 input
// events, as a mouse drag sends them; measured are the time from the last input to the last value's plots
// drawn (the runtime settled with τ at its final value, then two animation frames: the notebook renders on
// the first, the browser paints before the second) and the longest main-thread task during the drag and its
// aftermath (PerformanceObserver "longtask", which reports tasks over 50 ms; 0 means none). One drag yields
// both figures: the second benchmark reports the longest tasks the first one's drags recorded.
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { openWorkspace } from "../test/support/workspace-page";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";
import type { Benchmark } from "./harness";

let browser: Browser;
let server: StaticServer;
let page: Page;
let drag = 0;
const longestTasks: number[] = [];

/** Drags τ from `from` to `to` in the page; resolves with [ms from last input to drawn, longest task ms]. */
async function dragTau(from: number, to: number): Promise<[number, number]> {
  const slider = page
    .locator("jb-notebook .block.cell", { hasText: "const tauMs = view" })
    .locator("input[type=range]");
  return slider.evaluate(
    async (input: HTMLInputElement, [from, to]) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { settled(ms: number): Promise<void>; value(name: string): Promise<unknown> };
      };
      const tasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push(e.duration);
      });
      observer.observe({ type: "longtask" });
      const events = 60;
      const t0 = performance.now();
      for (let k = 1; k <= events; k++) {
        // Paced by the clock, as a drag is: a slow page gets fewer, later events, never a queue of them.
        const due = t0 + (1000 * k) / events;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        input.value = String(Math.round(from + ((to - from) * k) / events));
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      const last = performance.now();
      // Settled with the final τ: the last value won.
      for (;;) {
        await nb.runtime.settled(30_000);
        // Inline, not a named helper: tsx would wrap a named function in a __name() the page lacks.
        await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(r));
        if ((await nb.runtime.value("tauMs")) === to) break;
        if (performance.now() - last > 30_000) throw new Error(`τ never became ${to}`);
      }
      const drawn = performance.now() - last;
      await new Promise((r) => setTimeout(r, 100)); // long tasks are reported asynchronously
      observer.disconnect();
      return [drawn, Math.max(0, ...tasks)] as [number, number];
    },
    [from, to] as const,
  );
}

/** Builds the workspace, serves it and opens the default notebook (triage) until its cells settle. */
async function openTriage() {
  execFileSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  [server, browser] = await Promise.all([serveStatic("dist"), launchChromium()]);
  ({ page } = await openWorkspace(browser, server.url));
}

export const benchmarks: Benchmark[] = [
  {
    name: "workspace/slider drag 1 s (triage τ, 60 events): last move to plots drawn",
    unit: "ms",
    budget: 150,
    runs: 5,
    setup: openTriage,
    async measure() {
      // Alternate directions so every drag ends on a τ the notebook does not show yet.
      const [from, to] = drag++ % 2 === 0 ? [500, 800] : [800, 300];
      const [drawn, longest] = await dragTau(from, to);
      longestTasks.push(longest);
      return drawn;
    },
    async teardown() {
      await browser?.close();
      await server?.close();
    },
  },
  {
    name: "workspace/slider drag 1 s (triage τ, 60 events): longest main-thread task",
    unit: "ms",
    budget: 50,
    runs: 5,
    measure() {
      const v = longestTasks.shift();
      if (v === undefined)
        throw new Error("run with the drag benchmark before it (npm run bench -- workspace)");
      return v;
    },
  },
];
