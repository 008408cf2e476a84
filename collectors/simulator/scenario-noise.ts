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
  taskClass: string;
  /** execution time range, ms on a speed-1 device */
  ms: [number, number];
  /** innermost frames first; the last frame gets one of `lines` as its line number */
  stack: string[];
  lines: number[];
}

// executor | category | pool capacity (- unbounded) | thread name ({i}: worker number from 1) | task class |
// ms on a speed-1 device | scheduling frames, innermost first (the last one ends in one of the line numbers) | lines
const TABLE = `
java.lang.Thread | thread | - | Thread-4{i} | com.example.analytics.Uploader$1 | 80-450 | java.lang.Thread.start(Thread.java:883) < com.example.analytics.Uploader.flush(Uploader.java | 71 88
android.os.AsyncTask.THREAD_POOL_EXECUTOR | async_task | 5 | AsyncTask #{i} | com.example.images.Prefetcher$PrefetchTask | 40-260 | android.os.AsyncTask.executeOnExecutor(AsyncTask.java:601) < com.example.images.Prefetcher.prefetch(Prefetcher.java | 112 113 131
java.util.concurrent.ThreadPoolExecutor(db) | thread_pool_executor | 1 | db-writer | com.example.db.WriteQueue$Write | 10-90 | java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1339) < com.example.db.WriteQueue.enqueue(WriteQueue.java | 40
android.app.IntentService[SyncService] | intent_service | 1 | IntentService[SyncService] | com.example.sync.SyncService | 150-1200 | android.app.ContextImpl.startService(ContextImpl.java:1531) < com.example.sync.SyncScheduler.requestSync(SyncScheduler.java | 52 60
okhttp3.Dispatcher | thread_pool_executor | 64 | OkHttp Dispatcher {i} | okhttp3.RealCall$AsyncCall | 80-3000 | java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1339) < okhttp3.Dispatcher.enqueue(Dispatcher.java:130) < com.example.api.FeedClient.refresh(FeedClient.java | 77 91
android.os.MessageQueue(main) | handler_thread | 1 | main | com.example.ui.Badge$Update | 1-6 | android.os.Handler.sendMessageAtTime(Handler.java:610) < com.example.ui.Badge.post(Badge.java | 23
`;

const SITES: readonly Site[] = TABLE.trim()
  .split("\n")
  .map((line) => {
    const [executor, category, capacity, thread, taskClass, ms, stack, lines] = line.split(" | ");
    const [lo, hi] = ms!.split("-").map(Number);
    return {
      executor: executor!,
      category: category as TaskCategory,
      capacity: capacity === "-" ? null : Number(capacity),
      thread: (i: number) => thread!.replace("{i}", String(i + 1)),
      taskClass: taskClass!,
      ms: [lo!, hi!],
      stack: stack!.split(" < "),
      lines: lines!.split(" ").map(Number),
    };
  });

/** `perSecond` background tasks on average, at seeded random times in [from, to) ns. */
export function backgroundTasks(c: Ctx, from: number, to: number, perSecond: number): number {
  const { sim } = c;
  const executors = SITES.map((s) =>
    sim.executor(s.executor, s.category, s.capacity, s.thread, s.thread(0) === "main" ? sim.pid : undefined),
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
