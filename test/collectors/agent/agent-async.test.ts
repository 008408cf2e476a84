import { describe, expect, it } from "vitest";
import { androidOf, fakeAndroid } from "./fake-android";
import type { FakeObj, FakeVm } from "./fake-java";
import { loadAgent, readLines } from "./load-agent";

const MS = 1_000_000;
const rel = (vm: FakeVm, t0: number) => (x: bigint | null) =>
  x === null ? null : Number(x - BigInt(t0)) / MS;

/** An app class with one method that takes `ms` of the fake's clock. */
function work(vm: FakeVm, cls: string, method: string, ms: number, iface = "java.lang.Runnable"): FakeObj {
  if (!vm.classes.has(cls))
    vm.define({
      name: cls,
      extends: "java.lang.Object",
      implements: [iface],
      app: true,
      methods: [{ name: method, body: (v) => void v.advance(ms * MS) }],
    });
  return vm.newObj(cls);
}

describe.each([23, 29, 35])("async work of today's apps on API %i", (api) => {
  it("a coroutine on Dispatchers.IO and one on Default are tasks queued on their dispatcher, with the wait driven", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const a = androidOf(vm);
    const t0 = vm.clock;
    a.launch(a.dispatchers.io, work(vm, "com.example.app.FeedRepo$load$1", "invokeSuspend", 3));
    vm.advance(2 * MS);
    a.launch(a.dispatchers.default, work(vm, "com.example.app.Parser$parse$1", "invokeSuspend", 5));
    vm.advance(2 * MS);
    // The scheduler's worker runs the IO dispatcher's worker loop (FeedRepo), then Parser.
    a.runCoroutines();
    const d = readLines(vm);
    const at = rel(vm, t0);
    expect(
      d.tasks.map((t) => [
        t.category,
        t.task_class,
        t.pool_capacity,
        at(t.scheduled),
        at(t.started),
        at(t.ended),
      ]),
    ).toEqual([
      ["coroutine", "com.example.app.FeedRepo$load$1", 64, 0, 5, 8],
      ["coroutine", "com.example.app.Parser$parse$1", 8, 2, 9, 14],
    ]);
    expect(d.tasks[0]!.executor_id).toMatch(/^kotlinx\.coroutines\.internal\.LimitedDispatcher@/);
    expect(d.tasks[1]!.executor_id).toMatch(/^kotlinx\.coroutines\.scheduling\.DefaultScheduler@/);
    expect(d.tasks.every((t) => t.thread_name === "DefaultDispatcher-worker-1")).toBe(true);
  });

  it("an RxJava-style ScheduledThreadPoolExecutor task waits from its due time; a periodic one is a task per run", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const a = androidOf(vm);
    const pool = a.scheduledPool(1);
    const t0 = vm.clock;
    const SCHEDULE = ["java.lang.Runnable", "long", "java.util.concurrent.TimeUnit"];
    vm.invoke(pool, "submit", [work(vm, "com.example.app.RxFetch", "run", 20)]);
    vm.invoke(
      pool,
      "schedule",
      [work(vm, "com.example.app.RxTimeout", "run", 1), 5, a.MILLISECONDS],
      SCHEDULE,
    );
    a.runScheduled(pool, 2);
    const at = rel(vm, t0);
    const d = readLines(vm);
    // RxFetch runs 0-21 ms (1 ms to start, 20 ms of work); RxTimeout is due at 5 ms and starts at 21 ms.
    expect(
      d.tasks.map((t) => [t.category, t.task_class, at(t.enqueued), at(t.scheduled), at(t.started)]),
    ).toEqual([
      ["scheduled_executor", "com.example.app.RxFetch", 0, 0, 0],
      ["scheduled_executor", "com.example.app.RxTimeout", 0, 5, 21],
    ]);
    expect(d.tasks.map((t) => [t.pool_capacity, t.executor_id === d.tasks[0]!.executor_id])).toEqual([
      [1, true],
      [1, true],
    ]);

    const t1 = vm.clock;
    vm.invoke(pool, "scheduleAtFixedRate", [
      work(vm, "com.example.app.Poll", "run", 2),
      50,
      100,
      a.MILLISECONDS,
    ]);
    a.runScheduled(pool, 3);
    const polls = readLines(vm).tasks.filter((t) => t.task_class === "com.example.app.Poll");
    const from = rel(vm, t1);
    expect(polls.map((t) => [from(t.scheduled), from(t.started), from(t.ended)])).toEqual([
      [50, 50, 53],
      [150, 150, 153],
      [250, 250, 253],
      // re-queued after its third run, waiting for the next
      [350, null, null],
    ]);
  });

  it("ForkJoinPool work (CompletableFuture.supplyAsync, execute(Runnable)) is a task of the pool with its parallelism", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const a = androidOf(vm);
    const t0 = vm.clock;
    vm.invokeStatic("java.util.concurrent.CompletableFuture", "supplyAsync", [
      work(vm, "com.example.app.LoadProfile", "get", 4, "java.util.function.Supplier"),
    ]);
    vm.advance(3 * MS);
    vm.invoke(
      a.commonPool,
      "execute",
      [work(vm, "com.example.app.Warmup", "run", 2)],
      ["java.lang.Runnable"],
    );
    a.runForkJoin(a.commonPool);
    const at = rel(vm, t0);
    const d = readLines(vm);
    expect(
      d.tasks.map((t) => [
        t.category,
        t.task_class,
        t.pool_capacity,
        at(t.scheduled),
        at(t.started),
        at(t.ended),
      ]),
    ).toEqual([
      ["fork_join_pool", "com.example.app.LoadProfile", 7, 0, 4, 8],
      ["fork_join_pool", "com.example.app.Warmup", 7, 3, 9, 11],
    ]);
    expect(d.tasks.every((t) => t.thread_name === "ForkJoinPool.commonPool-worker-1")).toBe(true);
  });

  it("a Runnable submitted twice before it runs is two tasks, on an executor and on a Handler", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const a = androidOf(vm);
    const t0 = vm.clock;
    const r = work(vm, "com.example.app.Refresh", "run", 2);
    const pool = a.pool(1, 1, null);
    vm.invoke(pool, "execute", [r]);
    vm.advance(1 * MS);
    vm.invoke(pool, "execute", [r]);
    a.runPool(pool);
    const ht = a.thread("android.os.HandlerThread", "bg");
    const l = a.looperFor(ht);
    const h = vm.newObj("android.os.Handler", { mLooper: l.obj });
    const t1 = vm.clock;
    vm.invoke(h, "post", [r]);
    vm.invoke(h, "post", [r]);
    a.drain(l);
    const d = readLines(vm);
    const at = rel(vm, t0);
    // Worker: first run 1-4 ms (1 ms to start, 2 ms of work, then the next), second 4-7 ms.
    expect(
      d.tasks
        .filter((t) => t.category === "thread_pool_executor")
        .map((t) => [at(t.scheduled), at(t.started), at(t.ended)]),
    ).toEqual([
      [0, 1, 4],
      [1, 4, 7],
    ]);
    const msgs = d.tasks.filter((t) => t.category === "handler_thread");
    expect(msgs.map((t) => [rel(vm, t1)(t.scheduled), t.started !== null, t.ended !== null])).toEqual([
      [0, true, true],
      [0, true, true],
    ]);
    expect(d.warnings).toEqual([]);
  });
});
