// Unrelated background work of an app around a case (the accuracy bench's noise): analytics uploads on
// plain threads, prefetches on AsyncTask's pool, database writes on a single-thread executor, a sync
// IntentService, OkHttp calls (seconds on a slow network) and badge updates on the main looper. Some of it
// runs longer than τ, so it
// forms anomalous groups of its own that compete with the case's culprit in DiagDroid's ranking (§4.2), as
// the 27 issues of §6 competed with the rest of each report. Each site schedules from a few call stacks that
// differ only in a line number or a caller, like Figure 10's contexts.
import type { TaskCategory } from "../agent/protocol";
import type { Ctx } from "./scenarios";

const MS = 1_000_000;
const S = 1000 * MS;

interface Site {
  executor: string;
  category: TaskCategory;
  capacity: number | null;
  thread: (i: number) => string;
  main?: boolean;
  taskClass: string;
  /** execution time range, ms on a speed-1 device */
  ms: [number, number];
  /** innermost frames first; the last frame gets one of `lines` as its line number */
  stack: string[];
  lines: number[];
}

const SITES: readonly Site[] = [
  {
    executor: "java.lang.Thread",
    category: "thread",
    capacity: null,
    thread: (i) => `Thread-${40 + i}`,
    taskClass: "com.example.analytics.Uploader$1",
    ms: [80, 450],
    stack: ["java.lang.Thread.start(Thread.java:883)", "com.example.analytics.Uploader.flush(Uploader.java"],
    lines: [71, 88],
  },
  {
    executor: "android.os.AsyncTask.THREAD_POOL_EXECUTOR",
    category: "async_task",
    capacity: 5,
    thread: (i) => `AsyncTask #${i + 1}`,
    taskClass: "com.example.images.Prefetcher$PrefetchTask",
    ms: [40, 260],
    stack: [
      "android.os.AsyncTask.executeOnExecutor(AsyncTask.java:601)",
      "com.example.images.Prefetcher.prefetch(Prefetcher.java",
    ],
    lines: [112, 113, 131],
  },
  {
    executor: "java.util.concurrent.ThreadPoolExecutor(db)",
    category: "thread_pool_executor",
    capacity: 1,
    thread: () => "db-writer",
    taskClass: "com.example.db.WriteQueue$Write",
    ms: [10, 90],
    stack: [
      "java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1339)",
      "com.example.db.WriteQueue.enqueue(WriteQueue.java",
    ],
    lines: [40],
  },
  {
    executor: "android.app.IntentService[SyncService]",
    category: "intent_service",
    capacity: 1,
    thread: () => "IntentService[SyncService]",
    taskClass: "com.example.sync.SyncService",
    ms: [150, 1200],
    stack: [
      "android.app.ContextImpl.startService(ContextImpl.java:1531)",
      "com.example.sync.SyncScheduler.requestSync(SyncScheduler.java",
    ],
    lines: [52, 60],
  },
  {
    executor: "okhttp3.Dispatcher",
    category: "thread_pool_executor",
    capacity: 64,
    thread: (i) => `OkHttp Dispatcher ${i + 1}`,
    taskClass: "okhttp3.RealCall$AsyncCall",
    ms: [80, 3000],
    stack: [
      "java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1339)",
      "okhttp3.Dispatcher.enqueue(Dispatcher.java:130)",
      "com.example.api.FeedClient.refresh(FeedClient.java",
    ],
    lines: [77, 91],
  },
  {
    executor: "android.os.MessageQueue(main)",
    category: "handler_thread",
    capacity: 1,
    thread: () => "main",
    main: true,
    taskClass: "com.example.ui.Badge$Update",
    ms: [1, 6],
    stack: ["android.os.Handler.sendMessageAtTime(Handler.java:610)", "com.example.ui.Badge.post(Badge.java"],
    lines: [23],
  },
];

/** `perSecond` background tasks on average, at seeded random times in [from, to) ns. */
export function backgroundTasks(c: Ctx, from: number, to: number, perSecond: number): number {
  const { sim } = c;
  const executors = SITES.map((s) =>
    sim.executor(s.executor, s.category, s.capacity, s.thread, s.main ? sim.pid : undefined),
  );
  const n = Math.round(((to - from) / S) * perSecond);
  const times = Array.from({ length: n }, () => from + sim.rand() * (to - from)).sort((a, b) => a - b);
  for (const at of times) {
    const k = Math.floor(sim.rand() * SITES.length);
    const site = SITES[k]!;
    const line = site.lines[Math.floor(sim.rand() * site.lines.length)]!;
    const stack = [...site.stack.slice(0, -1), `${site.stack.at(-1)}:${line})`];
    const ms = site.ms[0] + sim.rand() * (site.ms[1] - site.ms[0]);
    sim.submit(executors[k]!, at, ms, site.taskClass, stack);
  }
  return n;
}
