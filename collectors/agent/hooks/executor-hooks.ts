// DiagDroid §5.2 4-5: ThreadPoolExecutor (execute, then beforeExecute / afterExecute on a worker) and
// AsyncTask (execute / executeOnExecutor), each task recorded once.
import { exactHook, recordingHook, type HookSpec, type JavaObject, type Java } from "./hook-kit";
import type { TaskTracker } from "./task-tracker";

const SERIAL_WRAPPER = "android.os.AsyncTask$SerialExecutor";

export function executorHooks(t: TaskTracker): HookSpec[] {
  // 4-5) Executors. AsyncTask is recorded once, keyed by its FutureTask, on whichever executor it went to;
  // the serial executor's wrapper runnables that reach THREAD_POOL_EXECUTOR are not tasks of their own.
  const futures = new Set<number>();
  const isSerialWrapper = (r: JavaObject) => t.className(r).startsWith(SERIAL_WRAPPER + "$");
  /** The runnable a serial executor's wrapper runs (javac's captured `val$r`), or the runnable itself. */
  function inner(r: JavaObject): JavaObject | null {
    if (!isSerialWrapper(r)) return r;
    try {
      return r.val$r.value;
    } catch {
      return null;
    }
  }
  const beforeAfter = (which: "begin" | "end") => (original: Java.Method) =>
    function (this: JavaObject, x: JavaObject, y: JavaObject) {
      const hook = `ThreadPoolExecutor.${which === "begin" ? "beforeExecute" : "afterExecute"}`;
      const step = () => {
        const target = inner(which === "begin" ? y : x);
        if (target === null) return;
        if (which === "begin") t.begin(`r:${t.a.id(target)}`);
        else t.end(`r:${t.a.id(target)}`);
      };
      if (which === "begin") t.a.guard(hook, step);
      try {
        return original.call(this, x, y);
      } finally {
        if (which === "end") t.a.guard(hook, step);
      }
    };

  const E = "java.util.concurrent.ThreadPoolExecutor";
  return [
    recordingHook(t.a, "executors", E, "execute", ["java.lang.Runnable"], (pool, r) => {
      if (futures.has(t.a.id(r)) || isSerialWrapper(r)) return;
      const capacity = t.capacityOf(pool);
      t.schedule(`r:${t.a.id(r)}`, "thread_pool_executor", t.unit(pool), capacity, t.className(r));
    }),
    exactHook(
      "executors",
      E,
      "beforeExecute",
      ["java.lang.Thread", "java.lang.Runnable"],
      beforeAfter("begin"),
    ),
    exactHook(
      "executors",
      E,
      "afterExecute",
      ["java.lang.Runnable", "java.lang.Throwable"],
      beforeAfter("end"),
    ),
    recordingHook(
      t.a,
      "async_tasks",
      "android.os.AsyncTask",
      "executeOnExecutor",
      ["java.util.concurrent.Executor", "[Ljava.lang.Object;"],
      (task, executor) => {
        const future = t.a.id(task.mFuture.value);
        futures.add(future);
        // DiagDroid's "undesired sequential execution": the serial executor runs one task at a time.
        const capacity = t.className(executor) === SERIAL_WRAPPER ? 1 : t.capacityOf(executor);
        t.schedule(`f:${future}`, "async_task", t.unit(executor), capacity, t.className(task));
      },
    ),
    // AsyncTask.execute(Runnable) and SERIAL_EXECUTOR.execute: a plain runnable on the serial queue.
    recordingHook(t.a, "async_tasks", SERIAL_WRAPPER, "execute", ["java.lang.Runnable"], (serial, r) => {
      if (!futures.has(t.a.id(r)))
        t.schedule(`r:${t.a.id(r)}`, "async_task", t.unit(serial), 1, t.className(r));
    }),
    exactHook(
      "async_tasks",
      "java.util.concurrent.FutureTask",
      "run",
      [],
      (original) =>
        function (this: JavaObject) {
          const id = t.a.id(this);
          if (!futures.has(id)) return original.call(this);
          try {
            return t.around("FutureTask.run", `f:${id}`, () => original.call(this));
          } finally {
            futures.delete(id);
          }
        },
    ),
  ];
}
