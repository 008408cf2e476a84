// DiagDroid §5.2: the five categories of asynchronous task, each scheduled, begun and ended exactly once, with
// the queue it waits on (the execution unit's identity hash) and that unit's pool capacity.
import type { TaskCategory } from "../protocol";
import { exactly, Java, use, type Agent, type HookSpec, type JavaObject } from "./hook-kit";

export interface TaskOptions {
  /** frames kept of a scheduling stack (DiagDroid §4.2's execution context); 0 records no stacks */
  maxStack: number;
}

const INT_MAX = 2147483647;
const SERIAL_WRAPPER = "android.os.AsyncTask$SerialExecutor";

export function taskHooks(a: Agent, o: TaskOptions): HookSpec[] {
  const contexts = new Map<string, number>();
  /** Execution context (DiagDroid §4.2): the scheduling stack, innermost first, the agent's own frames dropped. */
  function contextId(): number {
    const frames: string[] = [];
    if (o.maxStack > 0) {
      const st = use("java.lang.Thread").currentThread().getStackTrace();
      for (let i = 0; i < st.length && frames.length < o.maxStack; i++) {
        const f = String(st[i].toString());
        if (f.startsWith("dalvik.system.VMStack") || f.startsWith("java.lang.Thread.getStackTrace")) continue;
        frames.push(f);
      }
    }
    const key = frames.join("\n");
    let c = contexts.get(key);
    if (c === undefined) {
      contexts.set(key, (c = contexts.size));
      a.emit({ type: "ctx", context_id: c, frames });
    }
    return c;
  }

  let nextTask = 1;
  /** key (kind + identity hash of the thread, message, future or runnable) -> task id, until it begins */
  const pending = new Map<string, number>();
  /** running tasks with their nesting depth: an overriding run() may call super.run(), which is hooked too */
  const running = new Map<string, { task: number; depth: number }>();
  function schedule(
    key: string,
    category: TaskCategory,
    executor: string,
    capacity: number | null,
    cls: string,
    at: { ts: bigint; ctx: number } | null = null,
    due: bigint | null = null,
  ) {
    const task_id = nextTask++;
    pending.set(key, task_id);
    a.emit({
      type: "task",
      task_id,
      category,
      executor_id: executor,
      pool_capacity: capacity,
      task_class: cls,
      scheduled: at?.ts ?? a.now(),
      context_id: at?.ctx ?? contextId(),
      due,
    });
  }
  function begin(key: string) {
    const r = running.get(key);
    if (r) return void r.depth++;
    const task = pending.get(key);
    if (task === undefined) return;
    pending.delete(key);
    running.set(key, { task, depth: 1 });
    const Thread = use("java.lang.Thread");
    a.emit({
      type: "begin",
      task_id: task,
      ts: a.now(),
      tid: Number(use("android.os.Process").myTid()),
      thread_name: String(Thread.currentThread().getName()),
    });
  }
  function end(key: string) {
    const r = running.get(key);
    if (!r || --r.depth > 0) return;
    running.delete(key);
    a.emit({ type: "end", task_id: r.task, ts: a.now() });
  }
  const unit = (o: JavaObject) => `${o.getClass().getName()}@${a.id(o).toString(16)}`;
  const className = (o: JavaObject) => String(o.getClass().getName());

  // Pool capacity (DiagDroid Definition 4): threads that run at once. An unbounded queue never grows the
  // pool past its core size; a bounded one lets it reach the maximum.
  function capacityOf(executor: JavaObject): number | null {
    try {
      const tpe = Java.cast(executor, use("java.util.concurrent.ThreadPoolExecutor"));
      return Number(tpe.getQueue().remainingCapacity()) === INT_MAX
        ? Number(tpe.getCorePoolSize())
        : Number(tpe.getMaximumPoolSize());
    } catch {
      return null;
    }
  }

  // 1) Threads: scheduled at start(); the task runs in the run() the thread's class actually has, so the first
  // class from the thread's own up to Thread that declares run() gets hooked, once per class.
  const runHooked = new Set<string>(["java.lang.Thread"]);
  const runHook = (original: Java.Method) =>
    function (this: JavaObject) {
      const k = `t:${a.id(this)}`;
      begin(k);
      try {
        return original.call(this);
      } finally {
        end(k);
      }
    };
  function hookRunOf(thread: JavaObject) {
    for (let c: JavaObject = thread.getClass(); c !== null; c = c.getSuperclass()) {
      const name = String(c.getName());
      if (runHooked.has(name)) return;
      const loader = c.getClassLoader();
      const cls = loader === null ? use(name) : Java.ClassFactory.get(loader).use(name);
      if (!cls.$ownMembers.includes("run")) continue;
      runHooked.add(name);
      const spec: HookSpec = {
        hook: `${name}.run`,
        group: "threads",
        cls: name,
        method: "run",
        want: "run()",
        pick: exactly(),
        impl: runHook,
      };
      a.installIn(spec, cls);
      return;
    }
  }

  // 2-3) Looper messages (HandlerThread, IntentService, any looper): scheduled at sendMessageAtTime /
  // sendMessageAtFrontOfQueue with their target time, run in dispatchMessage. An IntentService task is
  // scheduled when ContextImpl.startService ran for its component (§5.2 3), matched by class name.
  const started = new Map<string, { ts: bigint; ctx: number }[]>();
  function serviceStarted(intent: JavaObject) {
    const at = { ts: a.now(), ctx: contextId() };
    try {
      const name = String(intent.getComponent().getClassName());
      const q = started.get(name) ?? [];
      if (q.length < 64) q.push(at);
      started.set(name, q);
    } catch {
      // an intent without a component: no IntentService can take it
    }
  }
  function messageSent(h: JavaObject, msg: JavaObject, when: number | null) {
    const looper = h.getLooper();
    const handlerClass = className(h);
    let category: TaskCategory = "handler_thread";
    let at: { ts: bigint; ctx: number } | null = null;
    if (handlerClass === "android.app.IntentService$ServiceHandler") {
      category = "intent_service";
      try {
        const intent = Java.cast(msg.obj.value, use("android.content.Intent"));
        at = started.get(String(intent.getComponent().getClassName()))?.shift() ?? null;
      } catch {
        at = null;
      }
    }
    // Only a message sent for later has a target time worth keeping (postDelayed, sendMessageAtTime ahead).
    const target = when !== null && when > 0 ? BigInt(Math.round(when)) * 1_000_000n : null;
    const due = target !== null && target > a.now() ? target : null;
    const cb = msg.getCallback();
    schedule(
      `m:${a.id(msg)}`,
      category,
      `android.os.MessageQueue(${looper.getThread().getName()})@${a.id(looper.getQueue()).toString(16)}`,
      1,
      cb ? className(cb) : handlerClass,
      at,
      due,
    );
  }
  const dispatch = (original: Java.Method) =>
    function (this: JavaObject, msg: JavaObject) {
      const k = `m:${a.id(msg)}`;
      begin(k);
      try {
        return original.call(this, msg);
      } finally {
        end(k);
      }
    };

  // 4-5) Executors. AsyncTask is recorded once, keyed by its FutureTask, on whichever executor it went to;
  // the serial executor's wrapper runnables that reach THREAD_POOL_EXECUTOR are not tasks of their own.
  const futures = new Set<number>();
  const isSerialWrapper = (r: JavaObject) => className(r).startsWith(SERIAL_WRAPPER + "$");
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
      const r = which === "begin" ? y : x;
      const target = inner(r);
      if (which === "begin" && target) begin(`r:${a.id(target)}`);
      try {
        return original.call(this, x, y);
      } finally {
        if (which === "end" && target) end(`r:${a.id(target)}`);
      }
    };

  const T = "java.lang.Thread";
  const H = "android.os.Handler";
  const C = "android.app.ContextImpl";
  const E = "java.util.concurrent.ThreadPoolExecutor";
  return [
    {
      hook: "Thread.start",
      group: "threads",
      cls: T,
      method: "start",
      want: "start()",
      pick: exactly(),
      impl: (original) =>
        function (this: JavaObject) {
          schedule(
            `t:${a.id(this)}`,
            "thread",
            `java.lang.Thread@${a.id(this).toString(16)}`,
            null,
            className(this),
          );
          hookRunOf(this);
          return original.call(this);
        },
    },
    {
      hook: "Thread.run",
      group: "threads",
      cls: T,
      method: "run",
      want: "run()",
      pick: exactly(),
      impl: runHook,
    },
    {
      hook: "Handler.sendMessageAtTime",
      group: "handlers",
      cls: H,
      method: "sendMessageAtTime",
      want: "sendMessageAtTime(android.os.Message,long)",
      pick: exactly("android.os.Message", "long"),
      impl: (original) =>
        function (this: JavaObject, msg: JavaObject, when: number) {
          messageSent(this, msg, Number(when));
          return original.call(this, msg, when);
        },
    },
    {
      hook: "Handler.sendMessageAtFrontOfQueue",
      group: "handlers",
      cls: H,
      method: "sendMessageAtFrontOfQueue",
      want: "sendMessageAtFrontOfQueue(android.os.Message)",
      pick: exactly("android.os.Message"),
      impl: (original) =>
        function (this: JavaObject, msg: JavaObject) {
          messageSent(this, msg, null);
          return original.call(this, msg);
        },
    },
    {
      hook: "Handler.dispatchMessage",
      group: "handlers",
      cls: H,
      method: "dispatchMessage",
      want: "dispatchMessage(android.os.Message)",
      pick: exactly("android.os.Message"),
      impl: dispatch,
    },
    ...["startService", "startForegroundService"].map((method): HookSpec => ({
      hook: `ContextImpl.${method}`,
      group: "intent_services",
      cls: C,
      method,
      want: `${method}(android.content.Intent)`,
      pick: exactly("android.content.Intent"),
      impl: (original) =>
        function (this: JavaObject, intent: JavaObject) {
          serviceStarted(intent);
          return original.call(this, intent);
        },
    })),
    {
      hook: "ThreadPoolExecutor.execute",
      group: "executors",
      cls: E,
      method: "execute",
      want: "execute(java.lang.Runnable)",
      pick: exactly("java.lang.Runnable"),
      impl: (original) =>
        function (this: JavaObject, r: JavaObject) {
          if (!futures.has(a.id(r)) && !isSerialWrapper(r))
            schedule(`r:${a.id(r)}`, "thread_pool_executor", unit(this), capacityOf(this), className(r));
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
          const future = a.id(this.mFuture.value);
          futures.add(future);
          const serial = className(executor) === SERIAL_WRAPPER;
          schedule(
            `f:${future}`,
            "async_task",
            unit(executor),
            serial ? 1 : capacityOf(executor),
            className(this),
          );
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
          if (!futures.has(a.id(r))) schedule(`r:${a.id(r)}`, "async_task", unit(this), 1, className(r));
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
          const id = a.id(this);
          if (!futures.has(id)) return original.call(this);
          begin(`f:${id}`);
          try {
            return original.call(this);
          } finally {
            end(`f:${id}`);
            futures.delete(id);
          }
        },
    },
  ];
}
