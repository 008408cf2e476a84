// DUNE's apps under test (§7.1) besides K-9 (scenarios.ts): Space Blaster, whose game renders far fewer and
// slower frames after devices move to a new Android release (§8.1, Figure 6), and ExoPlayer's demo app with a
// heavy computation injected on the UI thread at four of its twenty UI events (§8.4, Table 3). Each records
// which UI-event buckets regressed (bucket k = the frames after event k, §5.2.2) as its ground truth.
// Noise: extra events go in at fixed places (a lab runs one test scenario: every run must have the same events
// for the buckets to line up), background load at random times.
import type { SimView } from "./app-model";
import {
  backgroundMessages,
  listScreen,
  MS,
  runOnMain,
  S,
  screenChrome,
  type MainMessage,
  type ScenarioCtx,
} from "./scenario-parts";

export const DUNE_SCENARIOS = [
  "spaceblaster",
  "spaceblaster-regressed",
  "exoplayer",
  "exoplayer-next",
  "exoplayer-injected",
] as const;

type App = { package: string; version: string; activity: string };
// The paper names neither Space Blaster's package nor its version: these are the model's.
const SPACE_BLASTER: App = {
  package: "org.jankbook.spaceblaster",
  version: "1.0",
  activity: "org.jankbook.spaceblaster.MenuActivity",
};
const EXO = "com.google.android.exoplayer.demo";
const exo = (version: string): App => ({ package: EXO, version, activity: `${EXO}.SampleChooserActivity` });
export const DUNE_APPS: Partial<Record<string, App>> = {
  spaceblaster: SPACE_BLASTER,
  "spaceblaster-regressed": SPACE_BLASTER,
  exoplayer: exo("1.5.2"),
  // the next release, and the same release with the injected janks (§8.4's "mutated version")
  "exoplayer-next": exo("1.5.3"),
  "exoplayer-injected": exo("1.5.3"),
};

interface UiStep {
  kind: string;
  target: string;
  /** how long the screen animates after the event, s */
  anim: number;
  screen: "list" | "player" | "menu" | "game";
  /** an injected jank (ExoPlayer) or a regressed bucket (Space Blaster) */
  culprit?: boolean;
}

/** `extra` more events spread evenly through `steps` (same places in every run of the lab). */
function withExtraEvents(
  steps: UiStep[],
  extra: number,
  make: (i: number, before: UiStep) => UiStep,
): UiStep[] {
  const out = [...steps];
  for (let i = extra - 1; i >= 0; i--) {
    const at = Math.max(1, Math.round(((i + 1) * steps.length) / (extra + 1)));
    out.splice(at, 0, make(i, out[at - 1]!));
  }
  return out;
}

/** Buckets (1-based event numbers) of the culprit steps. */
const culpritBuckets = (steps: UiStep[]) => steps.flatMap((s, i) => (s.culprit ? [i + 1] : []));

function backgroundLoad(c: ScenarioCtx, from: number, to: number): MainMessage[] {
  return backgroundMessages(c.sim.rand, from, to, c.noise?.backgroundLoad ?? 0);
}

// §8.4: "selecting and playing two videos from the Internet, and change different configuration settings while
// the video is playing"; 20 interactions, janks injected when the user selects the Logging option and when the
// user touches the screen during playback: events #3, #7, #16 and #17.
const EXO_STEPS: UiStep[] = [
  { kind: "click", target: "sample_list_item", anim: 0.7, screen: "player" },
  { kind: "click", target: "menu_button", anim: 0.35, screen: "player" },
  { kind: "click", target: "menu_logging", anim: 0.4, screen: "player", culprit: true },
  { kind: "click", target: "play_pause", anim: 0.3, screen: "player" },
  { kind: "click", target: "play_pause", anim: 0.3, screen: "player" },
  { kind: "swipe", target: "seek_bar", anim: 0.5, screen: "player" },
  { kind: "click", target: "player_view", anim: 0.3, screen: "player", culprit: true },
  { kind: "click", target: "video_controls", anim: 0.4, screen: "player" },
  { kind: "click", target: "video_track_720p", anim: 0.4, screen: "player" },
  { kind: "click", target: "audio_controls", anim: 0.4, screen: "player" },
  { kind: "click", target: "audio_track_en", anim: 0.4, screen: "player" },
  { kind: "key", target: "KEYCODE_BACK", anim: 0.5, screen: "list" },
  { kind: "scroll", target: "sample_list", anim: 0.7, screen: "list" },
  { kind: "click", target: "sample_list_item", anim: 0.7, screen: "player" },
  { kind: "click", target: "menu_button", anim: 0.35, screen: "player" },
  { kind: "click", target: "menu_logging", anim: 0.4, screen: "player", culprit: true },
  { kind: "click", target: "player_view", anim: 0.3, screen: "player", culprit: true },
  { kind: "swipe", target: "seek_bar", anim: 0.5, screen: "player" },
  { kind: "click", target: "play_pause", anim: 0.3, screen: "player" },
  { kind: "key", target: "KEYCODE_BACK", anim: 0.5, screen: "list" },
];

/** The demo app's first screen: the list of sample videos. */
const SAMPLE_CHOOSER = [
  "sample_list",
  "res/layout/sample_chooser_activity.xml",
  9,
  "res/layout/sample_list_item.xml",
] as const;

function exoplayer(c: ScenarioCtx, t0: number, injected: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const list = listScreen(sim, ...SAMPLE_CHOOSER);
  const button = (id: string, i: number): SimView =>
    sim.view("android.widget.ImageButton", [40 + i * 200, h - 300, 160, 160], {
      xml_id: id,
      layout_file: "res/layout/playback_control_view.xml",
      background: true,
      cost: 0.25,
    });
  // The video is on a SurfaceView (composited by SurfaceFlinger): the app's frames draw the controls only.
  const player = sim.view("com.android.internal.policy.DecorView", [0, 0, w, h], {
    background: true,
    cost: 0.05,
    children: [
      sim.view("android.view.SurfaceView", [0, 0, w, h], { xml_id: "surface_view", cost: 0.05 }),
      sim.view(`${EXO}.PlaybackControlView`, [0, h - 360, w, 360], {
        xml_id: "controls_root",
        layout_file: "res/layout/player_activity.xml",
        background: true,
        cost: 0.3,
        children: [
          ...["prev", "rew", "play_pause", "ffwd", "next"].map(button),
          sim.view("android.widget.SeekBar", [40, h - 110, w - 80, 60], { xml_id: "seek_bar", cost: 0.4 }),
        ],
      }),
    ],
  });
  const steps = withExtraEvents(EXO_STEPS, c.noise?.extraEvents ?? 0, (i, before) => ({
    kind: i % 2 ? "swipe" : "click",
    target: i % 2 ? "seek_bar" : "play_pause",
    anim: 0.4,
    screen: before.screen,
  }));
  const times: number[] = [];
  let t = t0 + 0.3 * S;
  for (const s of steps) {
    times.push(t);
    t += (s.anim + 0.6 + 0.3 * sim.rand()) * S;
  }
  const heavy = [
    "com.google.android.exoplayer.demo.SyntheticJank.compute(SyntheticJank.java:21)",
    "com.google.android.exoplayer.demo.PlayerActivity.onOptionsItemSelected(PlayerActivity.java:402)",
  ];
  // Sillars et al.'s synthetic jank: a heavy computation on the UI thread, right after the event.
  const janks: MainMessage[] = injected
    ? steps.flatMap((s, i) =>
        s.culprit
          ? [{ at: times[i]! + 2 * MS, ms: 240 + 60 * sim.rand(), cls: `${EXO}.SyntheticJank`, stack: heavy }]
          : [],
      )
    : [];
  // §8.4: "when event #7 is flagged in a test, the next event #8 is also flagged in most of the tests, since the
  // app has not recovered yet", and more so on "lower-end devices". On a low-end phone (speed < 0.8) the event
  // after an injected jank pays for it: a collection of the jank's garbage that stops the UI thread
  // (GC_FOR_ALLOC), a third to a half of the jank.
  const gc = [
    "java.lang.Runtime.gc(Native Method)",
    "dalvik.system.VMRuntime.requestHeapTrim(VMRuntime.java)",
  ];
  const carryOver: MainMessage[] =
    injected && sim.device.speed < 0.8
      ? steps.flatMap((s, i) =>
          s.culprit && i + 1 < steps.length && !steps[i + 1]!.culprit
            ? [
                {
                  at: times[i + 1]! + 2 * MS,
                  ms: 90 + 40 * sim.rand(),
                  cls: "dalvik.system.VMRuntime",
                  stack: gc,
                },
              ]
            : [],
        )
      : [];
  janks.push(...carryOver);
  const end = t + 0.5 * S;
  const main = [...janks, ...backgroundLoad(c, t0, end)];
  if (main.length) runOnMain(sim, main);
  steps.forEach((s, i) => {
    sim.input(times[i]!, s.kind, s.target);
    sim.animate(times[i]!, times[i]! + s.anim * S, s.screen === "list" ? list : player, {
      layoutFirst: s.kind !== "swipe",
    });
  });
  c.cases.push({
    case: injected ? "exoplayer-injected" : "exoplayer",
    paper: "DUNE §8.4 (Table 3)",
    finding: injected
      ? "a heavy computation on the UI thread after events #3, #7, #16 and #17 (selecting Logging, touching the video)"
      : "no injected jank",
    culprit: { janky_events: injected ? culpritBuckets(steps) : [], events: steps.length },
  });
  return end;
}

// §8.1: Space Blaster "renders 2,145 frames, only 6 janky" on the historical device and "only 176 frames, average
// 144 ms" after the upgrade to Android 5.0. Modelled as the game view's draw becoming that slow on the upgraded
// OS (the paper does not say why); the menu before and after the game is unaffected.
const MENU_LAYOUT = "res/layout/menu.xml";

function spaceBlaster(c: ScenarioCtx, t0: number, regressed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const art = { xml_id: "title_art", layout_file: MENU_LAYOUT, background: true, cost: 0.8 };
  const menu = screenChrome(sim, w, h, [
    sim.view("android.widget.ImageView", [0, 168, w, 900], art),
    ...["play_button", "options_button"].map((id, i) =>
      sim.view("android.widget.Button", [200, 1200 + i * 220, w - 400, 180], {
        xml_id: id,
        layout_file: MENU_LAYOUT,
        background: true,
        cost: 0.3,
      }),
    ),
  ]);
  const game = sim.view("com.android.internal.policy.DecorView", [0, 0, w, h], {
    background: true,
    cost: 0.05,
    children: [
      sim.view("org.jankbook.spaceblaster.GameView", [0, 0, w, h], {
        xml_id: "game_view",
        layout_file: "res/layout/game.xml",
        background: true,
        cost: 3.2,
      }),
    ],
  });
  const own: UiStep[] = [{ kind: "click", target: "play_button", anim: 0, screen: "game", culprit: true }];
  for (let i = 0; i < 10; i++)
    own.push({
      kind: i % 2 ? "click" : "swipe",
      target: "game_view",
      anim: 0,
      screen: "game",
      culprit: true,
    });
  own.push({ kind: "key", target: "KEYCODE_BACK", anim: 0.6, screen: "menu" });
  const steps = withExtraEvents(own, c.noise?.extraEvents ?? 0, (i) => ({
    kind: i % 2 ? "click" : "swipe",
    target: "game_view",
    anim: 0,
    screen: "game",
    culprit: true,
  }));
  const times: number[] = [];
  let t = t0 + 0.3 * S;
  for (const s of steps) {
    times.push(t);
    t += (s.screen === "game" ? 0.7 + 0.3 * sim.rand() : 0.2) * S;
  }
  const end = times.at(-1)! + 0.8 * S;
  const load = backgroundLoad(c, t0, end);
  if (load.length) runOnMain(sim, load);
  sim.animate(t0, t0 + 0.3 * S, menu, { layoutFirst: true });
  steps.forEach((s, i) => {
    sim.input(times[i]!, s.kind, s.target);
    // the game redraws every frame until the next event; the menu animates for s.anim
    const until = s.screen === "game" ? (times[i + 1] ?? end) : times[i]! + s.anim * S;
    sim.animate(times[i]!, until, s.screen === "game" ? game : menu, {
      layoutFirst: i === 0 || s.screen === "menu",
      extraDrawMs: regressed && s.screen === "game" ? 125 + 40 * sim.rand() : 0,
    });
  });
  c.cases.push({
    case: regressed ? "spaceblaster-regressed" : "spaceblaster",
    paper: "DUNE §8.1 (Figure 6)",
    finding: regressed
      ? "the game renders a fraction of its frames, each far slower, on the upgraded OS"
      : "baseline run (no regression)",
    culprit: { regressed, regressed_events: regressed ? culpritBuckets(steps) : [], events: steps.length },
  });
  return end;
}

type Step = (c: ScenarioCtx, t0: number) => number;
export const DUNE_STEPS: Record<(typeof DUNE_SCENARIOS)[number], Step[]> = {
  spaceblaster: [(c, t0) => spaceBlaster(c, t0, false)],
  "spaceblaster-regressed": [(c, t0) => spaceBlaster(c, t0, true)],
  exoplayer: [(c, t0) => exoplayer(c, t0, false)],
  "exoplayer-next": [(c, t0) => exoplayer(c, t0, false)],
  "exoplayer-injected": [(c, t0) => exoplayer(c, t0, true)],
};
