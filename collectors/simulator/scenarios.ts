// The papers' cases as scenarios of the simulated app. Each returns the model's output plus its ground
// truth: which groups, events and views an analysis should single out.
import { AppSim } from "./app-model";
import type { DeviceProfile } from "./device-profiles";
import { mulberry32 } from "./random";
import { backgroundTasks } from "./scenario-noise";
import { listRows, listScreen, screenChrome, type ScenarioCtx, type ScenarioNoise } from "./scenario-parts";
import { DIAGDROID_SCENARIOS } from "./scenarios-diagdroid";
import { DRAW_APPS, DRAW_SCENARIOS, DRAW_STEPS } from "./scenarios-draw";
import { DUNE_APPS, DUNE_SCENARIOS, DUNE_STEPS } from "./scenarios-dune";

const MS = 1_000_000;
const S = 1000 * MS;

export interface GroundTruthCase {
  case: string;
  paper: string;
  finding: string;
  /** what the analysis should single out: task classes and contexts, events, or views */
  culprit: Record<string, unknown>;
}

export interface GroundTruth {
  scenario: string;
  seed: number;
  package: string;
  app_version: string;
  device: DeviceProfile;
  duration_ns: number;
  cases: GroundTruthCase[];
  counts: {
    frames: number;
    janky_frames: number;
    tasks: number;
    contexts: number;
    render_ops: number;
    ui_events: number;
  };
}

export interface Timeline {
  sim: AppSim;
  duration: number;
  truth: GroundTruth;
}

const BUILT_IN = [
  "paper-cases",
  "openlaw",
  "openlaw-fixed",
  "fbreader",
  "fbreader-fixed",
  "transportr",
  "transportr-fixed",
  "k9",
  "k9-regressed",
  ...DUNE_SCENARIOS,
  ...DRAW_SCENARIOS,
] as const;

export type { ScenarioNoise };
export type Ctx = ScenarioCtx;

/** A scenario defined in scenarios-<paper>.ts; those files import only types from here (no import cycle at load). */
export interface ScenarioDef {
  app: { package: string; version: string; activity: string };
  steps: ((c: Ctx, t0: number) => number)[];
}

// One line per file of scenarios.
const REGISTERED = {
  ...DIAGDROID_SCENARIOS,
};

export const SCENARIOS = [...BUILT_IN, ...(Object.keys(REGISTERED) as (keyof typeof REGISTERED)[])];
export type ScenarioName = (typeof BUILT_IN)[number] | keyof typeof REGISTERED;

const JAVA = (frames: string[]) => frames;

// DiagDroid §6.1 case 1 (OpenLaw, Figure 5): LawListFragment.onCreate loads the list from the database
// (LawSectionList, c1, line 87) and "in parallel" updates it from the network (UpdateLawList, c2, line 91), both
// with AsyncTask.execute(), so both run on the one serial executor. The user leaves the list and comes back
// while an update still runs: the new onCreate's list load waits behind the old update. The two contexts are
// one frame apart (Figure 5). Fixed: executeOnExecutor(THREAD_POOL_EXECUTOR), the paper's fix.
function openlaw(c: Ctx, t0: number, fixed = false): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const serial = fixed
    ? sim.executor("android.os.AsyncTask.THREAD_POOL_EXECUTOR", "async_task", 5, (i) => `AsyncTask #${i + 1}`)
    : sim.executor("android.os.AsyncTask$SerialExecutor", "async_task", 1, (i) => `AsyncTask #${i + 1}`);
  const main = sim.executor("android.os.MessageQueue(main)", "handler_thread", 1, () => "main", sim.pid);
  const root = screenChrome(sim, w, h, [
    sim.view("android.widget.ListView", [0, 168, w, h - 168], {
      xml_id: "law_list",
      layout_file: "res/layout/fragment_law_list.xml",
      children: listRows(sim, w, 168, 7, "res/layout/law_list_item.xml"),
    }),
  ]);
  const onCreate = (line: number) =>
    JAVA([
      "android.os.AsyncTask.executeOnExecutor(Native Method)",
      "android.os.AsyncTask.execute(AsyncTask.java:535)",
      `de.jdsoft.law.LawListFragment.onCreate(LawListFragment.java:${line})`,
      "android.app.Fragment.performCreate(Fragment.java:1678)",
      "android.app.FragmentManagerImpl.moveToState(FragmentManager.java:894)",
    ]);
  const c1 = onCreate(87);
  const c2 = onCreate(91);
  const post = JAVA([
    "android.os.Handler.sendMessageAtTime(Handler.java:610)",
    "android.os.AsyncTask.postResult(AsyncTask.java:327)",
    "android.os.AsyncTask$2.call(AsyncTask.java:305)",
  ]);
  const created = (at: number, updateMs: number) => {
    const list = sim.submit(serial, at, 120, "de.jdsoft.law.data.LawSectionList", c1);
    sim.submit(main, list.ended, 6, "android.os.AsyncTask$InternalHandler", post);
    sim.animate(list.ended, list.ended + 0.35 * S, root, { layoutFirst: true });
    const update = sim.submit(serial, at + 2 * MS, updateMs, "de.jdsoft.law.data.UpdateLawList", c2);
    sim.submit(main, update.ended, 4, "android.os.AsyncTask$InternalHandler", post);
    return list;
  };
  sim.input(t0 + 0.2 * S, "click", "launcher_icon");
  sim.animate(t0 + 0.2 * S, t0 + 0.7 * S, root, { layoutFirst: true });
  created(t0 + 0.5 * S, 1800);
  const waited: number[] = [];
  // open a law and come back to the list (a new LawListFragment, a new onCreate) while an update runs
  for (const [at, updateMs] of [
    [1.1, 1500],
    [3.0, 1500],
  ] as const) {
    sim.input(t0 + (at - 0.4) * S, "click", "law_list_item");
    sim.animate(t0 + (at - 0.4) * S, t0 + (at - 0.1) * S, root);
    sim.input(t0 + at * S, "key", "KEYCODE_BACK");
    waited.push(created(t0 + at * S, updateMs).task_id);
  }
  sim.input(t0 + 5.2 * S, "scroll", "law_list");
  sim.animate(t0 + 5.2 * S, t0 + 5.9 * S, root);
  c.cases.push({
    case: "openlaw",
    paper: "DiagDroid §6.1 case 1 (Figure 5)",
    finding: fixed
      ? "fixed: LawSectionList runs on THREAD_POOL_EXECUTOR beside UpdateLawList"
      : "LawSectionList (c1) waits > 500 ms on AsyncTask's serial executor behind UpdateLawList (c2)",
    culprit: {
      task_class: "de.jdsoft.law.data.LawSectionList",
      context_frame: c1[2],
      blocked_by: "de.jdsoft.law.data.UpdateLawList",
      category: "async_task",
      pool_capacity: fixed ? 5 : 1,
      task_ids: waited,
    },
  });
  return t0 + 6 * S;
}

// DiagDroid §6.1 case 3 (FBReader, Figure 7): image loading on the paper's pool of 3
// (IMAGE_LOADING_THREADS_NUMBER = 3); a page needs 5 images at once, each load long enough to be anomalous by
// itself ("both the execution and queuing time of c1 tasks are anomalous"). Fixed: the pool of 5 the paper
// reads off the report ("5 may be good"), as large as a page's images, so a page's loads start together.
function fbreader(c: Ctx, t0: number, fixed = false): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const pool = sim.executor(
    "java.util.concurrent.ThreadPoolExecutor",
    "thread_pool_executor",
    fixed ? 5 : 3,
    (i) => `pool-2-thread-${i + 1}`,
  );
  const page = sim.view("org.geometerplus.zlibrary.ui.android.view.ZLAndroidWidget", [0, 168, w, h - 168], {
    xml_id: "main_view",
    layout_file: "res/layout/main.xml",
    cost: 2.2,
    background: true,
  });
  const root = screenChrome(sim, w, h, [page]);
  const stack = JAVA([
    "java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1339)",
    "org.geometerplus.zlibrary.ui.android.image.ZLAndroidImageLoader.startImageLoading(ZLAndroidImageLoader.java:58)",
    "org.geometerplus.fbreader.fbreader.FBView.onPaint(FBView.java:402)",
  ]);
  const ids: number[] = [];
  for (const [at, n] of [
    [0.3, 5],
    [2.8, 5],
  ] as const) {
    sim.input(t0 + at * S, "swipe", "main_view");
    sim.animate(t0 + at * S, t0 + (at + 0.5) * S, root, { layoutFirst: true });
    for (let i = 0; i < n; i++)
      ids.push(
        sim.submit(
          pool,
          t0 + (at + 0.45) * S + i * 2 * MS,
          650 + sim.rand() * 250,
          "org.geometerplus.zlibrary.ui.android.image.ZLAndroidImageLoader$1",
          stack,
        ).task_id,
      );
  }
  c.cases.push({
    case: "fbreader",
    paper: "DiagDroid §6.2 (Figure 7)",
    finding: fixed
      ? "fixed: image loads run on a pool of 5"
      : "image loads queue on a ThreadPoolExecutor of capacity 3; a larger pool (about 5) removes the waiting",
    culprit: {
      task_class: "org.geometerplus.zlibrary.ui.android.image.ZLAndroidImageLoader$1",
      context_frame: stack[1],
      category: "thread_pool_executor",
      pool_capacity: fixed ? 5 : 3,
      task_ids: ids,
    },
  });
  return t0 + 5 * S;
}

// DiagDroid §6.2 case 4 (Transportr): every keystroke posts a filtering message that runs a network query
// on one handler thread, so messages pile up in its queue. Fixed: a new keystroke cancels the query still
// running ("the old queries are no longer useful, and hence should be canceled").
function transportr(c: Ctx, t0: number, fixed = false): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const handler = sim.executor(
    "android.os.MessageQueue(LocationFilter)",
    "handler_thread",
    1,
    () => "LocationFilter",
  );
  const service = sim.executor(
    "android.app.IntentService[SyncService]",
    "intent_service",
    1,
    () => "IntentService[SyncService]",
  );
  const edit = sim.view("android.widget.AutoCompleteTextView", [32, 200, w - 64, 140], {
    xml_id: "from_location",
    layout_file: "res/layout/fragment_directions.xml",
    background: true,
    cost: 0.4,
  });
  const root = screenChrome(sim, w, h, [
    edit,
    sim.view("android.widget.ListView", [0, 360, w, 900], {
      xml_id: "suggestions",
      layout_file: "res/layout/fragment_directions.xml",
      children: listRows(sim, w, 360, 4, "res/layout/location_item.xml"),
    }),
  ]);
  const stack = JAVA([
    "android.os.Handler.sendMessageAtTime(Handler.java:610)",
    "android.widget.Filter.filter(Filter.java:101)",
    "de.grobox.transportr.locations.LocationAdapter.onTextChanged(LocationAdapter.java:96)",
    "android.widget.TextView.sendOnTextChanged(TextView.java:9347)",
  ]);
  const svcStack = JAVA([
    "android.app.ContextImpl.startService(ContextImpl.java:1531)",
    "de.grobox.transportr.data.SyncManager.requestSync(SyncManager.java:44)",
    "de.grobox.transportr.MapActivity.onResume(MapActivity.java:130)",
  ]);
  const thrStack = JAVA([
    "java.lang.Thread.start(Thread.java:883)",
    "de.grobox.transportr.utils.Analytics.send(Analytics.java:31)",
    "de.grobox.transportr.MapActivity.onResume(MapActivity.java:133)",
  ]);
  sim.input(t0 + 0.1 * S, "click", "from_location");
  sim.animate(t0 + 0.1 * S, t0 + 0.4 * S, root, { layoutFirst: true });
  sim.submit(
    sim.executor("java.lang.Thread", "thread", null, () => "Thread-7"),
    t0 + 0.15 * S,
    200,
    "de.grobox.transportr.utils.Analytics$1",
    thrStack,
  );
  const ids: number[] = [];
  let handlerFree = 0;
  for (let i = 0; i < 6; i++) {
    const at = t0 + (0.5 + i * 0.3) * S;
    sim.input(at, "text", "from_location");
    sim.animate(at, at + 0.12 * S, root);
    let ms = 600 + sim.rand() * 300;
    const start = Math.max(at + 1 * MS, handlerFree);
    if (fixed && i < 5) ms = Math.min(ms, ((at + 0.3 * S + 1 * MS - start) * sim.device.speed) / MS);
    const task = sim.submit(
      handler,
      at + 1 * MS,
      ms,
      "de.grobox.transportr.locations.LocationAdapter$1",
      stack,
    );
    handlerFree = task.ended;
    ids.push(task.task_id);
  }
  for (let i = 0; i < 2; i++)
    sim.submit(service, t0 + (2.5 + i * 0.05) * S, 300, "de.grobox.transportr.data.SyncService", svcStack);
  c.cases.push({
    case: "transportr",
    paper: "DiagDroid §6.2 (Figure 8)",
    finding: fixed
      ? "fixed: a new keystroke cancels the running filter query"
      : "filter messages queue on the LocationFilter handler thread: long queuing and long execution",
    culprit: {
      task_class: "de.grobox.transportr.locations.LocationAdapter$1",
      context_frame: stack[2],
      category: "handler_thread",
      pool_capacity: 1,
      task_ids: ids,
    },
  });
  return t0 + 5 * S;
}

// DUNE §8.1 (K-9 Mail 5.006): opening a message lags after the device's OS upgrade; other events do not.
function k9(c: Ctx, t0: number, regressed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const list = listScreen(
    sim,
    "message_list",
    "res/layout/message_list_fragment.xml",
    8,
    "res/layout/message_list_item.xml",
  );
  const body = sim.view("com.fsck.k9.view.MessageWebView", [0, 420, w, h - 420], {
    xml_id: "message_content",
    layout_file: "res/layout/message_view.xml",
    cost: 1.5,
  });
  const message = screenChrome(sim, w, h, [
    sim.view("com.fsck.k9.view.MessageHeader", [0, 168, w, 252], {
      xml_id: "header_container",
      layout_file: "res/layout/message_view_header.xml",
      background: true,
      cost: 0.5,
    }),
    body,
  ]);
  const serial = sim.executor(
    "android.os.AsyncTask$SerialExecutor",
    "async_task",
    1,
    (i) => `AsyncTask #${i + 1}`,
  );
  const load = JAVA([
    "android.os.AsyncTask.execute(AsyncTask.java:535)",
    "com.fsck.k9.ui.messageview.MessageViewFragment.displayMessage(MessageViewFragment.java:188)",
    "com.fsck.k9.activity.MessageList.openMessage(MessageList.java:1210)",
  ]);
  let t = t0 + 0.2 * S;
  for (let round = 0; round < 2; round++) {
    sim.input(t, "scroll", "message_list");
    sim.animate(t, t + 0.8 * S, list);
    t += 1.0 * S;
    sim.input(t, "click", "message_list_item");
    sim.submit(serial, t + 2 * MS, 120, "com.fsck.k9.ui.messageview.MessageLoader", load);
    sim.animate(t, t + 0.7 * S, message, {
      layoutFirst: true,
      extraDrawMs: regressed ? 55 + sim.rand() * 40 : 0,
    });
    t += 1.1 * S;
    sim.input(t, "key", "KEYCODE_BACK");
    sim.animate(t, t + 0.3 * S, list, { layoutFirst: true });
    t += 0.6 * S;
  }
  c.cases.push({
    case: "k9",
    paper: "DUNE §8.1 (Figure 7)",
    finding: regressed
      ? "opening a message renders fewer, slower frames on the upgraded OS"
      : "baseline run (no regression)",
    culprit: { regressed, event: "click message_list_item" },
  });
  return t;
}

const APPS: Record<string, { package: string; version: string; activity: string }> = {
  "paper-cases": {
    package: "org.jankbook.sample",
    version: "1.4.0",
    activity: "org.jankbook.sample.MainActivity",
  },
  k9: { package: "com.fsck.k9", version: "5.006", activity: "com.fsck.k9.activity.MessageList" },
};

export function appFor(scenario: ScenarioName) {
  if (scenario in REGISTERED) return REGISTERED[scenario as keyof typeof REGISTERED].app;
  return (
    { ...DUNE_APPS, ...DRAW_APPS }[scenario] ?? (scenario.startsWith("k9") ? APPS.k9! : APPS["paper-cases"]!)
  );
}

/** Builds the whole scenario up front from the seed; the phone then plays it out in device time. */
export function buildScenario(
  scenario: ScenarioName,
  device: DeviceProfile,
  seed: number,
  viewHooks = true,
  noise: ScenarioNoise = {},
): Timeline {
  const app = appFor(scenario);
  const rand = mulberry32(seed);
  const pid = 3000 + Math.floor(rand() * 20000);
  const load = Math.min(0.9, Math.max(0, noise.load ?? 0));
  const sim = new AppSim(
    rand,
    { ...device, speed: device.speed * (1 - load) },
    app.package,
    pid,
    app.activity,
  );
  sim.viewHooks = viewHooks;
  const c: Ctx = { sim, cases: [], noise };
  let t = 0;
  const steps: Record<string, ((c: Ctx, t0: number) => number)[]> = {
    "paper-cases": [openlaw, fbreader, transportr, DRAW_STEPS.faceq[0]!, DRAW_STEPS.picsplay[0]!],
    openlaw: [openlaw],
    "openlaw-fixed": [(c, t0) => openlaw(c, t0, true)],
    fbreader: [fbreader],
    "fbreader-fixed": [(c, t0) => fbreader(c, t0, true)],
    transportr: [transportr],
    "transportr-fixed": [(c, t0) => transportr(c, t0, true)],
    k9: [(c, t0) => k9(c, t0, false)],
    "k9-regressed": [(c, t0) => k9(c, t0, true)],
    ...DUNE_STEPS,
    ...DRAW_STEPS,
  };
  for (const step of steps[scenario] ?? REGISTERED[scenario as keyof typeof REGISTERED].steps) t = step(c, t);
  if (noise.extra) backgroundTasks(c, 0, t, noise.extra);
  const duration = Math.ceil(t / S) * S;
  sim.log.sort((a, b) => a.ts - b.ts);
  const janky = sim.frames.filter((f) => f.completed - f.intended > f.period).length;
  const events = sim.log.filter((l) => typeof l.record !== "string" && l.record.type === "input").length;
  return {
    sim,
    duration,
    truth: {
      scenario,
      seed,
      package: app.package,
      app_version: app.version,
      device,
      duration_ns: duration,
      cases: c.cases,
      counts: {
        frames: sim.frames.length,
        janky_frames: janky,
        tasks: sim.tasks.length,
        contexts: sim.contexts.size,
        render_ops: sim.renderOpCount.n,
        ui_events: events,
      },
    },
  };
}
