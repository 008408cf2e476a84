// What one typed slider value costs the page's main thread (docs/architecture.md, live input): on the triage
// notebook, τ and the IQR outlier factor are typed into the number box beside their slider, alternating between
// two values, under a Chromium trace from the typed value to its charts drawn and painted. Summed over the renderer
// main thread's top-level tasks in that window, in thread time (what the thread itself ran, not what it waited for
// a core; it still grows with the machine's load, 57 ms at load 7 and 98 at load 12 for one build): the total and its
// split into style, layout, pre-paint, paint, and the rest (script, mostly). BENCH_BEFORE_DIST=<another build>
// measures it in the same run, changes alternating; BENCH_PAINT_RUNS rounds (5); BENCH_PAINT_TRACE=<dir> keeps them.
import { loadavg } from "node:os";
import { writeFile, mkdir } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { INPUT_INTERVAL_MS } from "../workspace/notebook/view-input";
import { median, type Benchmark } from "./harness";
import {
  BUILD_LABELS,
  type BenchWindow,
  closeBuilds,
  openBuilds,
  sliderAt,
  type OpenBuild,
} from "./side-by-side-builds";

const SLIDERS = [
  { name: "tauMs", cell: "const tauMs = view", values: [500, 800] },
  { name: "outlierFactor", cell: "const outlierFactor = view", values: [1.5, 3] },
] as const;
const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 5);
// Chromium's trace event names for the rendering phases (third_party/blink/renderer/core/frame/local_frame_view.cc)
const PHASES = { style: "UpdateLayoutTree", layout: "Layout", prePaint: "PrePaint", paint: "Paint" } as const;
type Split = Record<keyof typeof PHASES | "total" | "rest", number>;

let browser: Browser | undefined;
let variants: OpenBuild[] = [];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { frames?: { processId: number; url: string }[] } };
}

/** Thread ms of the page's main thread between the marks jb-typed and jb-drawn, split by phase. */
function split(events: TraceEvent[], url: string): Split {
  const frame = events
    .flatMap((e) => e.args?.data?.frames ?? [])
    .find((f) => f.url.startsWith(url) && f.url.includes("notebook="));
  if (!frame) throw new Error(`no frame of ${url} in the trace`);
  const main = events.find(
    (e) =>
      e.ph === "M" &&
      e.name === "thread_name" &&
      e.pid === frame.processId &&
      e.args?.name === "CrRendererMain",
  );
  if (!main) throw new Error(`no CrRendererMain thread for process ${frame.processId}`);
  const ours = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const mark = (name: string) => ours.find((e) => e.name === name)?.ts;
  const from = mark("jb-typed");
  const to = mark("jb-drawn");
  if (from === undefined || to === undefined)
    throw new Error("marks jb-typed/jb-drawn missing from the trace");
  const inWindow = ours.filter((e) => e.ph === "X" && e.ts + (e.dur ?? 0) >= from && e.ts <= to);
  const ms = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  // a phase nested in itself (a forced layout inside a layout) counts once: only events outside another of the name
  const outermost = (name: string) => {
    const of = inWindow.filter((e) => e.name === name).sort((a, b) => a.ts - b.ts);
    let end = -Infinity;
    let sum = 0;
    for (const e of of)
      if (e.ts >= end) {
        sum += ms(e);
        end = e.ts + (e.dur ?? 0);
      }
    return sum;
  };
  const out = { total: outermost("RunTask") } as Split;
  for (const [k, name] of Object.entries(PHASES)) out[k as keyof typeof PHASES] = outermost(name);
  out.rest = out.total - out.style - out.layout - out.prePaint - out.paint;
  return out;
}

async function typeOnce(v: OpenBuild, s: (typeof SLIDERS)[number], from: number, to: number): Promise<Split> {
  const page = v.page;
  const slider = await sliderAt(page, s.name, s.cell, from);
  await new Promise((r) => setTimeout(r, INPUT_INTERVAL_MS + 200));
  await browser!.startTracing(page, {
    categories: [
      "toplevel",
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "blink.user_timing",
    ],
  });
  await slider.evaluate((range: HTMLInputElement, to) => {
    const box = range.form!.querySelector<HTMLInputElement>("input[type=number]")!;
    box.value = String(to);
    performance.mark("jb-typed");
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }, to);
  await page.evaluate(
    async ([name, to]) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { settled(ms: number): Promise<void>; value(name: string): Promise<unknown> };
      };
      for (;;) {
        await nb.runtime.settled(120_000);
        await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(r));
        if ((await nb.runtime.value(name)) === to) break;
      }
      // every output drawn, then the frame that paints the last one (side-by-side-builds.ts)
      await (window as unknown as BenchWindow).jbOutputsPainted();
      performance.mark("jb-drawn");
    },
    [s.name, to] as const,
  );
  const raw = await browser!.stopTracing();
  // BENCH_PAINT_TRACE=<dir> keeps each trace, to open in Perfetto or DevTools
  if (process.env.BENCH_PAINT_TRACE)
    await writeFile(`${process.env.BENCH_PAINT_TRACE}/${v.label}-${s.name}-${to}.json`, raw);
  const trace = JSON.parse(raw.toString()) as { traceEvents: TraceEvent[] };
  return split(trace.traceEvents, v.server.url);
}

const samples = new Map<string, Split[]>();

async function measureAll() {
  const load: { before: number[]; after?: number[] } = { before: loadavg() };
  for (let run = 0; run < RUNS; run++)
    for (const s of SLIDERS)
      for (const v of variants) {
        const [a, b] = run % 2 === 0 ? s.values : [s.values[1], s.values[0]];
        const k = `${v.label} ${s.name}`;
        samples.set(k, [...(samples.get(k) ?? []), await typeOnce(v, s, a, b)]);
      }
  load.after = loadavg();
  const medians = Object.fromEntries(
    [...samples].map(([k, xs]) => [
      k,
      Object.fromEntries(
        (Object.keys(xs[0]!) as (keyof Split)[]).map((p) => [
          `${p} (thread ms)`,
          median(xs.map((x) => x[p])),
        ]),
      ),
    ]),
  );
  const out = {
    date: new Date().toISOString(),
    loadavg: load,
    runs: RUNS,
    medians,
    samples: Object.fromEntries(samples),
  };
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/workspace-paint.json", JSON.stringify(out, null, 2) + "\n");
  process.stderr.write(`${JSON.stringify(medians, null, 2)}\nload ${JSON.stringify(load)}\n`);
}

async function setup() {
  ({ browser, builds: variants } = await openBuilds());
  await measureAll();
}

const labels = BUILD_LABELS;
export const benchmarks: Benchmark[] = [
  {
    name: "workspace/paint: typed slider values under a trace (triage τ and outlier factor)",
    unit: "changes",
    runs: 1,
    setup,
    measure: () => RUNS * SLIDERS.length * variants.length,
    async teardown() {
      await closeBuilds(browser, variants);
    },
  },
  ...labels.flatMap((variant) =>
    SLIDERS.map((s): Benchmark => ({
      name: `workspace/paint: typed ${s.name} (triage, ${variant}): main-thread total`,
      unit: "thread ms",
      runs: RUNS,
      measure() {
        const x = samples.get(`${variant} ${s.name}`)?.shift();
        if (x === undefined)
          throw new Error("run with the first paint benchmark (npm run bench -- workspace-paint)");
        return x.total;
      },
    })),
  ),
];
