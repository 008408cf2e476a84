// The on-phone agent: a Frida script that hooks the framework methods DiagDroid §5.2 names (the five kinds
// of asynchronous task, with the queue each waits on and that queue's capacity) and DRAW §III's View
// measure/layout/draw and input events, and prints protocol v1 lines to logcat under one tag
// (docs/agent-protocol.md). Run it with your own Frida: `frida -U -l collectors/agent/dist/agent.js -f <pkg>`.
import "./frida-env";
import type { JavaObject } from "./frida-env";
import { AGENT_TAG, encodeRecord, type AgentRecord, type TaskCategory } from "./protocol";

export const AGENT_VERSION = "1.0.0";
const MAX_STACK = 24;

Java.perform(() => {
  const Log = Java.use("android.util.Log");
  const System = Java.use("java.lang.System");
  const Thread = Java.use("java.lang.Thread");
  const Looper = Java.use("android.os.Looper");
  const ThreadPoolExecutor = Java.use("java.util.concurrent.ThreadPoolExecutor");
  const View = Java.use("android.view.View");
  const id = (o: JavaObject): number => System.identityHashCode(o);
  const now = (): bigint => BigInt(String(System.nanoTime()));
  let seq = 0;
  const emit = (r: AgentRecord) => Log.i(AGENT_TAG, encodeRecord(seq++, r));

  emit({
    type: "hello",
    agent_version: AGENT_VERSION,
    pid: Process.id,
    package: String(Java.use("android.app.ActivityThread").currentPackageName()),
  });

  // Execution contexts (DiagDroid §4.2): the scheduling call stack, innermost first, hook frames dropped.
  const contexts = new Map<string, number>();
  function contextId(): number {
    const frames: string[] = [];
    const st = Thread.currentThread().getStackTrace();
    for (let i = 0; i < st.length && frames.length < MAX_STACK; i++) {
      const f = String(st[i].toString());
      if (f.startsWith("dalvik.system.VMStack") || f.startsWith("java.lang.Thread.getStackTrace")) continue;
      frames.push(f);
    }
    const key = frames.join("\n");
    let c = contexts.get(key);
    if (c === undefined) {
      contexts.set(key, (c = contexts.size));
      emit({ type: "ctx", context_id: c, frames });
    }
    return c;
  }

  let nextTask = 1;
  /** identityHashCode of the runnable/message/future -> task id, until it begins */
  const pending = new Map<number, number>();
  const running = new Map<number, number>();
  function scheduled(
    key: number,
    category: TaskCategory,
    executor: string,
    capacity: number | null,
    cls: string,
  ) {
    const task_id = nextTask++;
    pending.set(key, task_id);
    emit({
      type: "task",
      task_id,
      category,
      executor_id: executor,
      pool_capacity: capacity,
      task_class: cls,
      scheduled: now(),
      context_id: contextId(),
    });
  }
  function begin(key: number) {
    const task_id = pending.get(key);
    if (task_id === undefined) return;
    pending.delete(key);
    running.set(key, task_id);
    const t = Thread.currentThread();
    emit({
      type: "begin",
      task_id,
      ts: now(),
      tid: Number(Java.use("android.os.Process").myTid()),
      thread_name: String(t.getName()),
    });
  }
  function end(key: number) {
    const task_id = running.get(key);
    if (task_id === undefined) return;
    running.delete(key);
    emit({ type: "end", task_id, ts: now() });
  }

  // Pool capacity (DiagDroid Definition 4): threads that run at once. An unbounded queue never grows the
  // pool past its core size; a bounded one lets it reach the maximum.
  function capacityOf(executor: JavaObject): number | null {
    try {
      const tpe = Java.cast(executor, ThreadPoolExecutor);
      const queue = tpe.getQueue();
      return queue.remainingCapacity() === 2147483647 ? tpe.getCorePoolSize() : tpe.getMaximumPoolSize();
    } catch {
      return null;
    }
  }

  // AsyncTask (execute goes through executeOnExecutor): the serial executor runs one task at a time.
  const AsyncTask = Java.use("android.os.AsyncTask");
  const futures = new Set<number>();
  AsyncTask.executeOnExecutor.implementation = function (
    this: JavaObject,
    executor: JavaObject,
    params: JavaObject,
  ) {
    const serial = String(executor.getClass().getName()).endsWith("SerialExecutor");
    const future = this.mFuture.value;
    futures.add(id(future));
    scheduled(
      id(future),
      "async_task",
      `${executor.getClass().getName()}@${id(executor).toString(16)}`,
      serial ? 1 : capacityOf(executor),
      String(this.getClass().getName()),
    );
    return this.executeOnExecutor(executor, params);
  };
  const FutureTask = Java.use("java.util.concurrent.FutureTask");
  FutureTask.run.implementation = function (this: JavaObject) {
    const k = id(this);
    const mine = futures.has(k);
    if (mine) begin(k);
    try {
      return this.run();
    } finally {
      if (mine) {
        end(k);
        futures.delete(k);
      }
    }
  };

  // ThreadPoolExecutor: execute schedules; beforeExecute/afterExecute bracket the run on a pool thread.
  ThreadPoolExecutor.execute.implementation = function (this: JavaObject, r: JavaObject) {
    if (!futures.has(id(r)))
      scheduled(
        id(r),
        "thread_pool_executor",
        `${this.getClass().getName()}@${id(this).toString(16)}`,
        capacityOf(this),
        String(r.getClass().getName()),
      );
    return this.execute(r);
  };
  ThreadPoolExecutor.beforeExecute.implementation = function (
    this: JavaObject,
    t: JavaObject,
    r: JavaObject,
  ) {
    if (!futures.has(id(r))) begin(id(r));
    return this.beforeExecute(t, r);
  };
  ThreadPoolExecutor.afterExecute.implementation = function (this: JavaObject, r: JavaObject, e: JavaObject) {
    if (!futures.has(id(r))) end(id(r));
    return this.afterExecute(r, e);
  };

  // Handler / HandlerThread / IntentService: a message waits in its looper's queue (capacity 1).
  const Handler = Java.use("android.os.Handler");
  function handlerScheduled(h: JavaObject, msg: JavaObject) {
    const looper = h.getLooper();
    const cls = String(h.getClass().getName());
    const category: TaskCategory = cls.startsWith("android.app.IntentService$")
      ? "intent_service"
      : "handler_thread";
    const cb = msg.getCallback();
    const what = cb ? String(cb.getClass().getName()) : cls;
    scheduled(
      id(msg),
      category,
      `android.os.MessageQueue(${looper.getThread().getName()})@${id(looper.getQueue()).toString(16)}`,
      1,
      what,
    );
  }
  Handler.sendMessageAtTime.implementation = function (this: JavaObject, msg: JavaObject, when: number) {
    handlerScheduled(this, msg);
    return this.sendMessageAtTime(msg, when);
  };
  Handler.sendMessageAtFrontOfQueue.implementation = function (this: JavaObject, msg: JavaObject) {
    handlerScheduled(this, msg);
    return this.sendMessageAtFrontOfQueue(msg);
  };
  Handler.dispatchMessage.implementation = function (this: JavaObject, msg: JavaObject) {
    const k = id(msg);
    begin(k);
    try {
      return this.dispatchMessage(msg);
    } finally {
      end(k);
    }
  };
  // startService: the intent's work runs later through IntentService's handler (above); the scheduling
  // stack is recorded here so the context names the caller.
  Java.use("android.app.ContextImpl").startService.implementation = function (
    this: JavaObject,
    intent: JavaObject,
  ) {
    contextId();
    return this.startService(intent);
  };

  // Plain threads: each is its own execution unit, never queued (capacity unbounded = null).
  Thread.start.implementation = function (this: JavaObject) {
    scheduled(
      id(this),
      "thread",
      `java.lang.Thread@${id(this).toString(16)}`,
      null,
      String(this.getClass().getName()),
    );
    return this.start();
  };
  Thread.run.implementation = function (this: JavaObject) {
    const k = id(this);
    begin(k);
    try {
      return this.run();
    } finally {
      end(k);
    }
  };

  // DRAW §III: measure, layout and draw of every View, with geometry, hierarchy and appearance.
  let frame = 0;
  Java.use("android.view.Choreographer").doFrame.overload("long", "int").implementation = function (
    this: JavaObject,
    t: number,
    f: number,
  ) {
    frame++;
    return this.doFrame(t, f);
  };
  const layoutOf = new Map<number, string>();
  Java.use("android.view.LayoutInflater").inflate.overload(
    "int",
    "android.view.ViewGroup",
    "boolean",
  ).implementation = function (this: JavaObject, res: number, root: JavaObject, attach: boolean) {
    const v = this.inflate(res, root, attach);
    try {
      layoutOf.set(id(v), `res/layout/${this.getContext().getResources().getResourceEntryName(res)}.xml`);
    } catch {
      /* a resource without a name */
    }
    return v;
  };
  function record(
    v: JavaObject,
    op: "measure" | "layout" | "draw",
    start: bigint,
    canvas: JavaObject | null,
  ) {
    const dur = now() - start;
    const parent = v.getParent();
    let parentId: number | null = null;
    try {
      parentId = parent && Java.cast(parent, View) ? id(parent) : null;
    } catch {
      parentId = null;
    }
    let xml: string | null = null;
    const rid = v.getId();
    if (rid !== -1)
      try {
        xml = String(v.getResources().getResourceEntryName(rid));
      } catch {
        xml = null;
      }
    let layout: string | null = null;
    for (let p: JavaObject = v, depth = 0; p && depth < 12 && layout === null; depth++) {
      layout = layoutOf.get(id(p)) ?? null;
      try {
        p = p.getParent();
      } catch {
        p = null;
      }
    }
    const vis = v.getVisibility();
    emit({
      type: "op",
      frame,
      view_id: id(v),
      parent_id: parentId,
      view_class: String(v.getClass().getName()),
      op,
      start,
      dur,
      ui_thread:
        Looper.myLooper() === Looper.getMainLooper() || String(Thread.currentThread().getName()) === "main",
      hw_accelerated: canvas ? Boolean(canvas.isHardwareAccelerated()) : Boolean(v.isHardwareAccelerated()),
      left: v.getLeft(),
      top: v.getTop(),
      width: v.getWidth(),
      height: v.getHeight(),
      has_background: v.getBackground() !== null,
      visibility: vis === 0 ? "visible" : vis === 4 ? "invisible" : "gone",
      xml_id: xml,
      layout_file: layout,
    });
  }
  View.measure.implementation = function (this: JavaObject, w: number, h: number) {
    const s = now();
    this.measure(w, h);
    record(this, "measure", s, null);
  };
  View.layout.implementation = function (this: JavaObject, l: number, t: number, r: number, b: number) {
    const s = now();
    this.layout(l, t, r, b);
    record(this, "layout", s, null);
  };
  View.draw.overload("android.graphics.Canvas").implementation = function (this: JavaObject, c: JavaObject) {
    const s = now();
    this.draw(c);
    record(this, "draw", s, c);
  };

  // Input events: clicks, long clicks, text changes, keys, and scrolls (one per view per 300 ms).
  const target = (v: JavaObject): string => {
    try {
      return v.getId() !== -1
        ? String(v.getResources().getResourceEntryName(v.getId()))
        : String(v.getClass().getName());
    } catch {
      return String(v.getClass().getName());
    }
  };
  View.performClick.overload().implementation = function (this: JavaObject) {
    emit({ type: "input", ts: now(), kind: "click", target: target(this), source: "agent" });
    return this.performClick();
  };
  View.performLongClick.overload().implementation = function (this: JavaObject) {
    emit({ type: "input", ts: now(), kind: "long_click", target: target(this), source: "agent" });
    return this.performLongClick();
  };
  const lastScroll = new Map<number, bigint>();
  View.onScrollChanged.implementation = function (
    this: JavaObject,
    l: number,
    t: number,
    ol: number,
    ot: number,
  ) {
    const ts = now();
    const k = id(this);
    if ((lastScroll.get(k) ?? 0n) + 300_000_000n < ts)
      emit({ type: "input", ts, kind: "scroll", target: target(this), source: "agent" });
    lastScroll.set(k, ts);
    return this.onScrollChanged(l, t, ol, ot);
  };
  Java.use("android.widget.TextView").sendOnTextChanged.implementation = function (
    this: JavaObject,
    s: JavaObject,
    a: number,
    b: number,
    c: number,
  ) {
    emit({ type: "input", ts: now(), kind: "text", target: target(this), source: "agent" });
    return this.sendOnTextChanged(s, a, b, c);
  };
  Java.use("android.app.Activity").dispatchKeyEvent.implementation = function (
    this: JavaObject,
    e: JavaObject,
  ) {
    if (e.getAction() === 0)
      emit({
        type: "input",
        ts: now(),
        kind: "key",
        target: String(Java.use("android.view.KeyEvent").keyCodeToString(e.getKeyCode())),
        source: "agent",
      });
    return this.dispatchKeyEvent(e);
  };
});
