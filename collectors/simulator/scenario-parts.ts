// Pieces every scenario file builds screens and noise from: the screen chrome (decor view, toolbar, content
// frame), a list of two-line rows, and the noise the accuracy bench varies (more events, background load on
// the main thread). Scenario steps take a ScenarioCtx and a start time and return when they end.
import type { AppSim, SimView } from "./app-model";
import type { GroundTruthCase } from "./scenarios";

export const MS = 1_000_000;
export const S = 1000 * MS;

/** What the accuracy bench varies beyond the seed and the device (docs/budgets.md, "Accuracy"). */
export interface ScenarioNoise {
  /** unrelated background tasks per simulated second (scenario-noise.ts; DiagDroid's families) */
  extra?: number;
  /** background CPU load 0..1: the device runs slower by this share of its speed (DiagDroid's families) */
  load?: number;
  /** user interactions added to the scenario's own (each with its own animation); in DRAW's scenarios also as
   * many other wasteful views (distractors) competing with the case's culprit */
  extraEvents?: number;
  /** share of the main thread's time taken by other messages (0 to 0.5): frames behind them run late */
  backgroundLoad?: number;
}

export interface ScenarioCtx {
  sim: AppSim;
  cases: GroundTruthCase[];
  noise: ScenarioNoise;
}

export function screenChrome(sim: AppSim, w: number, h: number, content: SimView[]): SimView {
  const bar = sim.view("android.widget.Toolbar", [0, 0, w, 168], {
    xml_id: "toolbar",
    layout_file: "res/layout/activity_main.xml",
    background: true,
    cost: 0.12,
    children: [sim.view("android.widget.TextView", [48, 40, 600, 88], { xml_id: "title", cost: 0.15 })],
  });
  const content_ = sim.view("android.widget.FrameLayout", [0, 168, w, h - 168], {
    xml_id: "content",
    layout_file: "res/layout/activity_main.xml",
    children: content,
  });
  return sim.view("com.android.internal.policy.DecorView", [0, 0, w, h], {
    background: true,
    cost: 0.05,
    children: [sim.view("android.widget.LinearLayout", [0, 0, w, h], { children: [bar, content_] })],
  });
}

export function listRows(
  sim: AppSim,
  w: number,
  top: number,
  n: number,
  layout: string,
  rowH = 220,
): SimView[] {
  return Array.from({ length: n }, (_, i) =>
    sim.view("android.widget.LinearLayout", [0, top + i * rowH, w, rowH], {
      layout_file: layout,
      children: [
        sim.view("android.widget.TextView", [32, top + i * rowH + 24, w - 64, 80], {
          xml_id: "row_title",
          layout_file: layout,
          cost: 0.18,
        }),
        sim.view("android.widget.TextView", [32, top + i * rowH + 120, w - 64, 64], {
          xml_id: "row_subtitle",
          layout_file: layout,
          cost: 0.12,
        }),
      ],
    }),
  );
}

/** A screen holding one list of `rows` two-line rows (a message list, a sample chooser). */
export function listScreen(
  sim: AppSim,
  listId: string,
  layout: string,
  rows: number,
  rowLayout: string,
): SimView {
  const { width: w, height: h } = sim.device;
  return screenChrome(sim, w, h, [
    sim.view("android.widget.ListView", [0, 168, w, h - 168], {
      xml_id: listId,
      layout_file: layout,
      children: listRows(sim, w, 168, rows, rowLayout),
    }),
  ]);
}

/**
 * Wasteful views an app has besides the case's culprit (DRAW §VI-A: layouts and ads rank low too): ad banners
 * laid out below the screen, and placeholders painted under the image that covers them, each costing 0.2-2 ms a
 * frame. They compete with the culprit in RES and RCS.
 */
export function distractors(sim: AppSim, n: number): SimView[] {
  const { width: w, height: h } = sim.device;
  return Array.from({ length: n }, (_, i) => {
    const cost = 0.2 + 1.8 * sim.rand();
    if (i % 2 === 0)
      return sim.view("com.google.android.gms.ads.AdView", [0, h + 200 * i, w, 180], {
        xml_id: `ad_${i}`,
        layout_file: "res/layout/ad_banner.xml",
        background: true,
        cost,
      });
    const rect: [number, number, number, number] = [40 * i, 200 + 30 * i, 240, 240];
    return sim.view("android.widget.FrameLayout", rect, {
      xml_id: `thumb_${i}`,
      layout_file: "res/layout/thumbnail.xml",
      children: [
        sim.view("android.widget.ImageView", rect, { xml_id: "placeholder", background: true, cost }),
        sim.view("android.widget.ImageView", rect, { xml_id: "thumbnail", background: true, cost: 0.3 }),
      ],
    });
  });
}

/** A main-thread message: work the looper runs between frames (frames wait behind it: AppSim.mainFreeAt). */
export interface MainMessage {
  at: number;
  ms: number;
  cls: string;
  stack: string[];
}

const BACKGROUND_STACK = [
  "android.os.Handler.sendMessageAtTime(Handler.java:610)",
  "android.app.ActivityThread$H.sendMessage(ActivityThread.java:2981)",
];

/**
 * Other messages on the main thread from `from` to `to` (ns) taking `load` of its time, 4-40 ms each at random
 * gaps: what a busy process does besides the scenario (binder callbacks, GC, other components).
 */
export function backgroundMessages(
  rand: () => number,
  from: number,
  to: number,
  load: number,
): MainMessage[] {
  const out: MainMessage[] = [];
  if (!(load > 0)) return out;
  const meanMs = 22;
  for (let t = from; ;) {
    t += (-Math.log(1 - rand()) * meanMs * MS) / Math.min(load, 0.5);
    if (t >= to) return out;
    out.push({ at: t, ms: 4 + rand() * 36, cls: "android.app.ActivityThread$H", stack: BACKGROUND_STACK });
  }
}

/** Schedules main-thread messages in time order (the looper runs them FIFO), before any frame is laid out. */
export function runOnMain(sim: AppSim, messages: MainMessage[]): void {
  const main = sim.executor("android.os.MessageQueue(main)", "handler_thread", 1, () => "main", sim.pid);
  for (const m of [...messages].sort((a, b) => a.at - b.at)) sim.submit(main, m.at, m.ms, m.cls, m.stack);
}
