// DiagDroid §6.1's cases 2 and 5 as scenarios of the simulated app (cases 1, 3 and 4 are in scenarios.ts),
// each with a healthy counterpart. Only types come from scenarios.ts: it spreads DIAGDROID_SCENARIOS at load.
import type { SimView } from "./app-model";
import type { DeviceProfile } from "./device-profiles";
import type { Ctx, ScenarioDef } from "./scenarios";

const MS = 1_000_000;
const S = 1000 * MS;

/** Devices of DiagDroid's lab that case 5 needs: Android 4.2 and 4.3 phones (§6.3 names the GT-I9105P) with the
 * Webkit WebView, and the Lenovo K50-T5 on Android 5.1, where the case did not appear (§6.1 case 5). */
export const OLD_DEVICES: Record<string, DeviceProfile> = {
  "gt-i9105p": {
    model: "GT-I9105P",
    manufacturer: "samsung",
    device: "s2vep",
    // DiagDroid §6: "Samsung GT-I9105P (Android 4.1.2)"
    sdk_release: "4.1.2",
    api_level: 16,
    cpu_abi: "armeabi-v7a",
    width: 480,
    height: 800,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 66,
    speed: 0.45,
  },
  "gt-i9300": {
    model: "GT-I9300",
    manufacturer: "samsung",
    device: "m0",
    sdk_release: "4.3",
    api_level: 18,
    cpu_abi: "armeabi-v7a",
    width: 720,
    height: 1280,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 81,
    speed: 0.55,
  },
  "k50-t5": {
    model: "Lenovo K50-T5",
    manufacturer: "LENOVO",
    device: "K50-T5",
    sdk_release: "5.1",
    api_level: 22,
    cpu_abi: "arm64-v8a",
    width: 1080,
    height: 1920,
    refresh_hz: 60,
    network: "wifi",
    battery_level: 72,
    speed: 0.6,
  },
};

/** Case 5 appears only with the Webkit WebView: "findAll does not introduce performance issues in Android
 * versions above 4.4 because the Chromium-based WebView replace the Webkit-based WebView". */
export const webkitWebView = (d: DeviceProfile) => d.api_level <= 19;

/** A screen: a toolbar over one content view. */
function screen(c: Ctx, content: SimView, layout: string): SimView {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const bar = sim.view("android.widget.Toolbar", [0, 0, w, Math.round(h * 0.07)], {
    xml_id: "toolbar",
    layout_file: layout,
    background: true,
    cost: 0.15,
  });
  return sim.view("com.android.internal.policy.DecorView", [0, 0, w, h], {
    background: true,
    cost: 0.05,
    children: [sim.view("android.widget.LinearLayout", [0, 0, w, h], { children: [bar, content] })],
  });
}

const FARE = "com.dougkeen.bart.activities.ViewDeparturesActivity$GetRouteFareTask";
const DEPARTURES = "com.dougkeen.bart.activities.ViewDeparturesActivity$GetRealTimeDeparturesTask";

// Case 2 (BartRunner, Figure 6): every route the user swipes to starts a departures load (c2) and a fare load
// (c1) with AsyncTask.execute, one serial executor. Leaving a route does not cancel its tasks (cancel() is
// never called, and isCancelled() is only checked before the network call), so the fare of the route on
// screen waits behind the loads of every route already left. Fixed: onStop cancels them and doInBackground
// polls isCancelled(), the paper's two steps: an obsolete task that had not started ends at once, a running one
// at its next poll.
function bartrunner(c: Ctx, t0: number, fixed: boolean): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const serial = sim.executor(
    "android.os.AsyncTask$SerialExecutor",
    "async_task",
    1,
    (i) => `AsyncTask #${i + 1}`,
  );
  const list = sim.view("android.widget.ListView", [0, Math.round(h * 0.07), w, Math.round(h * 0.93)], {
    xml_id: "departures_list",
    layout_file: "res/layout/departures.xml",
    background: true,
    cost: 1.4,
  });
  const root = screen(c, list, "res/layout/departures.xml");
  const stack = (task: string, line: number) => [
    "android.os.AsyncTask.execute(AsyncTask.java:535)",
    `com.dougkeen.bart.activities.ViewDeparturesActivity.${task}(ViewDeparturesActivity.java:${line})`,
    "com.dougkeen.bart.activities.ViewDeparturesActivity.onStart(ViewDeparturesActivity.java:214)",
    "android.app.Instrumentation.callActivityOnStart(Instrumentation.java:1256)",
  ];
  const fareStack = stack("getFare", 402);
  const departuresStack = stack("fetchLatestDepartures", 371);
  const routes = 4 + Math.floor(sim.rand() * 3);
  const opened: number[] = [];
  for (let r = 0, at = t0 + 0.3 * S; r < routes; r++, at += (0.7 + sim.rand() * 0.3) * S) opened.push(at);
  let free = 0;
  let last = t0;
  const fares: number[] = [];
  // Start and end of one load on the serial executor, cut short when it is cancelled at `cancelAt`.
  const load = (at: number, ms: number, cls: string, ctx: string[], cancelAt: number | null) => {
    const start = Math.max(at, free);
    let dur = (ms * MS) / sim.device.speed;
    if (cancelAt !== null)
      dur = start >= cancelAt ? 0.3 * MS : Math.min(dur, cancelAt - start + sim.rand() * 50 * MS);
    const task = sim.submit(serial, at, (dur * sim.device.speed) / MS, cls, ctx);
    free = task.ended;
    last = Math.max(last, task.ended);
    return task;
  };
  for (const [r, at] of opened.entries()) {
    sim.input(at, r === 0 ? "click" : "swipe", r === 0 ? "route_item" : "departures_list");
    sim.animate(at, at + 0.35 * S, root, { layoutFirst: true });
    const leftAt = fixed ? (opened[r + 1] ?? null) : null;
    // Figure 6: c2 (departures) averaged 787 ms, c1 (fare) 1420 ms, both with long tails.
    load(at + 2 * MS, 450 + sim.rand() * 700, DEPARTURES, departuresStack, leftAt);
    fares.push(load(at + 3 * MS, 800 + sim.rand() * 1300, FARE, fareStack, leftAt).task_id);
  }
  const end = Math.max(last, opened.at(-1)!) + 0.5 * S;
  sim.input(end - 0.4 * S, "scroll", "departures_list");
  sim.animate(end - 0.4 * S, end - 0.1 * S, root);
  c.cases.push({
    case: fixed ? "bartrunner-fixed" : "bartrunner",
    paper: "DiagDroid §6.1 case 2 (Figure 6)",
    finding: fixed
      ? "fixed: leaving a route cancels its loads, which stop at their next isCancelled() check"
      : "fare loads (c1) wait on AsyncTask's serial executor behind the departures and fare loads of routes the user already left (c1, c2): obsolete tasks are not cancelled",
    culprit: {
      task_class: FARE,
      context_frame: fareStack[1],
      blocked_by: [FARE, DEPARTURES],
      category: "async_task",
      pool_capacity: 1,
      routes,
      route_opened_ns: opened,
      task_ids: fares,
    },
  });
  return end;
}

const FIND = "android.webkit.WebViewCore$EventHub$1";

// Case 5 (Lucid Browser, Figure 9): the find bar calls WebView.findAll on every keystroke. On the Webkit WebView
// the search runs as a message on WebViewCore's one thread, so searches for obsolete prefixes queue like case 1's
// sequential tasks; on the Chromium WebView (Android 5.1 here) the search runs in the renderer, outside the
// app's Java executors, and only its result comes back to the main looper.
function lucidBrowser(c: Ctx, t0: number): number {
  const { sim } = c;
  const { width: w, height: h } = sim.device;
  const webkit = webkitWebView(sim.device);
  const core = sim.executor(
    "android.os.MessageQueue(WebViewCoreThread)",
    "handler_thread",
    1,
    () => "WebViewCoreThread",
  );
  const main = sim.executor("android.os.MessageQueue(main)", "handler_thread", 1, () => "main", sim.pid);
  const page = sim.view(
    webkit ? "android.webkit.WebView" : "org.chromium.android_webview.AwContents",
    [0, Math.round(h * 0.07), w, Math.round(h * 0.85)],
    {
      xml_id: "webview",
      layout_file: "res/layout/main.xml",
      cost: 2.5,
    },
  );
  const root = screen(c, page, "res/layout/main.xml");
  const onText = [
    "com.powerpoint45.lucidbrowser.FindBar$1.onTextChanged(FindBar.java:58)",
    "android.widget.TextView.sendOnTextChanged(TextView.java:7408)",
  ];
  const findStack = [
    "android.os.Handler.sendMessageAtTime(Handler.java:473)",
    "android.webkit.WebViewCore.sendMessage(WebViewCore.java:2143)",
    "android.webkit.WebViewClassic.findAllBody(WebViewClassic.java:3622)",
    "android.webkit.WebView.findAll(WebView.java:1400)",
    ...onText,
  ];
  // The find bar clears the previous matches first: another message on the same thread, posted before the search.
  const clearStack = [
    "android.os.Handler.sendMessageAtTime(Handler.java:473)",
    "android.webkit.WebViewCore.sendMessage(WebViewCore.java:2143)",
    "android.webkit.WebViewClassic.clearMatches(WebViewClassic.java:3710)",
    "android.webkit.WebView.clearMatches(WebView.java:1456)",
    ...onText,
  ];
  const resultStack = [
    "android.os.Handler.sendMessageAtTime(Handler.java:596)",
    "org.chromium.android_webview.AwContents.onFindResultReceived(AwContents.java:2311)",
    "org.chromium.base.SystemMessageHandler.handleMessage(SystemMessageHandler.java:41)",
  ];
  const finds: number[] = [];
  let at = t0 + 0.3 * S;
  sim.input(at, "click", "menu_find");
  sim.animate(at, at + 0.3 * S, root, { layoutFirst: true });
  let last = at;
  for (const word of ["timetable", "station"]) {
    at += 0.6 * S;
    for (let k = 0; k < word.length; k++, at += (0.12 + sim.rand() * 0.1) * S) {
      sim.input(at, "text", "find_text");
      sim.animate(at, at + 0.1 * S, root);
      if (webkit) {
        sim.submit(
          core,
          at + 0.5 * MS,
          15 + sim.rand() * 20,
          "android.webkit.WebViewCore$EventHub$1",
          clearStack,
        );
        // A search of a long page: hundreds of ms on a 2013 phone, shorter as the prefix narrows it.
        const t = sim.submit(core, at + 1 * MS, 180 + sim.rand() * 160 - k * 8, FIND, findStack);
        finds.push(t.task_id);
        last = Math.max(last, t.ended);
      } else {
        const r = sim.submit(
          main,
          at + (20 + sim.rand() * 30) * MS,
          1 + sim.rand() * 2,
          "org.chromium.base.SystemMessageHandler",
          resultStack,
        );
        last = Math.max(last, r.ended);
      }
    }
  }
  const end = Math.max(last, at) + 0.5 * S;
  c.cases.push({
    case: webkit ? "lucid-browser" : "lucid-browser-chromium",
    paper: "DiagDroid §6.1 case 5 (Figure 9)",
    finding: webkit
      ? "WebView.findAll on every keystroke queues searches on WebViewCore's one thread (Webkit WebView, Android ≤ 4.4)"
      : "Chromium WebView: findAll searches in the renderer; nothing queues on the app's executors",
    culprit: {
      task_class: FIND,
      context_frame: findStack[3],
      category: "handler_thread",
      pool_capacity: 1,
      webkit,
      task_ids: finds,
    },
  });
  return end;
}

const BART = {
  package: "com.dougkeen.bart",
  version: "2.1.4",
  activity: "com.dougkeen.bart.activities.ViewDeparturesActivity",
};
const LUCID = {
  package: "com.powerpoint45.lucidbrowser",
  version: "1.7.3",
  activity: "com.powerpoint45.lucidbrowser.MainActivity",
};

export const DIAGDROID_SCENARIOS = {
  bartrunner: { app: BART, steps: [(c, t0) => bartrunner(c, t0, false)] },
  "bartrunner-fixed": { app: BART, steps: [(c, t0) => bartrunner(c, t0, true)] },
  "lucid-browser": { app: LUCID, steps: [lucidBrowser] },
} satisfies Record<string, ScenarioDef>;
