// Looper, MessageQueue, Message, Handler, HandlerThread and IntentService, as AOSP's
// frameworks/base core/java/android/os and android/app call them.
import { type Body, type ClassDef, type FakeObj, type FakeVm, type JVal } from "./fake-java";
import { m, noop, obj } from "./fake-helpers";

export interface Looper {
  obj: FakeObj;
  queue: { msg: FakeObj; when: number; front: boolean }[];
}

export function defineLoopers(vm: FakeVm, main: FakeObj) {
  const api = vm.api;
  const d = (c: ClassDef) => vm.define(c);
  const uptime = () => Math.floor(vm.clock / 1e6);
  // Looper, MessageQueue, Message, Handler, HandlerThread.
  d({ name: "android.os.MessageQueue", extends: "java.lang.Object" });
  d({
    name: "android.os.Message",
    extends: "java.lang.Object",
    fields: ["what", "obj", "arg1", "target", "callback", "when"],
    methods: [
      m("getCallback", [], (v, s) => (s!.fields.callback ?? null) as JVal),
      m("recycleUnchecked", [], noop),
    ],
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
      // MessageQueue.removeMessages: each removed message is recycled.
      m("removeCallbacks", ["java.lang.Runnable"], (v, s, [r]) => {
        const l = loopers.get(obj(s!.fields.mLooper))!;
        for (const q of l.queue.filter((q) => q.msg.fields.callback === r && q.msg.fields.target === s)) {
          l.queue.splice(l.queue.indexOf(q), 1);
          v.invoke(q.msg, "recycleUnchecked");
        }
      }),
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
      // Looper.loop: dispatch, then recycle the message.
      vm.onThread(obj(l.obj.fields.mThread), () => {
        vm.invoke(obj(next.msg.fields.target), "dispatchMessage", [next.msg]);
        vm.invoke(next.msg, "recycleUnchecked");
      });
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

  return { mainLooper, looperFor, drain, delivered };
}
