// Async work the 2016 taxonomy misses (docs/agent-protocol.md, "Queuing semantics"): ScheduledThreadPoolExecutor
// (RxJava's schedulers sit on it) and ForkJoinPool (CompletableFuture.supplyAsync's default pool). Both are
// begun and ended where their workers run them: ThreadPoolExecutor.beforeExecute/afterExecute (executor-hooks)
// and ForkJoinTask.doExec.
import { exactHook, recordingHook, use, type HookSpec, type JavaObject, type Java } from "./hook-kit";
import type { TaskTracker } from "./task-tracker";

const STPE = "java.util.concurrent.ScheduledThreadPoolExecutor";
const RSF = "java.util.concurrent.RunnableScheduledFuture";
const FJP = "java.util.concurrent.ForkJoinPool";
const FJT = "java.util.concurrent.ForkJoinTask";

/** Reads `o.<name>` (a field), or null when the object has no such field. */
function fieldOf(o: JavaObject, name: string): JavaObject | null {
  try {
    const f = o[name];
    return f && "value" in f ? (f.value as JavaObject | null) : null;
  } catch {
    return null;
  }
}

export function scheduledHooks(t: TaskTracker): HookSpec[] {
  /** What a ScheduledFutureTask runs: its callable (libcore FutureTask.callable), through Executors$RunnableAdapter.task. */
  function scheduledClass(future: JavaObject): string {
    const callable = fieldOf(future, "callable");
    if (callable === null) return t.className(future);
    const task = t.className(callable).endsWith("Executors$RunnableAdapter")
      ? fieldOf(callable, "task")
      : null;
    return t.className(task ?? callable);
  }
  /** ScheduledThreadPoolExecutor: the task waits until its trigger time by design, then for a worker (DelayedWorkQueue). */
  function scheduled(pool: JavaObject, future: JavaObject) {
    const delay = BigInt(String(future.getDelay(use("java.util.concurrent.TimeUnit").NANOSECONDS.value)));
    const now = t.a.now();
    t.schedule(
      `r:${t.a.id(future)}`,
      "scheduled_executor",
      t.unit(pool),
      t.capacityOf(pool),
      scheduledClass(future),
      null,
      delay > 0n ? now + delay : null,
    );
  }

  /** ForkJoinPool.execute(Runnable) wraps a plain runnable in ForkJoinTask$RunnableExecuteAction (field `runnable`). */
  const keyOf = (task: JavaObject) => {
    const inner = t.className(task).endsWith("$RunnableExecuteAction") ? fieldOf(task, "runnable") : null;
    return `j:${t.a.id(inner ?? task)}`;
  };
  /** CompletableFuture's AsyncSupply / AsyncRun run their `fn`: that is the task's class. */
  function forkJoinClass(task: JavaObject): string {
    const fn = /CompletableFuture\$Async(Supply|Run)$/.test(t.className(task)) ? fieldOf(task, "fn") : null;
    return t.className(fn ?? task);
  }
  function forked(pool: JavaObject, task: JavaObject) {
    let capacity: number | null = null;
    try {
      capacity = Number(pool.getParallelism());
    } catch {
      capacity = null;
    }
    t.schedule(`j:${t.a.id(task)}`, "fork_join_pool", t.unit(pool), capacity, forkJoinClass(task));
  }

  return [
    // libcore ScheduledThreadPoolExecutor: schedule/execute/submit and the fixed-rate/delay variants all go
    // through delayedExecute; a periodic task re-queues itself after each run through reExecutePeriodic.
    recordingHook(t.a, "scheduled_executors", STPE, "delayedExecute", [RSF], scheduled),
    recordingHook(t.a, "scheduled_executors", STPE, "reExecutePeriodic", [RSF], scheduled),
    // libcore ForkJoinPool: external submissions (fork() from inside a worker is not a queued task of the pool).
    recordingHook(t.a, "fork_join", FJP, "execute", ["java.lang.Runnable"], forked),
    // Named apart from execute(Runnable): one hook line, and one install, per overload.
    Object.assign(recordingHook(t.a, "fork_join", FJP, "execute", [FJT], forked), {
      hook: "ForkJoinPool.execute(ForkJoinTask)",
    }),
    recordingHook(t.a, "fork_join", FJP, "submit", [FJT], forked),
    exactHook(
      "fork_join",
      FJT,
      "doExec",
      [],
      (original: Java.Method) =>
        function (this: JavaObject) {
          let key = "";
          t.a.guard("ForkJoinTask.doExec", () => (key = keyOf(this)));
          // Most doExec calls are fork()ed subtasks, never submitted to the pool: no task of their own.
          if (!key || !t.isPending(key)) return original.call(this);
          return t.around("ForkJoinTask.doExec", key, () => original.call(this));
        },
    ),
  ];
}
