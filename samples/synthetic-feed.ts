// A seeded, synthetic sample run so a fresh `npm start` shows real charts. Marked synthetic in the
// manifest and the UI. Kept while notebooks and tests still name synthetic-feed-scroll; the sample runs
// collected from the simulated phone (samples/generate.ts) are the realistic ones.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { bundleTableFromRows, makeBundleTable } from "../bundle/table-builder";
import { mulberry32 } from "../collectors/simulator/random";
import { PROFILES, upgraded } from "../collectors/simulator/device-profiles";
import { profileContext } from "./profile-context";

const MS = 1_000_000;

export async function generateSample(outRoot: string, seed = 42) {
  const rand = mulberry32(seed);
  const runId = "synthetic-feed-scroll";
  const refreshHz = 60;
  const period = 1e9 / refreshHz;
  const t0 = 5_000_000_000;
  const seconds = 30;

  // UI events: a scroll every ~1.5 s, a few clicks.
  const evTs: number[] = [];
  const evKind: string[] = [];
  const evTarget: string[] = [];
  for (let t = 1e9; t < seconds * 1e9; t += 1.2e9 + rand() * 0.6e9) {
    evTs.push(t0 + Math.round(t));
    const click = rand() < 0.25;
    evKind.push(click ? "click" : "scroll");
    evTarget.push(click ? "feed_item" : "feed_list");
  }

  // Frames: mostly smooth; janky bursts for 300 ms after some scrolls (image decoding on the UI thread).
  const n = seconds * refreshHz;
  const vsync = new BigInt64Array(n);
  const completed = new BigInt64Array(n);
  const dur: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = t0 + i * period;
    const afterEvent = evTs.some(
      (e, k) => evKind[k] === "scroll" && start >= e && start < e + 300 * MS && k % 3 === 1,
    );
    const d = afterEvent ? (18 + rand() * 30) * MS : (5 + rand() * 7) * MS + (rand() < 0.02 ? 12 * MS : 0);
    vsync[i] = BigInt(Math.round(start));
    completed[i] = BigInt(Math.round(start + d));
    dur.push(Math.round(d));
  }
  const frames = makeBundleTable("frames", runId, {
    window: Array.from({ length: n }, () => "com.example.feed/.FeedActivity"),
    intended_vsync: vsync,
    vsync: vsync,
    frame_completed: completed,
    duration: dur,
    deadline: dur.map(() => Math.round(period)),
    jank: dur.map((d) => d > period),
  });
  const uiEvents = makeBundleTable("ui_events", runId, {
    ts: evTs,
    seq: evTs.map((_, i) => i),
    kind: evKind,
    target: evTarget,
    source: evTs.map(() => "generator"),
  });

  // Tasks: AsyncTasks on the serial executor queue behind a slow one (DiagDroid's OpenLaw case).
  const contexts = [
    [
      "com.example.feed.FeedActivity.loadImages",
      "com.example.feed.FeedAdapter.bind",
      "android.widget.ListView.layoutChildren",
    ],
    ["com.example.feed.FeedActivity.refresh", "com.example.feed.FeedActivity.onResume"],
    ["com.example.feed.SyncService.onHandleIntent", "android.app.IntentService$ServiceHandler.handleMessage"],
    ["com.example.feed.Analytics.log", "com.example.feed.FeedActivity.onClick"],
  ];
  // The two execution units (DiagDroid Definition 1): AsyncTask's serial executor and a pool of 4.
  const serial = { category: "async_task", executor_id: "AsyncTask.SERIAL_EXECUTOR", pool_capacity: 1 };
  const analytics = { category: "thread_pool_executor", executor_id: "Analytics.pool", pool_capacity: 4 };
  const tasks: Record<string, string | number>[] = [];
  /** One task execution on `unit`: when it was scheduled, started and ended, ns (rounded: int64 columns). */
  const submit = (
    unit: typeof serial,
    task_class: string,
    context_id: number,
    [scheduled, started, ended]: [number, number, number],
  ) =>
    tasks.push({
      task_id: tasks.length,
      ...unit,
      task_class,
      context_id,
      scheduled: Math.round(scheduled),
      started: Math.round(started),
      ended: Math.round(ended),
    });
  const serialFree = { at: 0 };
  for (const e of evTs) {
    for (let k = 0; k < 3; k++) {
      const scheduled = e + k * 5 * MS;
      const started = Math.max(scheduled, serialFree.at);
      const exec = (k === 0 && rand() < 0.3 ? 600 : 20 + rand() * 80) * MS;
      serialFree.at = started + exec;
      submit(serial, k === 0 ? "ImageLoadTask" : "RefreshTask", k === 0 ? 0 : 1, [
        scheduled,
        started,
        started + exec,
      ]);
    }
    const scheduled = e + 2 * MS;
    submit(analytics, "LogRunnable", 3, [scheduled, scheduled + MS, scheduled + 4 * MS]);
  }
  const tasksTable = bundleTableFromRows("tasks", runId, tasks);
  const contextsTable = makeBundleTable("contexts", runId, {
    context_id: contexts.map((_, i) => i),
    frames: contexts,
  });

  const manifest = newManifest(
    runId,
    {
      app: "com.example.feed",
      app_version: "2.3.0",
      scenario: "synthetic: scroll the feed",
      // a Pixel 4a updated to Android 13
      ...profileContext(upgraded(PROFILES["pixel-4a"]!, "13", 33)),
      refresh_hz: refreshHz,
      network: "wifi",
      battery_level: 80,
    },
    {
      synthetic: true,
      created_by: "jankbook samples/generate.ts",
      started_at: "2026-11-01T10:00:00.000Z",
      sources: [{ kind: "generator", origin: `samples/generate.ts seed ${seed}` }],
    },
  );
  const dir = join(outRoot, runId);
  await rm(dir, { recursive: true, force: true });
  await writeBundleFolder(dir, manifest, {
    frames,
    ui_events: uiEvents,
    tasks: tasksTable,
    contexts: contextsTable,
  });
  return runId;
}
