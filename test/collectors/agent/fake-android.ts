// The framework classes the agent hooks, modelled per API level with the signatures AOSP declares
// (frameworks/base at android-6.0.0 (23) to android-15 (35); libcore java.lang.Thread and
// java.util.concurrent). Only what the agent touches is modelled, and the bodies follow AOSP's call paths:
// AsyncTask.execute -> executeOnExecutor -> SerialExecutor.execute -> a wrapper Runnable (javac's val$r) ->
// THREAD_POOL_EXECUTOR.execute; ThreadPoolExecutor's worker -> beforeExecute, run, afterExecute;
// Handler.post/sendMessage -> sendMessageAtTime; Looper -> Handler.dispatchMessage; IntentService.onStart ->
// ServiceHandler.sendMessage. Signatures that differ by level:
// - Choreographer.doFrame(long, int) up to API 30; doFrame(long, int, DisplayEventReceiver$VsyncEventData)
//   from API 31 (Android 12, FrameTimeline).
// - ContextImpl.startForegroundService(Intent) from API 26 (Android 8.0); startServiceCommon(Intent, UserHandle)
//   before, (Intent, boolean, UserHandle) from 26.
// - View.performLongClick(float, float) from API 24 (Android 7.0).
import { FakeVm, type Body, type ClassDef, type FakeObj, type JVal } from "./fake-java";

export const API_LEVELS = [23, 26, 28, 29, 30, 31, 33, 34, 35] as const;
const INT_MAX = 2147483647;
const m = (
  name: string,
  args: string[],
  body: Body,
  extra: { ret?: string; isStatic?: boolean } = {},
): NonNullable<ClassDef["methods"]>[number] => ({ name, args, body, ...extra });
const obj = (v: JVal) => v as FakeObj;
const noop: Body = () => undefined;

export interface Looper {
  obj: FakeObj;
  queue: { msg: FakeObj; when: number; front: boolean }[];
}

export function fakeAndroid(api: number): FakeVm {
  const vm = new FakeVm(api);
  const d = (c: ClassDef) => vm.define(c);
  const uptime = () => Math.floor(vm.clock / 1e6);

  d({
    name: "java.lang.Class",
    extends: "java.lang.Object",
    fields: ["ref"],
    methods: [
      m("getName", [], (v, s) => s!.fields.ref as string),
      m("getSuperclass", [], (v, s) => {
        const sup = v.cls(s!.fields.ref as string).superclass;
        return sup ? v.classObjectOf(sup) : null;
      }),
      m("getClassLoader", [], (v, s) => v.cls(s!.fields.ref as string).loader),
      m(
        "isInstance",
        ["java.lang.Object"],
        (v, s, [o]) => o instanceof Object && obj(o).cls.isSubclassOf(s!.fields.ref as string),
      ),
    ],
  });
  const object = vm.cls("java.lang.Object");
  vm.addMethod(
    object,
    m("getClass", [], (v, s) => v.classObjectOf(s!.cls)),
  );
  vm.addMethod(
    object,
    m("toString", [], (v, s) => `${s!.cls.name}@${s!.hash.toString(16)}`),
  );
  d({ name: "java.lang.Runnable", extends: "java.lang.Object" });
  d({
    name: "java.lang.StackTraceElement",
    extends: "java.lang.Object",
    fields: ["text"],
    methods: [m("toString", [], (v, s) => s!.fields.text as string)],
  });
  d({
    name: "java.lang.System",
    extends: "java.lang.Object",
    methods: [
      m("nanoTime", [], (v) => v.clock, { ret: "long", isStatic: true }),
      m("identityHashCode", ["java.lang.Object"], (v, s, [o]) => (o === null ? 0 : obj(o).hash), {
        isStatic: true,
      }),
    ],
  });
  d({
    name: "android.util.Log",
    extends: "java.lang.Object",
    methods: [
      m(
        "i",
        ["java.lang.String", "java.lang.String"],
        (v, s, [tag, msg]) => {
          v.log.push({ tid: v.current.fields.tid as number, tag: tag as string, message: msg as string });
          return 0;
        },
        { isStatic: true },
      ),
    ],
  });
  d({ name: "android.os.Build$VERSION", extends: "java.lang.Object", statics: { SDK_INT: api } });
  d({
    name: "android.app.ActivityThread",
    extends: "java.lang.Object",
    methods: [m("currentPackageName", [], () => "com.example.app", { isStatic: true })],
  });
  d({
    name: "android.os.Process",
    extends: "java.lang.Object",
    methods: [m("myTid", [], (v) => v.current.fields.tid as number, { isStatic: true })],
  });

  // java.lang.Thread: start() hands the thread to the VM, which calls run() virtually on the new thread.
  let nextTid = vm.pid + 1;
  d({
    name: "java.lang.Thread",
    extends: "java.lang.Object",
    implements: ["java.lang.Runnable"],
    fields: ["name", "target", "tid", "started"],
    methods: [
      m("start", [], (v, s) => {
        s!.fields.started = true;
        return undefined;
      }),
      m("run", [], (v, s) => (s!.fields.target ? v.invoke(obj(s!.fields.target), "run") : undefined)),
      m("getName", [], (v, s) => s!.fields.name as string),
      m("currentThread", [], (v) => v.current, { isStatic: true }),
      m("getStackTrace", [], (v) =>
        [
          "dalvik.system.VMStack.getThreadStackTrace(Native Method)",
          "java.lang.Thread.getStackTrace(Thread.java:1538)",
          ...v.stack,
        ].map((text) => v.newObj("java.lang.StackTraceElement", { text })),
      ),
    ],
  });
  const thread = (cls = "java.lang.Thread", name = `Thread-${nextTid}`, target: FakeObj | null = null) =>
    vm.newObj(cls, { name, target, tid: nextTid++, started: false });
  vm.current = thread("java.lang.Thread", "main");
  vm.current.fields.tid = vm.pid;
  const main = vm.current;

  // Looper, MessageQueue, Message, Handler, HandlerThread.
  d({ name: "android.os.MessageQueue", extends: "java.lang.Object" });
  d({
    name: "android.os.Message",
    extends: "java.lang.Object",
    fields: ["what", "obj", "arg1", "target", "callback", "when"],
    methods: [m("getCallback", [], (v, s) => (s!.fields.callback ?? null) as JVal)],
  });
  const loopers = new Map<FakeObj, Looper>();
  d({
    name: "android.os.Looper",
    extends: "java.lang.Object",
    fields: ["mQueue", "mThread"],
    methods: [
      m("getQueue", [], (v, s) => s!.fields.mQueue as FakeObj),
      m("getThread", [], (v, s) => s!.fields.mThread as FakeObj),
      m("isCurrentThread", [], (v, s) => s!.fields.mThread === v.current),
      m("getMainLooper", [], () => mainLooper.obj, { isStatic: true }),
      m(
        "myLooper",
        [],
        (v) => [...loopers.values()].find((l) => l.obj.fields.mThread === v.current)?.obj ?? null,
        { isStatic: true },
      ),
    ],
  });
  const looperFor = (t: FakeObj): Looper => {
    const l = {
      obj: vm.newObj("android.os.Looper", { mQueue: vm.newObj("android.os.MessageQueue"), mThread: t }),
      queue: [],
    };
    loopers.set(l.obj, l);
    return l;
  };
  const mainLooper = looperFor(main);
  const enqueue = (h: FakeObj, msg: FakeObj, when: number, front: boolean) => {
    msg.fields.target = h;
    msg.fields.when = when;
    const l = loopers.get(obj(h.fields.mLooper))!;
    if (front) l.queue.unshift({ msg, when, front });
    else l.queue.push({ msg, when, front });
    return true;
  };
  d({
    name: "android.os.Handler",
    extends: "java.lang.Object",
    fields: ["mLooper"],
    methods: [
      m("getLooper", [], (v, s) => s!.fields.mLooper as FakeObj),
      m(
        "sendMessageAtTime",
        ["android.os.Message", "long"],
        (v, s, [msg, when]) => enqueue(s!, obj(msg), when as number, false),
        { ret: "boolean" },
      ),
      m(
        "sendMessageAtFrontOfQueue",
        ["android.os.Message"],
        (v, s, [msg]) => enqueue(s!, obj(msg), 0, true),
        { ret: "boolean" },
      ),
      m("sendMessageDelayed", ["android.os.Message", "long"], (v, s, [msg, delay]) =>
        v.invoke(s!, "sendMessageAtTime", [msg, uptime() + Math.max(0, delay as number)]),
      ),
      m("sendMessage", ["android.os.Message"], (v, s, [msg]) => v.invoke(s!, "sendMessageDelayed", [msg, 0])),
      m("post", ["java.lang.Runnable"], (v, s, [r]) =>
        v.invoke(s!, "sendMessageDelayed", [v.newObj("android.os.Message", { callback: r }), 0]),
      ),
      m("postDelayed", ["java.lang.Runnable", "long"], (v, s, [r, delay]) =>
        v.invoke(s!, "sendMessageDelayed", [v.newObj("android.os.Message", { callback: r }), delay]),
      ),
      m("dispatchMessage", ["android.os.Message"], (v, s, [msg]) =>
        obj(msg).fields.callback
          ? v.invoke(obj(obj(msg).fields.callback), "run")
          : v.invoke(s!, "handleMessage", [msg]),
      ),
      m("handleMessage", ["android.os.Message"], noop),
    ],
  });
  /** Looper.loop() until the queue is empty: each message when it is due, in `when` order (front ones first). */
  const drain = (l: Looper) => {
    for (;;) {
      const next = [...l.queue].sort((a, b) =>
        a.front !== b.front ? (a.front ? -1 : 1) : a.when - b.when,
      )[0];
      if (!next) return;
      l.queue.splice(l.queue.indexOf(next), 1);
      if (next.when * 1e6 > vm.clock) vm.clock = next.when * 1e6;
      vm.onThread(obj(l.obj.fields.mThread), () =>
        vm.invoke(obj(next.msg.fields.target), "dispatchMessage", [next.msg]),
      );
    }
  };
  // HandlerThread.run() is its own (AOSP HandlerThread.java): prepare a looper, loop. Here the looper exists
  // from construction so messages can be queued before the thread runs; run() drains it and returns.
  d({
    name: "android.os.HandlerThread",
    extends: "java.lang.Thread",
    fields: ["mLooper"],
    methods: [
      m("run", [], (v, s) => drain(loopers.get(obj(s!.fields.mLooper))!)),
      m("getLooper", [], (v, s) => s!.fields.mLooper as FakeObj),
    ],
  });

  // IntentService: ContextImpl.startService goes through the system; the service's onStart later sends the
  // intent (a copy, as delivered by the activity manager) to its ServiceHandler on its own HandlerThread.
  d({
    name: "android.content.ComponentName",
    extends: "java.lang.Object",
    fields: ["cls"],
    methods: [m("getClassName", [], (v, s) => s!.fields.cls as string)],
  });
  d({
    name: "android.content.Intent",
    extends: "java.lang.Object",
    fields: ["component"],
    methods: [m("getComponent", [], (v, s) => (s!.fields.component ?? null) as JVal)],
  });
  const delivered: FakeObj[] = [];
  const start: Body = (v, s, [intent]) => {
    delivered.push(obj(intent));
    return obj(intent).fields.component as FakeObj;
  };
  d({
    name: "android.app.ContextImpl",
    extends: "java.lang.Object",
    methods: [
      m("startService", ["android.content.Intent"], start, { ret: "android.content.ComponentName" }),
      ...(api >= 26
        ? [
            m("startForegroundService", ["android.content.Intent"], start, {
              ret: "android.content.ComponentName",
            }),
            m("startServiceCommon", ["android.content.Intent", "boolean", "android.os.UserHandle"], start),
          ]
        : [m("startServiceCommon", ["android.content.Intent", "android.os.UserHandle"], start)]),
    ],
  });
  d({
    name: "android.app.IntentService$ServiceHandler",
    extends: "android.os.Handler",
    fields: ["this$0"],
    methods: [
      m("handleMessage", ["android.os.Message"], (v, s, [msg]) =>
        v.invoke(obj(s!.fields.this$0), "onHandleIntent", [obj(msg).fields.obj]),
      ),
    ],
  });
  d({
    name: "android.app.IntentService",
    extends: "java.lang.Object",
    fields: ["mServiceHandler", "mThread"],
    methods: [
      m("onStart", ["android.content.Intent", "int"], (v, s, [intent, id]) =>
        v.invoke(obj(s!.fields.mServiceHandler), "sendMessage", [
          v.newObj("android.os.Message", { obj: intent, arg1: id }),
        ]),
      ),
      m("onHandleIntent", ["android.content.Intent"], noop),
    ],
  });

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

  // Views (frameworks/base core/java/android/view/View.java, ViewGroup.java, Choreographer.java).
  d({
    name: "android.content.res.Resources",
    extends: "java.lang.Object",
    fields: ["names"],
    methods: [
      m("getResourceEntryName", ["int"], (v, s, [id]) => {
        const n = (s!.fields.names as unknown as Record<number, string>)[id as number];
        if (n === undefined)
          throw new Error(
            `android.content.res.Resources$NotFoundException: #0x${(id as number).toString(16)}`,
          );
        return n;
      }),
    ],
  });
  const resources = vm.newObj("android.content.res.Resources", {
    names: { 0x7f0a0001: "feed", 0x7f0a0002: "title", 0x7f0c0001: "activity_main" } as unknown as JVal,
  });
  d({
    name: "android.graphics.Canvas",
    extends: "java.lang.Object",
    fields: ["hw"],
    methods: [m("isHardwareAccelerated", [], (v, s) => Boolean(s!.fields.hw))],
  });
  d({ name: "android.graphics.drawable.Drawable", extends: "java.lang.Object" });
  const field =
    (name: string): Body =>
    (v, s) =>
      s!.fields[name] as JVal;
  d({
    name: "android.view.View",
    extends: "java.lang.Object",
    fields: [
      "mParent",
      "mID",
      "mLeft",
      "mTop",
      "mRight",
      "mBottom",
      "mBackground",
      "mViewFlags",
      "children",
      "hw",
    ],
    methods: [
      m("measure", ["int", "int"], (v, s, args) => {
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? []) v.invoke(c, "measure", args);
        v.advance(100_000);
      }),
      m("layout", ["int", "int", "int", "int"], (v, s, [l, t, r, b]) => {
        Object.assign(s!.fields, { mLeft: l, mTop: t, mRight: r, mBottom: b });
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? [])
          v.invoke(c, "layout", [0, 0, (r as number) - (l as number), 100]);
        v.advance(50_000);
      }),
      m("draw", ["android.graphics.Canvas"], (v, s, [canvas]) => {
        for (const c of (s!.fields.children as FakeObj[] | undefined) ?? [])
          v.invoke(c, "draw", [canvas], ["android.graphics.Canvas"]);
        v.advance(200_000);
      }),
      m(
        "draw",
        ["android.graphics.Canvas", "android.view.ViewGroup", "long"],
        (v, s, [canvas]) => v.invoke(s!, "draw", [canvas], ["android.graphics.Canvas"]),
        { ret: "boolean" },
      ),
      m("getParent", [], field("mParent")),
      m("getId", [], (v, s) => (s!.fields.mID ?? -1) as number),
      m("getResources", [], () => resources),
      // A view not laid out yet has all four edges at 0 (View.java's int fields).
      m("getLeft", [], (v, s) => (s!.fields.mLeft ?? 0) as number),
      m("getTop", [], (v, s) => (s!.fields.mTop ?? 0) as number),
      m("getWidth", [], (v, s) => ((s!.fields.mRight ?? 0) as number) - ((s!.fields.mLeft ?? 0) as number)),
      m("getHeight", [], (v, s) => ((s!.fields.mBottom ?? 0) as number) - ((s!.fields.mTop ?? 0) as number)),
      m("getBackground", [], (v, s) => (s!.fields.mBackground ?? null) as JVal),
      m("getVisibility", [], (v, s) => (s!.fields.mViewFlags ?? 0) as number),
      m("isHardwareAccelerated", [], (v, s) => Boolean(s!.fields.hw)),
      m("performClick", [], () => true, { ret: "boolean" }),
      m("performLongClick", [], () => true, { ret: "boolean" }),
      ...(api >= 24
        ? [
            m("performLongClick", ["float", "float"], (v, s) => v.invoke(s!, "performLongClick", []), {
              ret: "boolean",
            }),
          ]
        : []),
      m("onScrollChanged", ["int", "int", "int", "int"], noop),
    ],
  });
  d({ name: "android.view.ViewGroup", extends: "android.view.View" });
  d({ name: "android.view.ViewRootImpl", extends: "java.lang.Object" });
  d({
    name: "android.widget.TextView",
    extends: "android.view.View",
    methods: [m("sendOnTextChanged", ["java.lang.CharSequence", "int", "int", "int"], noop)],
  });
  d({
    name: "android.view.LayoutInflater",
    extends: "java.lang.Object",
    fields: ["build"],
    methods: [
      m("inflate", ["int", "android.view.ViewGroup"], (v, s, [res, root]) =>
        v.invoke(s!, "inflate", [res, root, root !== null], ["int", "android.view.ViewGroup", "boolean"]),
      ),
      m("inflate", ["int", "android.view.ViewGroup", "boolean"], (v, s) =>
        (s!.fields.build as unknown as () => FakeObj)(),
      ),
      m("getContext", [], () => vm.newObj("android.app.ContextImpl")),
    ],
  });
  vm.addMethod(
    vm.cls("android.app.ContextImpl"),
    m("getResources", [], () => resources),
  );
  d({ name: "android.view.DisplayEventReceiver$VsyncEventData", extends: "java.lang.Object" });
  const traverse: Body = (v, s) => {
    const root = s!.fields.root as FakeObj | null;
    if (!root) return;
    v.invoke(root, "measure", [1080, 2400]);
    v.invoke(root, "layout", [0, 0, 1080, 2400]);
    v.invoke(root, "draw", [v.newObj("android.graphics.Canvas", { hw: true })], ["android.graphics.Canvas"]);
  };
  d({
    name: "android.view.Choreographer",
    extends: "java.lang.Object",
    fields: ["root"],
    methods: [
      api >= 31
        ? m("doFrame", ["long", "int", "android.view.DisplayEventReceiver$VsyncEventData"], traverse)
        : m("doFrame", ["long", "int"], traverse),
    ],
  });

  // Input: MotionEvent, GestureDetector (mAlwaysInTapRegion, dispatchLongPress), KeyEvent, Activity.
  d({
    name: "android.view.MotionEvent",
    extends: "java.lang.Object",
    fields: ["action", "x", "y"],
    methods: [
      m("getActionMasked", [], field("action")),
      m("getX", [], field("x")),
      m("getY", [], field("y")),
    ],
  });
  d({ name: "android.view.GestureDetector$OnGestureListener", extends: "java.lang.Object" });
  d({
    name: "android.view.GestureDetector",
    extends: "java.lang.Object",
    fields: ["mListener", "mAlwaysInTapRegion", "mInLongPress", "downX", "downY"],
    methods: [
      m(
        "onTouchEvent",
        ["android.view.MotionEvent"],
        (v, s, [e]) => {
          const f = s!.fields;
          const { action, x, y } = obj(e).fields as { action: number; x: number; y: number };
          if (action === 0)
            Object.assign(f, { mAlwaysInTapRegion: true, mInLongPress: false, downX: x, downY: y });
          // 8 dp touch slop at density 2.625 (ViewConfiguration.TOUCH_SLOP).
          if (action === 2 && Math.hypot(x - (f.downX as number), y - (f.downY as number)) > 21)
            f.mAlwaysInTapRegion = false;
          return true;
        },
        { ret: "boolean" },
      ),
      m("dispatchLongPress", [], (v, s) => {
        s!.fields.mInLongPress = true;
      }),
    ],
  });
  d({
    name: "android.view.KeyEvent",
    extends: "java.lang.Object",
    fields: ["action", "code"],
    methods: [
      m("getAction", [], field("action")),
      m("getKeyCode", [], field("code")),
      m("keyCodeToString", ["int"], (v, s, [c]) => (c === 4 ? "KEYCODE_BACK" : `KEYCODE_${c}`), {
        isStatic: true,
      }),
    ],
  });
  d({
    name: "android.app.Activity",
    extends: "java.lang.Object",
    methods: [m("dispatchKeyEvent", ["android.view.KeyEvent"], () => true, { ret: "boolean" })],
  });

  Object.assign(vm, {
    android: {
      main,
      mainLooper,
      looperFor,
      drain,
      thread,
      pool,
      runPool,
      asyncTask,
      serial,
      threadPoolExecutor,
      delivered,
    },
  });
  return vm;
}

export type Android = {
  main: FakeObj;
  mainLooper: Looper;
  looperFor(t: FakeObj): Looper;
  drain(l: Looper): void;
  thread(cls?: string, name?: string, target?: FakeObj | null): FakeObj;
  pool(core: number, max: number, bounded: number | null): FakeObj;
  runPool(p: FakeObj, stepNs?: number): void;
  asyncTask(cls: string, work: () => void): FakeObj;
  serial: FakeObj;
  threadPoolExecutor: FakeObj;
  delivered: FakeObj[];
};
export const androidOf = (vm: FakeVm) => (vm as FakeVm & { android: Android }).android;
