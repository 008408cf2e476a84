// A seeded, synthetic sample run so a fresh `npm start` shows real charts. Marked synthetic in the
// manifest and the UI. Kept while notebooks and tests still name synthetic-feed-scroll; the sample runs
// collected from the simulated phone (samples/generate.ts) are the realistic ones.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { newManifest } from "../bundle/manifest";
import { writeBundleFolder } from "../bundle/node-io";
import { makeBundleTable } from "../bundle/table-builder";
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
  const task = {
    id: [] as number[],
    cat: [] as string[],
    exec: [] as string[],
    cap: [] as (number | null)[],
    cls: [] as string[],
    sch: [] as number[],
    st: [] as number[],
    en: [] as number[],
    ctx: [] as number[],
  };
  const serialFree = { at: 0 };
  let id = 0;
  for (const e of evTs) {
    for (let k = 0; k < 3; k++) {
      const scheduled = e + k * 5 * MS;
      const started = Math.max(scheduled, serialFree.at);
      const exec = (k === 0 && rand() < 0.3 ? 600 : 20 + rand() * 80) * MS;
      serialFree.at = started + exec;
      Object.entries({
        id: id++,
        cat: "async_task",
        exec: "AsyncTask.SERIAL_EXECUTOR",
        cap: 1,
        cls: k === 0 ? "ImageLoadTask" : "RefreshTask",
        sch: scheduled,
        st: started,
        en: started + exec,
        ctx: k === 0 ? 0 : 1,
      }).forEach(([key, v]) => (task as Record<string, unknown[]>)[key]!.push(v));
    }
    const scheduled = e + 2 * MS;
    Object.entries({
      id: id++,
      cat: "thread_pool_executor",
      exec: "Analytics.pool",
      cap: 4,
      cls: "LogRunnable",
      sch: scheduled,
      st: scheduled + MS,
      en: scheduled + 4 * MS,
      ctx: 3,
    }).forEach(([key, v]) => (task as Record<string, unknown[]>)[key]!.push(v));
  }
  const tasks = makeBundleTable("tasks", runId, {
    task_id: task.id,
    category: task.cat,
    executor_id: task.exec,
    pool_capacity: task.cap,
    task_class: task.cls,
    scheduled: task.sch.map(Math.round),
    started: task.st.map(Math.round),
    ended: task.en.map(Math.round),
    context_id: task.ctx,
  });
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
  await writeBundleFolder(dir, manifest, { frames, ui_events: uiEvents, tasks, contexts: contextsTable });
  return runId;
}
