// Every slider of the bundled notebooks that have them (triage, compare, frames-overview, macrobenchmark-history),
// dragged in Chromium as workspace-slider.bench.ts drags τ with every move delivered: 60 "input" events over 1 s,
// from the slider's value to halfway to the far end of its range, then back on the next round. Measured per drag:
// the longest main-thread task from the first move until the page has drawn the last value (PerformanceObserver
// "longtask": 0 when none reached 50 ms), and the time from the last move until the runtime has settled on the last
// value, every output has drawn it and a frame has painted it. workspace-slider.bench.ts holds triage's τ and outlier
// factor to their budgets with finer points (the paint of the last change, coalesced moves, a typed change); this
// one watches that no other slider stalls the page. BENCH_BEFORE_DIST=<another build> drags both builds in turn;
// BENCH_EVERY_SLIDER_RUNS rounds (3). Results: bench/results/every-slider.json, with the load after each round.
import { loadavg } from "node:os";
import { mkdir, writeFile } from "node:fs/promises";
import type { Browser, ElementHandle, Page } from "playwright-core";
import { median, type Benchmark } from "./harness";
import { closeBuilds, openBuilds, type BenchWindow, type OpenBuild } from "./side-by-side-builds";

const NOTEBOOKS = ["triage", "compare", "frames-overview", "macrobenchmark-history"];
const RUNS = Number(process.env.BENCH_EVERY_SLIDER_RUNS ?? 3);

/** One drag of `slider`: ms from the last move to the last value drawn, the longest task in ms, its label. */
async function drag(page: Page, slider: ElementHandle<HTMLInputElement>, back: boolean) {
  await slider.scrollIntoViewIfNeeded();
  // let cells that start when scrolled near (editors, lazy outputs) finish: this measures the drag, not the scroll
  await page.evaluate(async () => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { settled(ms: number): Promise<void> };
    };
    await nb.runtime.settled(120_000);
    await new Promise((r) => setTimeout(r, 300));
  });
  return slider.evaluate(async (range: HTMLInputElement, back: boolean) => {
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
      runtime: { settled(ms: number): Promise<void> };
    };
    const tasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push(e.duration);
    });
    observer.observe({ type: "longtask" });
    const [min, max, from] = [Number(range.min), Number(range.max), Number(range.value)];
    // out: halfway towards the farther end of the range; back: to where the drag out began
    if (!back) range.dataset.benchFrom = String(from);
    const far = max - from >= from - min ? max : min;
    const target = back ? Number(range.dataset.benchFrom ?? min) : from + (far - from) / 2;
    const t0 = performance.now();
    let lastMove = 0;
    const sent: Promise<void>[] = [];
    for (let k = 1; k <= 60; k++)
      sent.push(
        new Promise<void>((r) =>
          setTimeout(
            () => {
              range.value = String(from + ((target - from) * k) / 60);
              range.dispatchEvent(new Event("input", { bubbles: true }));
              lastMove = performance.now();
              r();
            },
            Math.max(0, t0 + (1000 * k) / 60 - performance.now()),
          ),
        ),
      );
    await Promise.all(sent);
    await nb.runtime.settled(120_000);
    // the notebook renders in the next frame; its outputs draw then or in tasks after; then a frame paints them
    await new Promise((r) => requestAnimationFrame(r));
    await (window as unknown as BenchWindow).jbOutputsPainted();
    const drawn = performance.now() - lastMove;
    await new Promise((r) => setTimeout(r, 150)); // long tasks are reported asynchronously
    observer.disconnect();
    const label = range.closest("form")?.querySelector("label")?.textContent?.trim() ?? "slider";
    return { drawn, longest: Math.max(0, ...tasks), label };
  }, back);
}

const samples = new Map<string, number[]>();
const add = (key: string, v: number) => samples.set(key, [...(samples.get(key) ?? []), v]);
let browser: Browser | undefined;
let opened: OpenBuild[] = [];

async function setup() {
  ({ browser, builds: opened } = await openBuilds(NOTEBOOKS));
  const loadPerRound: number[] = [];
  const sliderNames = new Map<string, string>();
  for (let run = 0; run < RUNS; run++, loadPerRound.push(loadavg()[0]!))
    for (const notebook of NOTEBOOKS)
      for (const o of opened.filter((x) => x.notebook === notebook)) {
        const sliders = await o.page.locator("jb-notebook input[type=range]").elementHandles();
        for (const [i, slider] of sliders.entries()) {
          const d = await drag(o.page, slider as ElementHandle<HTMLInputElement>, run % 2 === 1);
          const key = `${notebook} #${i}`;
          sliderNames.set(key, d.label);
          add(`${o.label}|${key}|drawn`, d.drawn);
          add(`${o.label}|${key}|longest`, d.longest);
        }
      }
  const medians: Record<string, Record<string, number>> = {};
  for (const [key, label] of sliderNames)
    for (const build of opened.map((o) => o.label).filter((l, i, all) => all.indexOf(l) === i))
      medians[`${build} ${key} (${label})`] = {
        "last move to drawn (ms)": median(samples.get(`${build}|${key}|drawn`) ?? []),
        "longest task (ms, budget < 50)": median(samples.get(`${build}|${key}|longest`) ?? []),
      };
  const out = {
    date: new Date().toISOString(),
    runs: RUNS,
    loadavg: { perRound: loadPerRound, after: loadavg() },
    medians,
    samples: Object.fromEntries(samples),
  };
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/every-slider.json", JSON.stringify(out, null, 2) + "\n");
  process.stderr.write(`${JSON.stringify(medians, null, 2)}\nload ${JSON.stringify(out.loadavg)}\n`);
}

export const benchmarks: Benchmark[] = [
  {
    name: "every-slider: every slider of the bundled notebooks dragged 1 s, every move delivered",
    unit: "drags",
    runs: 1,
    setup,
    measure: () => [...samples.keys()].filter((k) => k.endsWith("|drawn")).length * RUNS,
    async teardown() {
      await closeBuilds(browser, opened);
      opened = [];
    },
  },
];
