// DiagDroid §5.2 4-5: ThreadPoolExecutor (execute, then beforeExecute / afterExecute on a worker) and
// AsyncTask (execute / executeOnExecutor), each task recorded once.
import { exactly, type HookSpec, type JavaObject, type Java } from "./hook-kit";
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
    {
      hook: "ThreadPoolExecutor.execute",
      group: "executors",
      cls: E,
      method: "execute",
      want: "execute(java.lang.Runnable)",
      pick: exactly("java.lang.Runnable"),
      impl: (original) =>
        function (this: JavaObject, r: JavaObject) {
          t.a.guard("ThreadPoolExecutor.execute", () => {
            if (futures.has(t.a.id(r)) || isSerialWrapper(r)) return;
            const capacity = t.capacityOf(this);
            t.schedule(`r:${t.a.id(r)}`, "thread_pool_executor", t.unit(this), capacity, t.className(r));
          });
          return original.call(this, r);
        },
    },
    {
      hook: "ThreadPoolExecutor.beforeExecute",
      group: "executors",
      cls: E,
      method: "beforeExecute",
      want: "beforeExecute(java.lang.Thread,java.lang.Runnable)",
      pick: exactly("java.lang.Thread", "java.lang.Runnable"),
      impl: beforeAfter("begin"),
    },
    {
      hook: "ThreadPoolExecutor.afterExecute",
      group: "executors",
      cls: E,
      method: "afterExecute",
      want: "afterExecute(java.lang.Runnable,java.lang.Throwable)",
      pick: exactly("java.lang.Runnable", "java.lang.Throwable"),
      impl: beforeAfter("end"),
    },
    {
      hook: "AsyncTask.executeOnExecutor",
      group: "async_tasks",
      cls: "android.os.AsyncTask",
      method: "executeOnExecutor",
      want: "executeOnExecutor(java.util.concurrent.Executor,java.lang.Object[])",
      pick: exactly("java.util.concurrent.Executor", "[Ljava.lang.Object;"),
      impl: (original) =>
        function (this: JavaObject, executor: JavaObject, params: JavaObject) {
          t.a.guard("AsyncTask.executeOnExecutor", () => {
            const future = t.a.id(this.mFuture.value);
            futures.add(future);
            // DiagDroid's "undesired sequential execution": the serial executor runs one task at a time.
            const capacity = t.className(executor) === SERIAL_WRAPPER ? 1 : t.capacityOf(executor);
            t.schedule(`f:${future}`, "async_task", t.unit(executor), capacity, t.className(this));
          });
          return original.call(this, executor, params);
        },
    },
    {
      hook: "AsyncTask$SerialExecutor.execute",
      group: "async_tasks",
      cls: SERIAL_WRAPPER,
      method: "execute",
      want: "execute(java.lang.Runnable)",
      pick: exactly("java.lang.Runnable"),
      impl: (original) =>
        function (this: JavaObject, r: JavaObject) {
          // AsyncTask.execute(Runnable) and SERIAL_EXECUTOR.execute: a plain runnable on the serial queue.
          t.a.guard("AsyncTask$SerialExecutor.execute", () => {
            if (!futures.has(t.a.id(r)))
              t.schedule(`r:${t.a.id(r)}`, "async_task", t.unit(this), 1, t.className(r));
          });
          return original.call(this, r);
        },
    },
    {
      hook: "FutureTask.run",
      group: "async_tasks",
      cls: "java.util.concurrent.FutureTask",
      method: "run",
      want: "run()",
      pick: exactly(),
      impl: (original) =>
        function (this: JavaObject) {
          const id = t.a.id(this);
          if (!futures.has(id)) return original.call(this);
          try {
            return t.around("FutureTask.run", `f:${id}`, () => original.call(this));
          } finally {
            futures.delete(id);
          }
        },
    },
  ];
}
