// DiagDroid §5.2 1-3: threads (scheduled at start(), run in the run() their class really has), looper
// messages (HandlerThread and any looper: sendMessageAtTime / sendMessageAtFrontOfQueue, dispatchMessage) and
// IntentService (scheduled at ContextImpl.startService, run as its ServiceHandler's message).
import type { TaskCategory } from "../protocol";
import { exactHook, exactly, recordingHook, Java, use, type HookSpec, type JavaObject } from "./hook-kit";
import type { TaskTracker } from "./task-tracker";

export function threadHooks(t: TaskTracker): HookSpec[] {
  // 1) Threads: scheduled at start(); the task runs in the run() the thread's class actually has, so the first
  // class from the thread's own up to Thread that declares run() gets hooked, once per class.
  const runHooked = new Set<string>(["java.lang.Thread"]);
  /** classes already walked: each thread class is looked at once, not at every start() */
  const walked = new Set<string>();
  const runHook = (original: Java.Method) =>
    function (this: JavaObject) {
      return t.around(original.holder.$className + ".run", `t:${t.a.id(this)}`, () => original.call(this));
    };
  function hookRunOf(thread: JavaObject) {
    for (let c: JavaObject = thread.getClass(); c !== null; c = c.getSuperclass()) {
      const name = String(c.getName());
      if (runHooked.has(name) || walked.has(name)) return;
      walked.add(name);
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
      t.a.installIn(spec, cls);
      return;
    }
  }

  // 2-3) Looper messages (HandlerThread, IntentService, any looper): scheduled at sendMessageAtTime /
  // sendMessageAtFrontOfQueue with their target time, run in dispatchMessage. An IntentService task is
  // scheduled when ContextImpl.startService ran for its component (§5.2 3), matched by class name.
  const started = new Map<string, { ts: bigint; ctx: number }[]>();
  function serviceStarted(intent: JavaObject) {
    const at = { ts: t.a.now(), ctx: t.contextId() };
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
    const handlerClass = t.className(h);
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
    const due = target !== null && target > t.a.now() ? target : null;
    const cb = msg.getCallback();
    t.schedule(
      `m:${t.a.id(msg)}`,
      category,
      `android.os.MessageQueue(${looper.getThread().getName()})@${t.a.id(looper.getQueue()).toString(16)}`,
      1,
      cb ? t.className(cb) : handlerClass,
      at,
      due,
    );
  }
  const dispatch = (original: Java.Method) =>
    function (this: JavaObject, msg: JavaObject) {
      return t.around("Handler.dispatchMessage", `m:${t.a.id(msg)}`, () => original.call(this, msg));
    };

  const T = "java.lang.Thread";
  const H = "android.os.Handler";
  const C = "android.app.ContextImpl";
  return [
    recordingHook(t.a, "threads", T, "start", [], (thread) => {
      t.schedule(
        `t:${t.a.id(thread)}`,
        "thread",
        `java.lang.Thread@${t.a.id(thread).toString(16)}`,
        null,
        t.className(thread),
      );
      hookRunOf(thread);
    }),
    exactHook("threads", T, "run", [], runHook),
    recordingHook(t.a, "handlers", H, "sendMessageAtTime", ["android.os.Message", "long"], (h, msg, when) =>
      messageSent(h, msg, Number(when)),
    ),
    recordingHook(t.a, "handlers", H, "sendMessageAtFrontOfQueue", ["android.os.Message"], (h, msg) =>
      messageSent(h, msg, null),
    ),
    exactHook("handlers", H, "dispatchMessage", ["android.os.Message"], dispatch),
    // A message is recycled after it ran, or when removeMessages/removeCallbacks takes it out of its queue
    // (AOSP MessageQueue.removeMessages): one still pending was never run, so it never queued anything.
    recordingHook(t.a, "handlers", "android.os.Message", "recycleUnchecked", [], (msg) =>
      t.drop(`m:${t.a.id(msg)}`),
    ),
    ...["startService", "startForegroundService"].map((method) =>
      recordingHook(t.a, "intent_services", C, method, ["android.content.Intent"], (_, intent) =>
        serviceStarted(intent),
      ),
    ),
  ];
}
