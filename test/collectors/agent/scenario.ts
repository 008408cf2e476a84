// One app session driven through the fake framework: threads (plain, overriding run(), calling super.run(),
// inheriting an override), a HandlerThread's messages (posted, delayed, front of queue), an IntentService
// started through ContextImpl.startService, a ThreadPoolExecutor, AsyncTasks on both executors and
// AsyncTask.execute(Runnable), two Choreographer frames over an inflated view tree, and input through View,
// GestureDetector and Activity. Every time is set by the test's clock, so the expected values are exact.
import type { FakeObj, FakeVm, JVal } from "./fake-java";
import { androidOf } from "./fake-android";

const MS = 1_000_000;

export interface Driven {
  t0: number;
  /** what the test knows it did, for comparison with the parsed lines */
  threads: { cls: string; scheduled: number; started: number; ended: number }[];
  messages: { cls: string; scheduled: number; enqueued: number; started: number }[];
  service: { scheduled: number; context: string[] };
  pool: { scheduled: number[]; capacity: number };
  asyncTasks: { cls: string; capacity: number }[];
  viewCount: number;
}

export function driveSession(vm: FakeVm): Driven {
  const a = androidOf(vm);
  const work = (ms: number) => () => vm.advance(ms * MS);
  const runnable = (cls: string, ms: number): FakeObj => {
    if (!vm.classes.has(cls))
      vm.define({
        name: cls,
        extends: "java.lang.Object",
        implements: ["java.lang.Runnable"],
        app: true,
        fields: ["ms"],
        methods: [{ name: "run", body: (v, s) => v.advance((s!.fields.ms as number) * MS) }],
      });
    return vm.newObj(cls, { ms });
  };
  const runThread = (t: FakeObj) => vm.onThread(t, () => vm.invoke(t, "run"));
  const t0 = vm.clock;
  const threads: Driven["threads"] = [];

  // 1. Threads.
  vm.stack = [
    "com.example.app.Main.onCreate(Main.java:10)",
    "android.app.Activity.performCreate(Activity.java:8000)",
  ];
  const threadRun = vm.cls("java.lang.Thread").methods.get("run")![0]!;
  vm.define({
    name: "com.example.app.SyncThread",
    extends: "java.lang.Thread",
    app: true,
    methods: [{ name: "run", body: work(3) }],
  });
  vm.define({ name: "com.example.app.SyncThread2", extends: "com.example.app.SyncThread", app: true });
  vm.define({
    name: "com.example.app.SuperThread",
    extends: "java.lang.Thread",
    app: true,
    methods: [
      { name: "run", body: (v, s) => (v.advance(1 * MS), v.run(threadRun, s, [], true), v.advance(1 * MS)) },
    ],
  });
  for (const [cls, target, ms] of [
    ["java.lang.Thread", runnable("com.example.app.Job", 5), 5],
    ["com.example.app.SyncThread", null, 3],
    ["com.example.app.SyncThread2", null, 3],
    ["com.example.app.SuperThread", runnable("com.example.app.Job", 4), 6],
  ] as const) {
    const t = a.thread(cls, `${cls}-thread`, target);
    const scheduled = vm.clock;
    vm.invoke(t, "start");
    vm.advance(1 * MS);
    runThread(t);
    threads.push({ cls, scheduled, started: scheduled + MS, ended: scheduled + MS + ms * MS });
    vm.advance(1 * MS);
  }

  // 2. A HandlerThread: post, postDelayed(100 ms), sendMessageAtFrontOfQueue; then its looper runs.
  const ht = a.thread("android.os.HandlerThread", "bg");
  ht.fields.mLooper = a.looperFor(ht).obj;
  const htScheduled = vm.clock;
  vm.invoke(ht, "start");
  const h = vm.newObj("android.os.Handler", { mLooper: ht.fields.mLooper });
  vm.advance(1 * MS);
  const posted = vm.clock;
  vm.invoke(h, "post", [runnable("com.example.app.Refresh", 2)]);
  vm.invoke(h, "postDelayed", [runnable("com.example.app.Retry", 2), 100]);
  const due = (Math.floor(posted / MS) + 100) * MS;
  // A debounce: posted, then taken back before the looper runs it; it never runs, so it is no task.
  const debounced = runnable("com.example.app.Debounced", 1);
  vm.invoke(h, "postDelayed", [debounced, 50]);
  vm.invoke(h, "removeCallbacks", [debounced]);
  vm.invoke(h, "sendMessageAtFrontOfQueue", [
    vm.newObj("android.os.Message", { callback: runnable("com.example.app.Urgent", 1) }),
  ]);
  vm.advance(2 * MS);
  const htStarted = vm.clock;
  runThread(ht);
  threads.push({
    cls: "android.os.HandlerThread",
    scheduled: htScheduled,
    started: htStarted,
    ended: vm.clock,
  });
  // In scheduling order; the looper runs Urgent (front of queue) first, then Refresh, then Retry when due.
  const messages: Driven["messages"] = [
    { cls: "com.example.app.Refresh", scheduled: posted, enqueued: posted, started: htStarted + MS },
    { cls: "com.example.app.Retry", scheduled: due, enqueued: posted, started: due },
    { cls: "com.example.app.Urgent", scheduled: posted, enqueued: posted, started: htStarted },
  ];

  // 3. An IntentService: startService now, the service's onStart 5 ms later, its thread after that.
  vm.define({
    name: "com.example.app.SyncService",
    extends: "android.app.IntentService",
    app: true,
    methods: [{ name: "onHandleIntent", args: ["android.content.Intent"], body: work(7) }],
  });
  const st = a.thread("android.os.HandlerThread", "IntentService[SyncService]");
  st.fields.mLooper = a.looperFor(st).obj;
  const service = vm.newObj("com.example.app.SyncService", { mThread: st });
  service.fields.mServiceHandler = vm.newObj("android.app.IntentService$ServiceHandler", {
    mLooper: st.fields.mLooper,
    this$0: service,
  });
  const component = () => vm.newObj("android.content.ComponentName", { cls: "com.example.app.SyncService" });
  const serviceContext = ["com.example.app.Main.sync(Main.java:20)"];
  vm.stack = serviceContext;
  const startedAt = vm.clock;
  vm.invoke(vm.newObj("android.app.ContextImpl"), "startService", [
    vm.newObj("android.content.Intent", { component: component() }),
  ]);
  vm.stack = ["android.app.ActivityThread.handleServiceArgs(ActivityThread.java:4900)"];
  vm.advance(5 * MS);
  vm.invoke(service, "onStart", [vm.newObj("android.content.Intent", { component: component() }), 1]);
  vm.advance(1 * MS);
  runThread(st);
  vm.stack = ["com.example.app.Main.onCreate(Main.java:10)"];

  // 4. A ThreadPoolExecutor, 2 core threads over an unbounded queue: capacity 2.
  const p = a.pool(2, 4, null);
  const poolScheduled: number[] = [];
  for (let i = 0; i < 3; i++) {
    poolScheduled.push(vm.clock);
    vm.invoke(p, "execute", [runnable("com.example.app.Decode", 1)]);
    vm.advance(1 * MS);
  }
  a.runPool(p);

  // 5. AsyncTasks: two serial, one on THREAD_POOL_EXECUTOR, one AsyncTask.execute(Runnable).
  vm.define({ name: "com.example.app.LoadTask", extends: "android.os.AsyncTask", app: true });
  const OBJS = ["[Ljava.lang.Object;"];
  const at1 = a.asyncTask("com.example.app.LoadTask", work(4));
  const at2 = a.asyncTask("com.example.app.LoadTask", work(4));
  const at3 = a.asyncTask("com.example.app.LoadTask", work(2));
  vm.invoke(at1, "execute", [[] as JVal[]], OBJS);
  vm.invoke(at2, "execute", [[] as JVal[]], OBJS);
  vm.invoke(at3, "executeOnExecutor", [a.threadPoolExecutor, [] as JVal[]]);
  vm.invokeStatic(
    "android.os.AsyncTask",
    "execute",
    [runnable("com.example.app.Cleanup", 1)],
    ["java.lang.Runnable"],
  );
  a.runPool(a.threadPoolExecutor);

  // 6. Two frames over an inflated tree: a DecorView with a title TextView and an invisible background view.
  // Frame 1 lays the new window out and records both visible views; then the title is invalidated, so
  // frame 2 re-records the title only and replays the DecorView.
  vm.define({ name: "com.android.internal.policy.DecorView", extends: "android.widget.FrameLayout" });
  const decor = a.view("com.android.internal.policy.DecorView");
  const title = a.view("android.widget.TextView", { mID: 0x7f0a0002 }, decor);
  a.view(
    "android.view.View",
    { mBackground: vm.newObj("android.graphics.drawable.Drawable"), mViewFlags: 4 },
    decor,
  );
  const inflater = vm.newObj("android.view.LayoutInflater", { build: (() => decor) as unknown as JVal });
  vm.invoke(inflater, "inflate", [0x7f0c0001, null], ["int", "android.view.ViewGroup"]);
  a.addWindow(decor, 0, 0, 1080, 2400);
  a.frame();
  vm.invoke(title, "invalidate");
  a.frame();

  // 7. Input: a click, a tap, a drag, a long press, the back key.
  vm.invoke(title, "performClick");
  vm.define({
    name: "com.example.app.FeedGestures",
    extends: "android.view.GestureDetector$OnGestureListener",
    app: true,
  });
  const g = vm.newObj("android.view.GestureDetector", {
    mListener: vm.newObj("com.example.app.FeedGestures"),
  });
  const touch = (action: number, x: number, y: number) => {
    vm.advance(10 * MS);
    vm.invoke(g, "onTouchEvent", [vm.newObj("android.view.MotionEvent", { action, x, y })]);
  };
  touch(0, 100, 100);
  touch(1, 101, 100);
  touch(0, 100, 100);
  touch(2, 100, 160);
  touch(2, 100, 260);
  touch(1, 100, 300);
  touch(0, 100, 100);
  vm.invoke(g, "dispatchLongPress");
  touch(1, 100, 100);
  const activity = vm.newObj("android.app.Activity");
  for (const action of [0, 1])
    vm.invoke(activity, "dispatchKeyEvent", [vm.newObj("android.view.KeyEvent", { action, code: 4 })]);

  return {
    t0,
    threads,
    messages,
    service: { scheduled: startedAt, context: serviceContext },
    pool: { scheduled: poolScheduled, capacity: 2 },
    asyncTasks: [
      { cls: "com.example.app.LoadTask", capacity: 1 },
      { cls: "com.example.app.LoadTask", capacity: 1 },
      { cls: "com.example.app.LoadTask", capacity: 9 },
      { cls: "com.example.app.Cleanup", capacity: 1 },
    ],
    viewCount: 3,
  };
}
