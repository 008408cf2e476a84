// Turns the agent's v2 hook reports (docs/agent-protocol.md, `hook` record) into the warnings `collect` prints,
// so a hook that could not be installed on this device is named with what it costs the run's tables instead
// of leaving them silently empty.
import type { AgentRecord } from "../agent/protocol";

export type HookReport = Omit<Extract<AgentRecord, { type: "hook" }>, "type"> & {
  pid: number;
  where: string;
};

/** What a run loses without each hook (its group's tables and columns). */
const EFFECT: Record<string, string> = {
  "View.measure": "render ops missing (measure)",
  "View.layout": "render ops missing (layout)",
  "View.draw": "render ops missing (draw)",
  "Choreographer.doFrame": "render ops without frame numbers",
  "LayoutInflater.inflate": "render ops without layout files",
  "Thread.start": "thread tasks missing",
  "Thread.run": "thread tasks never start (run of threads without their own run())",
  "Handler.sendMessageAtTime": "handler_thread and intent_service tasks missing",
  "Handler.sendMessageAtFrontOfQueue": "front-of-queue handler messages missing",
  "Handler.dispatchMessage": "handler_thread and intent_service tasks never start",
  "Message.recycleUnchecked": "removed looper messages look never started (false queuing)",
  "ContextImpl.startService": "intent_service tasks scheduled at their message, not at startService",
  "ContextImpl.startForegroundService":
    "foreground intent_service tasks scheduled at their message, not at startForegroundService",
  "ThreadPoolExecutor.execute": "thread_pool_executor tasks missing",
  "ThreadPoolExecutor.beforeExecute": "thread_pool_executor tasks never start",
  "ThreadPoolExecutor.afterExecute": "thread_pool_executor tasks never end",
  "AsyncTask.executeOnExecutor": "async_task tasks missing",
  "AsyncTask$SerialExecutor.execute": "AsyncTask.execute(Runnable) tasks missing",
  "FutureTask.run": "async_task tasks never start",
  "ScheduledThreadPoolExecutor.delayedExecute": "scheduled_executor tasks missing",
  "ScheduledThreadPoolExecutor.reExecutePeriodic":
    "periodic scheduled_executor tasks recorded for their first run only",
  "ForkJoinPool.execute": "fork_join_pool tasks from execute(Runnable) and CompletableFuture missing",
  "ForkJoinPool.execute(ForkJoinTask)": "fork_join_pool tasks from execute(ForkJoinTask) missing",
  "ForkJoinPool.submit": "fork_join_pool tasks from submit(ForkJoinTask) missing",
  "ForkJoinTask.doExec": "fork_join_pool tasks never start",
  // kotlinx.coroutines is the app's own code: absent from apps without it, renamed in minified builds.
  "LimitedDispatcher.dispatch":
    "coroutine tasks on Dispatchers.IO and limitedParallelism missing (none if the app has no kotlinx.coroutines)",
  "SchedulerCoroutineDispatcher.dispatch":
    "coroutine tasks on Dispatchers.Default missing (none if the app has no kotlinx.coroutines)",
  "DispatchedTask.run": "coroutine tasks never start",
  "View.performClick": "click ui events missing",
  "View.performLongClick": "long_click ui events missing",
  "View.onScrollChanged": "scroll ui events missing",
  "TextView.sendOnTextChanged": "text ui events missing",
  "Activity.dispatchKeyEvent": "key ui events missing",
  "GestureDetector.onTouchEvent": "gesture ui events (tap, scroll, swipe) missing",
  "GestureDetector.dispatchLongPress": "gesture long_click ui events missing",
};

/**
 * One warning per hook that is not installed, e.g. "render ops missing (draw): View.draw not hooked on this
 * device (API 33): no overload draw(android.graphics.Canvas); found draw(android.graphics.Canvas,...)".
 */
export function hookWarnings(d: {
  hooks: readonly HookReport[];
  hello: { api_level?: number | null } | null;
}): string[] {
  const api = d.hello?.api_level != null ? ` (API ${d.hello.api_level})` : "";
  const out: string[] = [];
  for (const h of d.hooks) {
    if (h.status === "ok") continue;
    const effect = EFFECT[h.hook] ?? `${h.group} data incomplete`;
    const how =
      h.status === "off"
        ? `${h.hook} turned off by the agent's config (group ${h.group})`
        : h.status === "failed"
          ? `${h.hook} failed on this device${api}: ${h.detail}`
          : `${h.hook} not hooked on this device${api}: ${h.detail}`;
    const found =
      h.status === "missing" ? `; found ${h.found.length ? h.found.join(", ") : "no overloads"}` : "";
    out.push(`${effect}: ${how}${found} (${h.where})`);
  }
  return out;
}
