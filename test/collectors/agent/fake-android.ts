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
// - ViewRootImpl.performDraw, WindowManagerGlobal.addView, the recording canvas: see fake-android-windows.ts
//   and fake-android-views.ts.
import { FakeVm, type ClassDef, type FakeObj } from "./fake-java";
import { defineExecutors } from "./fake-android-executors";
import { defineExecutorsOfToday } from "./fake-android-async";
import { defineCoroutines } from "./fake-android-coroutines";
import { defineLoopers, type Looper } from "./fake-android-loopers";
import { defineViews } from "./fake-android-views";
import { defineInput } from "./fake-android-input";
import { defineWindows } from "./fake-android-windows";
import { m, obj } from "./fake-helpers";

export const API_LEVELS = [23, 26, 28, 29, 30, 31, 33, 34, 35] as const;
export type { Looper };

export function fakeAndroid(api: number): FakeVm {
  const vm = new FakeVm(api);
  const d = (c: ClassDef) => vm.define(c);

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

  const { mainLooper, looperFor, drain, delivered } = defineLoopers(vm, main);
  const { pool, runPool, asyncTask, serial, threadPoolExecutor } = defineExecutors(vm, thread);
  const { view } = defineViews(vm);
  const windows = defineWindows(vm, view);
  defineInput(vm);
  const modern = defineExecutorsOfToday(vm, thread);
  const coroutines = defineCoroutines(vm, thread);
  const android = {
    ...modern,
    ...coroutines,
    ...windows,
    view,
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
  };
  Object.assign(vm, { android });
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
  view: ReturnType<typeof defineViews>["view"];
} & ReturnType<typeof defineExecutorsOfToday> &
  ReturnType<typeof defineCoroutines> &
  ReturnType<typeof defineWindows>;
export const androidOf = (vm: FakeVm) => (vm as FakeVm & { android: Android }).android;
