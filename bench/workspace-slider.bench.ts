// A dragged slider in Chromium (docs/budgets.md): on the triage notebook, τ and the IQR outlier factor are each
// dragged for 1 s, two ways: every move delivered (60 "input" events queued at 60 Hz, as a test driver sends them:
// a busy page works through all of them) and coalesced (the mouse through CDP, the next move sent when the page
// took the last one, at the pointer's position then, and Chromium merging moves within a frame as it does a real
// mouse's, then released). Measured per drag: the longest main-thread task from the press to the last value's chart
// drawn (PerformanceObserver "longtask", which only reports tasks over 50 ms: 0 means none), the time from the last
// move's event to that chart (the last change to any output's drawing, watched by MutationObservers, painted: a task
// after the next frame's rendering; found once the runtime has settled with the input's final value and every
// output's update completed), the gaps between animation frames while the hand moved (does the page, and so the
// thumb, keep the display's rate?), and the same time to the chart for a typed change (the number box beside the slider, an interval
// after the value before it) to give the drag's ratio. No Playwright selector query runs in that time: each slider
// is resolved to its element before the drag or the typing.
// BENCH_BEFORE_DIST=<a build of other code> measures it in the same run, drags alternating, for a before/after; the
// JSON keeps every sample, the load after each round, and after/before as the ratio of the medians and as the
// median of the rounds' own ratios (which a load drifting over the run cancels).
import { loadavg } from "node:os";
import { writeFile, mkdir } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
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

interface Slider {
  /** the input's name in the notebook */
  name: string;
  /** text of the cell that defines it */
  cell: string;
  /** a drag goes from one to the other, then back */
  values: [number, number];
}
const SLIDERS: Slider[] = [
  { name: "tauMs", cell: "const tauMs = view", values: [500, 800] },
  { name: "outlierFactor", cell: "const outlierFactor = view", values: [1.5, 3] },
];
type Mode = "every move" | "coalesced";
const MODES: Mode[] = ["every move", "coalesced"];
const RUNS = Number(process.env.BENCH_SLIDER_RUNS ?? 3);

let browser: Browser | undefined;
let variants: OpenBuild[] = [];

interface Drag {
  longestTaskMs: number;
  lastMoveToChartMs: number;
  moves: number;
  /** median gap between animation frames while the hand moved, and the longest one */
  frameMs: number;
  longestFrameMs: number;
}

/** The range input of the slider's cell, scrolled into view; the notebook's runtime set to `value` first. */
const prepare = (page: Page, s: Slider, value: number) => sliderAt(page, s.name, s.cell, value);

/** Starts watching long tasks, pointer moves, and when the outputs' drawings last changed and were painted. */
async function watch(page: Page) {
  await page.evaluate(() => {
    // tsx keeps the names of the functions below by wrapping them in a __name() the page lacks
    (window as unknown as { __name?: (f: unknown) => unknown }).__name ??= (f) => f;
    const w = window as unknown as {
      __drag: {
        tasks: number[];
        lastMove: number;
        moves: number;
        changed: number;
        painted: number;
        frames: number[];
        watching: boolean;
        firstMove: number;
      };
    };
    const d = (w.__drag = {
      tasks: [] as number[],
      lastMove: 0,
      moves: 0,
      changed: 0,
      painted: 0,
      frames: [] as number[],
      watching: true as boolean,
      firstMove: 0,
    });
    // every animation frame's start: while the hand moves, the page should render at the display's rate
    const frame = (t: number) => {
      d.frames.push(t);
      if (d.watching) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) d.tasks.push(e.duration);
    });
    observer.observe({ type: "longtask" });
    // What the user sees change: an output's drawing (or an output added), painted in the next frame (a task after
    // its rendering).
    const changed = () => {
      const at = (d.changed = performance.now());
      requestAnimationFrame(() => {
        const c = new MessageChannel();
        c.port1.onmessage = () => {
          if (d.changed === at) d.painted = performance.now();
        };
        c.port2.postMessage(null);
      });
    };
    const drawings = new MutationObserver(changed);
    const watchOutput = (o: Element) =>
      drawings.observe(o.shadowRoot!, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook")!;
    nb.shadowRoot!.querySelectorAll("jb-output").forEach(watchOutput);
    const added = new MutationObserver((records) => {
      const outputs = records.flatMap((r) =>
        [...r.addedNodes].flatMap((n) =>
          n instanceof Element
            ? [...(n.matches("jb-output") ? [n] : []), ...n.querySelectorAll("jb-output")]
            : [],
        ),
      );
      outputs.forEach(watchOutput);
      if (outputs.length) changed();
    });
    added.observe(nb.shadowRoot!, { subtree: true, childList: true });
    const onMove = (e: PointerEvent) => {
      if (d.moves === 0) d.firstMove = e.timeStamp;
      d.lastMove = e.timeStamp;
      d.moves++;
    };
    addEventListener("pointermove", onMove, { capture: true });
    (w as unknown as { __stop: () => void }).__stop = () => {
      d.watching = false;
      observer.disconnect();
      drawings.disconnect();
      added.disconnect();
      removeEventListener("pointermove", onMove, { capture: true });
    };
  });
}

/** Waits in the page until `name` is the input's value, settled and drawn; [ms since `since`, longest task]. */
async function drawn(page: Page, name: string, since: "move" | "typed"): Promise<[number, number]> {
  return page.evaluate(
    async ([name, since]) => {
      const nb = document.querySelector("jb-app")!.shadowRoot!.querySelector("jb-notebook") as unknown as {
        runtime: { settled(ms: number): Promise<void>; value(name: string): Promise<unknown> };
      };
      const w = window as unknown as {
        __drag: {
          tasks: number[];
          lastMove: number;
          typed: number;
          target: unknown;
          changed: number;
          painted: number;
        };
        __stop: () => void;
      };
      const d = w.__drag;
      const t0 = since === "move" ? d.lastMove : d.typed;
      for (;;) {
        await nb.runtime.settled(120_000);
        // The notebook renders the settled cells in the next animation frame, in its own callback, asked for
        // before this one: after it, each changed output has its value and its redraw pending.
        // Inline, not a named helper: tsx would wrap a named function in a __name() the page lacks.
        await new Promise((r) => requestAnimationFrame(r));
        if ((await nb.runtime.value(name)) !== d.target) {
          if (performance.now() - t0 > 120_000) throw new Error(`${name} never became ${String(d.target)}`);
          continue;
        }
        // every output drawn, then the frame that paints the last one (side-by-side-builds.ts)
        await (window as unknown as BenchWindow).jbOutputsPainted();
        break;
      }
      // The chart is seen when the last change to an output's drawing is painted, not when this wait ends: the
      // runtime settles after cells that draw nothing (checks), and value() itself waits for a compute frame.
      // An output's last change painted before t0 (the last moves stayed within the slider's step, and the value
      // they keep was drawn already) means the chart showed the final value when the hand stopped: 0.
      const ms = Math.max(0, d.painted - t0);
      await new Promise((r) => setTimeout(r, 150)); // long tasks are reported asynchronously
      w.__stop();
      return [ms, Math.max(0, ...d.tasks)] as [number, number];
    },
    [name, since] as const,
  );
}

async function dragOnce(page: Page, s: Slider, mode: Mode, from: number, to: number): Promise<Drag> {
  // The element itself, not its locator: resolving "the cell with this text" walks every block's text on the
  // page's main thread (50-60 ms on triage), which must not run between the last move and the chart.
  const slider = (await (await prepare(page, s, from)).elementHandle())!;
  const box = (await slider.boundingBox())!;
  const [min, max] = await slider.evaluate((el: HTMLInputElement) => [Number(el.min), Number(el.max)]);
  // Chromium's thumb is 16 px wide: its centre travels the track less 8 px at each end.
  const x = (v: number) => box.x + 8 + ((v - min) / (max - min)) * (box.width - 16);
  const y = box.y + box.height / 2;
  await page.mouse.move(x(from), y);
  await watch(page);
  if (mode === "coalesced") await page.mouse.down();
  const t0 = performance.now();
  const steps = 60;
  if (mode === "every move") {
    // Every value reaches the page: 60 "input" events queued at their due times (a busy page runs them late, all
    // of them), as a test driver delivers them; Chromium would merge a real mouse's moves (the other mode).
    await slider.evaluate(
      async (input: HTMLInputElement, [from, to, steps]) => {
        const d = (window as unknown as { __drag: { lastMove: number; moves: number; firstMove: number } })
          .__drag;
        const t0 = performance.now();
        const sent: Promise<void>[] = [];
        for (let k = 1; k <= steps; k++)
          sent.push(
            new Promise<void>((r) =>
              setTimeout(
                () => {
                  input.value = String(from + ((to - from) * k) / steps);
                  input.dispatchEvent(new Event("input", { bubbles: true }));
                  d.lastMove = performance.now();
                  if (d.moves++ === 0) d.firstMove = d.lastMove;
                  r();
                },
                Math.max(0, t0 + (1000 * k) / steps - performance.now()),
              ),
            ),
          );
        await Promise.all(sent);
      },
      [from, to, steps] as const,
    );
  } else {
    for (;;) {
      const f = Math.min(1, (performance.now() - t0) / 1000);
      await page.mouse.move(x(from + (to - from) * f), y);
      if (f === 1) break;
      await new Promise((r) => setTimeout(r, 1000 / steps));
    }
  }
  if (mode === "coalesced") await page.mouse.up();
  const target = await slider.evaluate((el: HTMLInputElement) => {
    const v = el.valueAsNumber;
    (window as unknown as { __drag: { target: unknown } }).__drag.target = v;
    return v;
  });
  const [ms, longest] = await drawn(page, s.name, "move");
  await slider.dispose();
  const { moves, frameGaps } = await page.evaluate(() => {
    const d = (
      window as unknown as {
        __drag: { moves: number; frames: number[]; firstMove: number; lastMove: number };
      }
    ).__drag;
    // the gaps between animation frames while the hand moved: a page keeping up renders one every 16.7 ms at 60 Hz
    const during = d.frames.filter((t) => t >= d.firstMove && t <= d.lastMove);
    return { moves: d.moves, frameGaps: during.slice(1).map((t, i) => t - during[i]!) };
  });
  if (Math.abs(target - to) > (max - min) / 50) throw new Error(`drag ended at ${target}, not near ${to}`);
  return {
    longestTaskMs: longest,
    lastMoveToChartMs: ms,
    moves,
    frameMs: median(frameGaps),
    longestFrameMs: Math.max(0, ...frameGaps),
  };
}

/** A value typed into the number box beside the slider: [ms to its chart, longest task]. */
async function typeOnce(page: Page, s: Slider, from: number, to: number): Promise<[number, number]> {
  // resolved before the pause, as the drag resolves its slider before the drag (see dragOnce)
  const slider = (await (await prepare(page, s, from)).elementHandle())!;
  // typed after a pause longer than the throttle's interval, so the baseline is one change's cost, never a hold
  await new Promise((r) => setTimeout(r, INPUT_INTERVAL_MS));
  await watch(page);
  await slider.evaluate((range: HTMLInputElement, to) => {
    const box = range.form!.querySelector<HTMLInputElement>("input[type=number]")!;
    const d = (window as unknown as { __drag: { typed: number; target: unknown } }).__drag;
    d.target = to;
    box.value = String(to);
    d.typed = performance.now();
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }, to);
  await slider.dispose();
  return drawn(page, s.name, "typed");
}

const samples = new Map<string, number[]>();
function add(key: string, v: number) {
  samples.set(key, [...(samples.get(key) ?? []), v]);
}
const key = (variant: string, s: Slider, what: string) => `${variant}|${s.name}|${what}`;

async function measureAll() {
  const load: { before: number[]; after?: number[]; perRun: number[] } = { before: loadavg(), perRun: [] };
  for (let run = 0; run < RUNS; run++, load.perRun.push(loadavg()[0]!))
    for (const s of SLIDERS)
      for (const v of variants) {
        const [a, b] = run % 2 === 0 ? s.values : ([s.values[1], s.values[0]] as const);
        for (const mode of MODES) {
          const d = await dragOnce(v.page, s, mode, a, b);
          add(key(v.label, s, `${mode} longest task`), d.longestTaskMs);
          add(key(v.label, s, `${mode} last move to chart`), d.lastMoveToChartMs);
          add(key(v.label, s, `${mode} moves`), d.moves);
          add(key(v.label, s, `${mode} frame interval`), d.frameMs);
          add(key(v.label, s, `${mode} longest frame`), d.longestFrameMs);
        }
        const [typed, longest] = await typeOnce(v.page, s, a, b);
        add(key(v.label, s, "typed change to chart"), typed);
        add(key(v.label, s, "typed longest task"), longest);
      }
  load.after = loadavg();
  const figures: Record<string, unknown> = {};
  for (const v of variants)
    for (const s of SLIDERS) {
      const m = (what: string) => median(samples.get(key(v.label, s, what)) ?? []);
      const perRound = (what: string, over: string) => {
        const under = samples.get(key(v.label, s, over)) ?? [];
        return median((samples.get(key(v.label, s, what)) ?? []).map((x, i) => x / under[i]!));
      };
      const typed = m("typed change to chart");
      figures[`${v.label} ${s.name}`] = Object.fromEntries([
        ["typed change to chart (ms)", typed],
        ["typed longest task (ms)", m("typed longest task")],
        ...MODES.flatMap((mode) => [
          [`${mode}: longest task (ms, budget < 50)`, m(`${mode} longest task`)],
          [`${mode}: last move to chart (ms, budget < 150)`, m(`${mode} last move to chart`)],
          [`${mode}: drag / typed (budget <= 1.5)`, m(`${mode} last move to chart`) / typed],
          // each round's drag over the typed change that follows it, at much the same load
          [
            `${mode}: drag / typed, median of rounds`,
            perRound(`${mode} last move to chart`, "typed change to chart"),
          ],
          [`${mode}: pointer moves the page handled`, m(`${mode} moves`)],
          [`${mode}: frame interval while dragging (ms, 16.7 at 60 Hz)`, m(`${mode} frame interval`)],
          [`${mode}: longest frame while dragging (ms)`, m(`${mode} longest frame`)],
        ]),
      ]);
    }
  // after / before, measured in the same run (drags alternating between the builds): the ratio of the medians, and
  // the median of each round's own ratio, which cancels a load that drifts over the run (other work on the machine)
  const ratios: Record<string, Record<string, { ofMedians: number; medianOfRounds: number }>> = {};
  if (variants.length === 2)
    for (const s of SLIDERS) {
      const figure = (what: string) => {
        const [b, a] = variants.map((v) => samples.get(key(v.label, s, what)) ?? []);
        return {
          ofMedians: median(a!) / median(b!),
          medianOfRounds: median(a!.map((x, i) => x / b![i]!)),
        };
      };
      ratios[`${s.name} after / before`] = Object.fromEntries(
        [...MODES.map((mode) => `${mode} last move to chart`), "typed change to chart"].map((w) => [
          w,
          figure(w),
        ]),
      );
    }
  const out = {
    date: new Date().toISOString(),
    loadavg: load,
    runs: RUNS,
    medians: figures,
    ratios,
    samples: Object.fromEntries(samples),
  };
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/workspace-slider.json", JSON.stringify(out, null, 2) + "\n");
  process.stderr.write(
    `${JSON.stringify(out.medians, null, 2)}\n${JSON.stringify(ratios, null, 2)}\nload ${JSON.stringify(load)}\n`,
  );
}

/** Builds the workspace, serves it (and BENCH_BEFORE_DIST) and opens triage in each until its cells settle. */
async function setup() {
  ({ browser, builds: variants } = await openBuilds());
  await measureAll();
}

function figure(variant: string, s: Slider, what: string, unit: string, budget?: number): Benchmark {
  return {
    name: `workspace/slider drag 1 s (triage ${s.name}, ${variant}): ${what}`,
    unit,
    budget,
    runs: RUNS,
    measure() {
      const v = samples.get(key(variant, s, what))?.shift();
      if (v === undefined)
        throw new Error("run with the first slider benchmark (npm run bench -- workspace)");
      return v;
    },
  };
}

const labels = BUILD_LABELS;
export const benchmarks: Benchmark[] = [
  {
    name: "workspace/slider drags (triage τ and outlier factor): setup and every drag",
    unit: "drags",
    runs: 1,
    setup,
    measure: () => RUNS * SLIDERS.length * variants.length * MODES.length,
    async teardown() {
      await closeBuilds(browser, variants);
    },
  },
  ...labels.flatMap((variant) =>
    SLIDERS.flatMap((s) => [
      ...MODES.flatMap((mode) => [
        figure(variant, s, `${mode} longest task`, "ms", 50),
        figure(variant, s, `${mode} last move to chart`, "ms", 150),
      ]),
      figure(variant, s, "typed change to chart", "ms"),
    ]),
  ),
];
