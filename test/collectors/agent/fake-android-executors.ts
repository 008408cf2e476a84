// java.util.concurrent's FutureTask and ThreadPoolExecutor, and android.os.AsyncTask with its serial executor.
import { type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { INT_MAX, m, noop, obj } from "./fake-helpers";

export function defineExecutors(vm: FakeVm, thread: (cls?: string, name?: string) => FakeObj) {
  const d = (c: ClassDef) => vm.define(c);
  // java.util.concurrent: FutureTask, ThreadPoolExecutor (a worker runs beforeExecute, run, afterExecute).
  d({
    name: "java.util.concurrent.FutureTask",
    extends: "java.lang.Object",
    implements: ["java.lang.Runnable"],
    fields: ["work"],
    methods: [m("run", [], (v, s) => (s!.fields.work as unknown as () => void)())],
  });
  d({
    name: "java.util.concurrent.LinkedBlockingQueue",
    extends: "java.lang.Object",
    fields: ["capacity"],
    methods: [m("remainingCapacity", [], (v, s) => s!.fields.capacity as number)],
  });
  const pools = new Map<FakeObj, { queue: FakeObj[]; workers: FakeObj[] }>();
  d({
    name: "java.util.concurrent.ThreadPoolExecutor",
    extends: "java.lang.Object",
    implements: ["java.util.concurrent.Executor"],
    fields: ["core", "max", "workQueue"],
    methods: [
      m("execute", ["java.lang.Runnable"], (v, s, [r]) => void pools.get(s!)!.queue.push(obj(r))),
      m("beforeExecute", ["java.lang.Thread", "java.lang.Runnable"], noop),
      m("afterExecute", ["java.lang.Runnable", "java.lang.Throwable"], noop),
      m("getQueue", [], (v, s) => s!.fields.workQueue as FakeObj),
      m("getCorePoolSize", [], (v, s) => s!.fields.core as number),
      m("getMaximumPoolSize", [], (v, s) => s!.fields.max as number),
    ],
  });
  const pool = (core: number, max: number, bounded: number | null) => {
    const p = vm.newObj("java.util.concurrent.ThreadPoolExecutor", {
      core,
      max,
      workQueue: vm.newObj("java.util.concurrent.LinkedBlockingQueue", { capacity: bounded ?? INT_MAX }),
    });
    pools.set(p, { queue: [], workers: [] });
    return p;
  };
  /** Runs queued work until none is left, on worker i % core (runWorker: beforeExecute, run, afterExecute). */
  const runPool = (p: FakeObj, stepNs = 1_000_000) => {
    const st = pools.get(p)!;
    for (let i = 0; st.queue.length; i++) {
      const r = st.queue.shift()!;
      const core = p.fields.core as number;
      const w = (st.workers[i % core] ??= thread("java.lang.Thread", `pool-1-thread-${(i % core) + 1}`));
      vm.onThread(w, () => {
        vm.invoke(p, "beforeExecute", [w, r]);
        vm.advance(stepNs);
        vm.invoke(r, "run");
        vm.invoke(p, "afterExecute", [r, null]);
      });
    }
  };

  // AsyncTask (frameworks/base core/java/android/os/AsyncTask.java).
  d({
    name: "android.os.AsyncTask$SerialExecutor$1",
    extends: "java.lang.Object",
    implements: ["java.lang.Runnable"],
    fields: ["val$r", "this$0"],
    methods: [
      m("run", [], (v, s) => {
        try {
          v.invoke(obj(s!.fields.val$r), "run");
        } finally {
          v.invoke(obj(s!.fields.this$0), "scheduleNext");
        }
      }),
    ],
  });
  d({
    name: "android.os.AsyncTask$SerialExecutor",
    extends: "java.lang.Object",
    implements: ["java.util.concurrent.Executor"],
    fields: ["mTasks", "mActive"],
    methods: [
      m("execute", ["java.lang.Runnable"], (v, s, [r]) => {
        (s!.fields.mTasks as unknown as FakeObj[]).push(
          v.newObj("android.os.AsyncTask$SerialExecutor$1", { val$r: r, this$0: s }),
        );
        if (!s!.fields.mActive) v.invoke(s!, "scheduleNext");
      }),
      m("scheduleNext", [], (v, s) => {
        const next = (s!.fields.mTasks as unknown as FakeObj[]).shift() ?? null;
        s!.fields.mActive = next;
        if (next)
          v.invoke(obj(v.cls("android.os.AsyncTask").statics.get("THREAD_POOL_EXECUTOR")!.value), "execute", [
            next,
          ]);
      }),
    ],
  });
  const threadPoolExecutor = pool(4, 9, 128);
  const serial = vm.newObj("android.os.AsyncTask$SerialExecutor", {
    mTasks: [] as unknown as JVal,
    mActive: null,
  });
  d({
    name: "android.os.AsyncTask",
    extends: "java.lang.Object",
    fields: ["mFuture", "work"],
    statics: { THREAD_POOL_EXECUTOR: threadPoolExecutor, SERIAL_EXECUTOR: serial },
    methods: [
      m("execute", ["[Ljava.lang.Object;"], (v, s, [params]) =>
        v.invoke(s!, "executeOnExecutor", [serial, params]),
      ),
      m("executeOnExecutor", ["java.util.concurrent.Executor", "[Ljava.lang.Object;"], (v, s, [exec]) => {
        v.invoke(obj(exec), "execute", [s!.fields.mFuture]);
        return s!;
      }),
      m("execute", ["java.lang.Runnable"], (v, s, [r]) => v.invoke(serial, "execute", [r]), {
        isStatic: true,
      }),
    ],
  });
  const asyncTask = (cls: string, work: () => void) => {
    const t = vm.newObj(cls);
    t.fields.mFuture = vm.newObj("java.util.concurrent.FutureTask", { work: work as unknown as JVal });
    return t;
  };

  return { pool, runPool, asyncTask, serial, threadPoolExecutor };
}
