// kotlinx-coroutines-core's dispatchers as its sources run them (kotlinx/coroutines/scheduling/Dispatcher.kt,
// DefaultIoScheduler, internal/LimitedDispatcher.kt, DispatchedTask.kt): Dispatchers.Default dispatches to the
// CoroutineScheduler; Dispatchers.IO is a LimitedDispatcher(64) over UnlimitedIoScheduler whose worker loop is
// what reaches the scheduler; a worker runs each task through DispatchedTask.run.
import { type ClassDef, type FakeObj, type FakeVm } from "./fake-java";
import { m, obj } from "./fake-helpers";

export function defineCoroutines(vm: FakeVm, thread: (cls?: string, name?: string) => FakeObj) {
  const d = (c: ClassDef) => vm.define(c);
  const queues = new Map<FakeObj, FakeObj[]>();
  const queueOf = (p: FakeObj) => queues.get(p) ?? (queues.set(p, []), queues.get(p)!);
  // kotlinx.coroutines: DispatchedContinuation (a DispatchedTask), the CoroutineScheduler, Dispatchers.Default
  // (DefaultScheduler) and Dispatchers.IO (DefaultIoScheduler -> LimitedDispatcher over UnlimitedIoScheduler).
  const K = "kotlinx.coroutines";
  const CTX = "kotlin.coroutines.CoroutineContext";
  d({ name: CTX, extends: "java.lang.Object", app: true });
  d({
    name: `${K}.DispatchedTask`,
    extends: "java.lang.Object",
    implements: ["java.lang.Runnable"],
    app: true,
    fields: ["continuation"],
    // run resumes the continuation: here, the suspend lambda's next step.
    methods: [m("run", [], (v, s) => v.invoke(obj(s!.fields.continuation), "invokeSuspend"))],
  });
  d({
    name: `${K}.internal.DispatchedContinuation`,
    extends: `${K}.DispatchedTask`,
    app: true,
    fields: ["dispatcher"],
  });
  d({
    name: `${K}.scheduling.CoroutineScheduler`,
    extends: "java.lang.Object",
    implements: ["java.util.concurrent.Executor"],
    app: true,
    methods: [
      m(
        "dispatch",
        ["java.lang.Runnable", `${K}.scheduling.TaskContext`, "boolean"],
        (v, s, [block]) => void queueOf(s!).push(obj(block)),
      ),
    ],
  });
  const scheduler = vm.newObj(`${K}.scheduling.CoroutineScheduler`);
  d({ name: `${K}.scheduling.TaskContext`, extends: "java.lang.Object", app: true, fields: ["taskMode"] });
  const nonBlocking = vm.newObj(`${K}.scheduling.TaskContext`, { taskMode: 0 });
  const blocking = vm.newObj(`${K}.scheduling.TaskContext`, { taskMode: 1 });
  d({
    name: `${K}.scheduling.SchedulerCoroutineDispatcher`,
    extends: "java.lang.Object",
    app: true,
    fields: ["corePoolSize", "maxPoolSize"],
    methods: [
      m("dispatch", [CTX, "java.lang.Runnable"], (v, s, [, block]) =>
        v.invoke(scheduler, "dispatch", [block, nonBlocking, false]),
      ),
      m(
        "dispatchWithContext",
        ["java.lang.Runnable", `${K}.scheduling.TaskContext`, "boolean"],
        (v, s, args) => v.invoke(scheduler, "dispatch", args),
      ),
    ],
  });
  d({
    name: `${K}.scheduling.DefaultScheduler`,
    extends: `${K}.scheduling.SchedulerCoroutineDispatcher`,
    app: true,
  });
  const defaultScheduler = vm.newObj(`${K}.scheduling.DefaultScheduler`, {
    corePoolSize: 8,
    maxPoolSize: 2097150,
  });
  d({
    name: `${K}.scheduling.UnlimitedIoScheduler`,
    extends: "java.lang.Object",
    app: true,
    methods: [
      m("dispatch", [CTX, "java.lang.Runnable"], (v, s, [, block]) =>
        v.invoke(defaultScheduler, "dispatchWithContext", [block, blocking, false]),
      ),
    ],
  });
  const LIMITED = `${K}.internal.LimitedDispatcher`;
  d({
    name: `${LIMITED}$Worker`,
    extends: "java.lang.Object",
    implements: ["java.lang.Runnable"],
    app: true,
    fields: ["this$0"],
    // The worker loop: run queued blocks until none is left, then give its slot back.
    methods: [
      m("run", [], (v, s) => {
        const lim = obj(s!.fields.this$0);
        for (let b = queueOf(lim).shift(); b; b = queueOf(lim).shift()) v.invoke(b, "run");
        lim.fields.runningWorkers = (lim.fields.runningWorkers as number) - 1;
      }),
    ],
  });
  d({
    name: LIMITED,
    extends: "java.lang.Object",
    app: true,
    fields: ["dispatcher", "parallelism", "runningWorkers"],
    methods: [
      m("dispatch", [CTX, "java.lang.Runnable"], (v, s, [ctx, block]) => {
        queueOf(s!).push(obj(block));
        if ((s!.fields.runningWorkers as number) >= (s!.fields.parallelism as number)) return;
        s!.fields.runningWorkers = (s!.fields.runningWorkers as number) + 1;
        v.invoke(obj(s!.fields.dispatcher), "dispatch", [ctx, v.newObj(`${LIMITED}$Worker`, { this$0: s })]);
      }),
    ],
  });
  const limited = (over: FakeObj, parallelism: number) =>
    vm.newObj(LIMITED, { dispatcher: over, parallelism, runningWorkers: 0 });
  d({
    name: `${K}.scheduling.DefaultIoScheduler`,
    extends: "java.lang.Object",
    app: true,
    fields: ["default"],
    methods: [
      m("dispatch", [CTX, "java.lang.Runnable"], (v, s, args) =>
        v.invoke(obj(s!.fields.default), "dispatch", args),
      ),
    ],
  });
  const io = vm.newObj(`${K}.scheduling.DefaultIoScheduler`, {
    default: limited(vm.newObj(`${K}.scheduling.UnlimitedIoScheduler`), 64),
  });
  const context = vm.newObj(CTX);
  /** launch(dispatcher) { ... }: a DispatchedContinuation over the app's suspend lambda, dispatched. */
  const launch = (dispatcher: FakeObj, lambda: FakeObj) => {
    const block = vm.newObj(`${K}.internal.DispatchedContinuation`, { continuation: lambda, dispatcher });
    vm.invoke(dispatcher, "dispatch", [context, block]);
    return block;
  };
  /** The scheduler's workers: CoroutineScheduler.Worker.runSafely(task) -> task.run(). */
  const runCoroutines = (stepNs = 1_000_000) => {
    const q = queueOf(scheduler);
    const w = thread("java.lang.Thread", "DefaultDispatcher-worker-1");
    while (q.length) {
      const t = q.shift()!;
      vm.onThread(w, () => {
        vm.advance(stepNs);
        vm.invoke(t, "run");
      });
    }
  };

  return { dispatchers: { io, default: defaultScheduler, limited }, launch, runCoroutines };
}
