// Kotlin coroutines (kotlinx-coroutines-core 1.7+, kotlinx/coroutines/scheduling/Dispatcher.kt and
// internal/LimitedDispatcher.kt): each dispatch of a coroutine is a task queued on its dispatcher and run by
// DispatchedTask.run. Dispatchers.Default is a SchedulerCoroutineDispatcher over the CoroutineScheduler
// (capacity: its core pool size); Dispatchers.IO and limitedParallelism(n) are LimitedDispatchers (capacity:
// their parallelism) whose worker loops run on the same scheduler; Dispatchers.Main posts to the main
// Handler, so its coroutines are already handler_thread tasks. Minified apps rename these classes: the
// hooks then report themselves missing (docs/agent.md).
import { exactHook, type HookSpec, type JavaObject, type Java } from "./hook-kit";
import type { TaskTracker } from "./task-tracker";

const LIMITED = "kotlinx.coroutines.internal.LimitedDispatcher";
const SCHEDULER = "kotlinx.coroutines.scheduling.SchedulerCoroutineDispatcher";
const CTX = "kotlin.coroutines.CoroutineContext";

function intField(o: JavaObject, name: string): number | null {
  try {
    const v = Number(o[name].value);
    return Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

export function coroutineHooks(t: TaskTracker): HookSpec[] {
  /** A DispatchedContinuation resumes `continuation`: the suspend lambda's class names the work. */
  function taskClass(block: JavaObject): string {
    try {
      const c = block.continuation.value as JavaObject | null;
      if (c !== null) return t.className(c);
    } catch {
      // a plain Runnable dispatched through asExecutor()
    }
    return t.className(block);
  }
  /** A LimitedDispatcher's worker loop (or, before 1.8, the dispatcher itself) is the pool's, not a task. */
  const isWorkerLoop = (block: JavaObject) => t.className(block).startsWith(LIMITED);
  /** One dispatch recorded by the outermost dispatcher only (Dispatchers.IO goes through two). */
  let depth = 0;
  const dispatchHook = (hook: string, capacity: (d: JavaObject) => number | null) =>
    exactHook(
      "coroutines",
      hook === "LimitedDispatcher.dispatch" ? LIMITED : SCHEDULER,
      "dispatch",
      [CTX, "java.lang.Runnable"],
      (original: Java.Method) =>
        function (this: JavaObject, ctx: JavaObject, block: JavaObject) {
          if (depth === 0)
            t.a.guard(hook, () => {
              if (isWorkerLoop(block)) return;
              t.schedule(`k:${t.a.id(block)}`, "coroutine", t.unit(this), capacity(this), taskClass(block));
            });
          depth++;
          try {
            return original.call(this, ctx, block);
          } finally {
            depth--;
          }
        },
    );
  return [
    dispatchHook("LimitedDispatcher.dispatch", (d) => intField(d, "parallelism")),
    dispatchHook("SchedulerCoroutineDispatcher.dispatch", (d) => intField(d, "corePoolSize")),
    exactHook(
      "coroutines",
      "kotlinx.coroutines.DispatchedTask",
      "run",
      [],
      (original: Java.Method) =>
        function (this: JavaObject) {
          return t.around("DispatchedTask.run", `k:${t.a.id(this)}`, () => original.call(this));
        },
    ),
  ];
}
