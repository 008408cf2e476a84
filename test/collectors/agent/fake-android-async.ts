// The async work of today's apps, with the call paths of their sources: libcore's
// java/util/concurrent/ScheduledThreadPoolExecutor.java (schedule/execute/submit/scheduleAtFixedRate ->
// delayedExecute; a periodic ScheduledFutureTask.run -> reExecutePeriodic), ForkJoinPool.java and
// ForkJoinTask.java (execute wraps a plain Runnable in ForkJoinTask$RunnableExecuteAction; a worker runs
// doExec -> exec) and CompletableFuture.java (supplyAsync -> ASYNC_POOL.execute(new AsyncSupply)). Kotlin
// coroutines: fake-android-coroutines.ts.
import { type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { INT_MAX, m, obj } from "./fake-helpers";

export function defineExecutorsOfToday(vm: FakeVm, thread: (cls?: string, name?: string) => FakeObj) {
  const d = (c: ClassDef) => vm.define(c);
  const queues = new Map<FakeObj, FakeObj[]>();
  const queueOf = (p: FakeObj) => queues.get(p) ?? (queues.set(p, []), queues.get(p)!);

  // ScheduledThreadPoolExecutor over its DelayedWorkQueue (unbounded: remainingCapacity is Integer.MAX_VALUE).
  d({ name: "java.util.concurrent.TimeUnit", extends: "java.lang.Object", fields: ["ns"] });
  const NANOSECONDS = vm.newObj("java.util.concurrent.TimeUnit", { ns: 1 });
  const MILLISECONDS = vm.newObj("java.util.concurrent.TimeUnit", { ns: 1_000_000 });
  vm.cls("java.util.concurrent.TimeUnit").statics.set("NANOSECONDS", { value: NANOSECONDS });
  vm.cls("java.util.concurrent.TimeUnit").statics.set("MILLISECONDS", { value: MILLISECONDS });
  const ns = (amount: JVal, unit: JVal) => (amount as number) * (obj(unit).fields.ns as number);
  d({ name: "java.util.concurrent.RunnableScheduledFuture", extends: "java.lang.Object" });
  d({
    name: "java.util.concurrent.Executors$RunnableAdapter",
    extends: "java.lang.Object",
    fields: ["task"],
  });
  d({
    name: "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask",
    extends: "java.util.concurrent.FutureTask",
    implements: ["java.util.concurrent.RunnableScheduledFuture"],
    fields: ["callable", "time", "period", "outerTask", "pool"],
    methods: [
      m("getDelay", ["java.util.concurrent.TimeUnit"], (v, s, [unit]) =>
        Math.floor(((s!.fields.time as number) - v.clock) / (obj(unit).fields.ns as number)),
      ),
      m("isPeriodic", [], (v, s) => (s!.fields.period as number) !== 0),
      // run: the callable's task once; a periodic one then sets its next time and re-queues itself.
      m("run", [], (v, s) => {
        v.invoke(obj(obj(s!.fields.callable).fields.task), "run");
        const period = s!.fields.period as number;
        if (period === 0) return;
        s!.fields.time = period > 0 ? (s!.fields.time as number) + period : v.clock - period;
        v.invoke(obj(s!.fields.pool), "reExecutePeriodic", [s!]);
      }),
    ],
  });
  const futureTask = (p: FakeObj, r: JVal, delayNs: number, period: number) =>
    vm.newObj("java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask", {
      callable: vm.newObj("java.util.concurrent.Executors$RunnableAdapter", { task: r }),
      time: vm.clock + Math.max(0, delayNs),
      period,
      pool: p,
    });
  const RSF = ["java.util.concurrent.RunnableScheduledFuture"];
  d({
    name: "java.util.concurrent.ScheduledThreadPoolExecutor",
    extends: "java.util.concurrent.ThreadPoolExecutor",
    methods: [
      m("execute", ["java.lang.Runnable"], (v, s, [r]) =>
        v.invoke(
          s!,
          "schedule",
          [r, 0, NANOSECONDS],
          ["java.lang.Runnable", "long", "java.util.concurrent.TimeUnit"],
        ),
      ),
      m("submit", ["java.lang.Runnable"], (v, s, [r]) =>
        v.invoke(
          s!,
          "schedule",
          [r, 0, NANOSECONDS],
          ["java.lang.Runnable", "long", "java.util.concurrent.TimeUnit"],
        ),
      ),
      m(
        "schedule",
        ["java.lang.Runnable", "long", "java.util.concurrent.TimeUnit"],
        (v, s, [r, delay, unit]) => {
          const t = futureTask(s!, r, ns(delay, unit), 0);
          v.invoke(s!, "delayedExecute", [t], RSF);
          return t;
        },
      ),
      m(
        "scheduleAtFixedRate",
        ["java.lang.Runnable", "long", "long", "java.util.concurrent.TimeUnit"],
        (v, s, [r, initial, period, unit]) => {
          const t = futureTask(s!, r, ns(initial, unit), ns(period, unit));
          v.invoke(s!, "delayedExecute", [t], RSF);
          return t;
        },
      ),
      m("delayedExecute", RSF, (v, s, [t]) => void queueOf(s!).push(obj(t))),
      m("reExecutePeriodic", RSF, (v, s, [t]) => void queueOf(s!).push(obj(t))),
    ],
  });
  const scheduledPool = (core: number) =>
    vm.newObj("java.util.concurrent.ScheduledThreadPoolExecutor", {
      core,
      max: INT_MAX,
      workQueue: vm.newObj("java.util.concurrent.LinkedBlockingQueue", { capacity: INT_MAX }),
    });
  /** Its workers take the earliest-due task when due (DelayedWorkQueue.take), `runs` times at most. */
  const runScheduled = (p: FakeObj, runs: number, stepNs = 1_000_000) => {
    const q = queueOf(p);
    const w = thread("java.lang.Thread", "pool-2-thread-1");
    for (let i = 0; i < runs && q.length; i++) {
      q.sort((a, b) => (a.fields.time as number) - (b.fields.time as number));
      const t = q.shift()!;
      if ((t.fields.time as number) > vm.clock) vm.clock = t.fields.time as number;
      vm.onThread(w, () => {
        vm.invoke(p, "beforeExecute", [w, t]);
        vm.advance(stepNs);
        vm.invoke(t, "run");
        vm.invoke(p, "afterExecute", [t, null]);
      });
    }
  };

  // ForkJoinPool, ForkJoinTask, CompletableFuture.supplyAsync.
  d({
    name: "java.util.concurrent.ForkJoinTask",
    extends: "java.lang.Object",
    implements: ["java.util.concurrent.Future"],
    methods: [
      m("doExec", [], (v, s) => (v.invoke(s!, "exec"), 0), { ret: "int" }),
      m("exec", [], () => true, { ret: "boolean" }),
    ],
  });
  d({
    name: "java.util.concurrent.ForkJoinTask$RunnableExecuteAction",
    extends: "java.util.concurrent.ForkJoinTask",
    fields: ["runnable"],
    methods: [m("exec", [], (v, s) => (v.invoke(obj(s!.fields.runnable), "run"), true), { ret: "boolean" })],
  });
  d({
    name: "java.util.concurrent.CompletableFuture$AsyncSupply",
    extends: "java.util.concurrent.ForkJoinTask",
    implements: ["java.lang.Runnable"],
    fields: ["fn"],
    methods: [
      m("exec", [], (v, s) => (v.invoke(s!, "run"), false), { ret: "boolean" }),
      m("run", [], (v, s) => v.invoke(obj(s!.fields.fn), "get")),
    ],
  });
  const FJT = "java.util.concurrent.ForkJoinTask";
  d({
    name: "java.util.concurrent.ForkJoinPool",
    extends: "java.lang.Object",
    implements: ["java.util.concurrent.Executor"],
    fields: ["parallelism"],
    methods: [
      m("execute", ["java.lang.Runnable"], (v, s, [r]) => {
        const job = obj(r).cls.isSubclassOf(FJT)
          ? obj(r)
          : v.newObj("java.util.concurrent.ForkJoinTask$RunnableExecuteAction", { runnable: r });
        queueOf(s!).push(job);
      }),
      m("execute", [FJT], (v, s, [t]) => void queueOf(s!).push(obj(t))),
      m("submit", [FJT], (v, s, [t]) => (queueOf(s!).push(obj(t)), t)),
      m("getParallelism", [], (v, s) => s!.fields.parallelism as number, { ret: "int" }),
    ],
  });
  const commonPool = vm.newObj("java.util.concurrent.ForkJoinPool", { parallelism: 7 });
  d({
    name: "java.util.concurrent.CompletableFuture",
    extends: "java.lang.Object",
    methods: [
      m(
        "supplyAsync",
        ["java.util.function.Supplier"],
        (v, s, [fn]) => {
          v.invoke(
            commonPool,
            "execute",
            [v.newObj("java.util.concurrent.CompletableFuture$AsyncSupply", { fn })],
            ["java.lang.Runnable"],
          );
          return v.newObj("java.util.concurrent.CompletableFuture");
        },
        { isStatic: true },
      ),
    ],
  });
  /** A worker takes each queued task in turn and runs ForkJoinTask.doExec (ForkJoinPool.WorkQueue.topLevelExec). */
  const runForkJoin = (p: FakeObj, stepNs = 1_000_000) => {
    const q = queueOf(p);
    const w = thread("java.lang.Thread", "ForkJoinPool.commonPool-worker-1");
    while (q.length) {
      const t = q.shift()!;
      vm.onThread(w, () => {
        vm.advance(stepNs);
        vm.invoke(t, "doExec");
      });
    }
  };

  return {
    scheduledPool,
    runScheduled,
    commonPool,
    runForkJoin,
    MILLISECONDS,
  };
}
