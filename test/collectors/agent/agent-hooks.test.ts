import { describe, expect, it } from "vitest";
import { hookWarnings } from "../../../collectors/sources/agent-lines";
import { androidOf, fakeAndroid } from "./fake-android";
import type { FakeVm } from "./fake-java";
import { loadAgent, readLines } from "./load-agent";
import { driveSession } from "./scenario";

const MS = 1_000_000;
const report = (vm: FakeVm, hook: string) => readLines(vm).hooks.find((h) => h.hook === hook);

describe("threads that override run() and a HandlerThread's messages", () => {
  it("gives a Thread subclass overriding run() its start and end lines, hooked once per class", async () => {
    const vm = fakeAndroid(34);
    await loadAgent(vm);
    vm.define({
      name: "com.example.app.Uploader",
      extends: "java.lang.Thread",
      app: true,
      methods: [{ name: "run", body: (v) => v.advance(8 * MS) }],
    });
    const t0 = vm.clock;
    for (const name of ["up-1", "up-2"]) {
      const t = vm.newObj("com.example.app.Uploader", { name, tid: name === "up-1" ? 5001 : 5002 });
      vm.invoke(t, "start");
      vm.advance(2 * MS);
      vm.onThread(t, () => vm.invoke(t, "run"));
    }
    const d = readLines(vm);
    expect(
      d.tasks.map((t) => [
        t.task_class,
        t.scheduled - BigInt(t0),
        t.started! - BigInt(t0),
        t.ended! - BigInt(t0),
        t.thread_id,
        t.thread_name,
      ]),
    ).toEqual([
      ["com.example.app.Uploader", 0n, 2_000_000n, 10_000_000n, 5001, "up-1"],
      ["com.example.app.Uploader", 10_000_000n, 12_000_000n, 20_000_000n, 5002, "up-2"],
    ]);
    // Found at start() through the thread's class, hooked through the app's class loader, reported once.
    expect(
      d.hooks.filter((h) => h.hook === "com.example.app.Uploader.run").map((h) => [h.status, h.detail]),
    ).toEqual([["ok", "run()"]]);
  });

  it("records a HandlerThread as a thread and each of its messages as a handler_thread task", async () => {
    const vm = fakeAndroid(29);
    await loadAgent(vm);
    driveSession(vm);
    const d = readLines(vm);
    const ht = d.tasks.find((t) => t.task_class === "android.os.HandlerThread")!;
    const msgs = d.tasks.filter((t) => t.category === "handler_thread");
    expect(msgs).toHaveLength(3);
    for (const m of msgs) {
      expect(m.thread_id).toBe(ht.thread_id);
      expect(m.started! >= ht.started! && m.ended! <= ht.ended!).toBe(true);
    }
  });
});

describe("a hook missing on a device", () => {
  it("API 23 has no startForegroundService: its report line says so and startService still schedules IntentService work", async () => {
    const vm = fakeAndroid(23);
    await loadAgent(vm);
    driveSession(vm);
    const d = readLines(vm);
    expect(report(vm, "ContextImpl.startForegroundService")).toMatchObject({
      status: "missing",
      detail: "android.app.ContextImpl has no method startForegroundService",
      found: [],
    });
    expect(hookWarnings(d)).toEqual([
      "foreground intent_service tasks scheduled at their message, not at startForegroundService: ContextImpl.startForegroundService not hooked on this device (API 23): android.app.ContextImpl has no method startForegroundService; found no overloads (logcat line 9)",
    ]);
    expect(d.tasks.filter((t) => t.category === "intent_service")).toHaveLength(1);
  });

  it("a build without View.draw(Canvas) reports it with the overloads it has; measure, layout, tasks and input still work", async () => {
    const vm = fakeAndroid(33);
    vm.removeMethod("android.view.View", "draw", ["android.graphics.Canvas"]);
    await loadAgent(vm);
    const h = report(vm, "View.draw")!;
    expect(h).toMatchObject({ status: "missing", detail: "no overload draw(android.graphics.Canvas)" });
    expect(h.found).toEqual(["draw(android.graphics.Canvas,android.view.ViewGroup,long)"]);
    const d = readLines(vm);
    expect(hookWarnings(d)[0]).toMatch(
      /^render ops missing \(draw\): View\.draw not hooked on this device \(API 33\): no overload draw\(android\.graphics\.Canvas\); found draw\(android\.graphics\.Canvas,android\.view\.ViewGroup,long\)/,
    );
    expect(d.hooks.filter((x) => x.status !== "ok").map((x) => x.hook)).toEqual(["View.draw"]);
  });

  it("a missing class is reported as not found and the hooks after it still install and record", async () => {
    const vm = fakeAndroid(35);
    vm.classes.delete("android.view.GestureDetector");
    await loadAgent(vm);
    const d0 = readLines(vm);
    expect(d0.hooks.filter((h) => h.status !== "ok").map((h) => [h.hook, h.status, h.detail])).toEqual([
      ["GestureDetector.onTouchEvent", "missing", "class android.view.GestureDetector not found"],
      ["GestureDetector.dispatchLongPress", "missing", "class android.view.GestureDetector not found"],
    ]);
    const v = vm.newObj("android.view.View", { mID: 0x7f0a0001 });
    vm.invoke(v, "performClick");
    vm.invoke(vm.newObj("android.view.Choreographer", { root: v }), "doFrame", [vm.clock, 0, null]);
    const d = readLines(vm);
    expect(d.uiEvents.map((e) => [e.kind, e.target])).toEqual([["click", "feed"]]);
    expect(d.renderOps.map((o) => [o.frame, o.op])).toEqual([
      [1, "measure"],
      [1, "layout"],
      [1, "draw"],
    ]);
  });
});

describe("the agent's config", () => {
  it("turns groups off before load and back on through rpc configure; an unknown group is refused", async () => {
    const vm = fakeAndroid(31);
    const agent = await loadAgent(vm, { groups: { views: false, frames: false }, maxStack: 0 });
    const off = readLines(vm)
      .hooks.filter((h) => h.status === "off")
      .map((h) => h.hook);
    expect(off).toEqual([
      "Choreographer.doFrame",
      "ViewRootImpl.performDraw",
      "View.updateDisplayListIfDirty",
      "View.draw",
      "ViewGroup.dispatchDraw",
      "LayoutInflater.inflate",
      "View.measure",
      "View.layout",
    ]);
    const v = vm.newObj("android.view.View");
    vm.invoke(v, "measure", [1, 1]);
    expect(readLines(vm).renderOps).toEqual([]);
    agent.exports.configure({ groups: { views: true } });
    vm.invoke(v, "measure", [1, 1]);
    expect(readLines(vm).renderOps.map((o) => [o.op, o.frame])).toEqual([["measure", 0]]);
    expect(report(vm, "View.measure")!.status).toBe("ok");
    // maxStack 0: tasks keep one empty context.
    vm.invoke(vm.newObj("java.lang.Thread", { name: "t", tid: 7 }), "start");
    const d = readLines(vm);
    expect(d.contexts.get(d.tasks[0]!.context_id)).toEqual([]);
    // All or nothing: with one unknown group, the known one is not switched either.
    expect(() => agent.exports.init("late", { groups: { views: false, view: false } })).toThrow(
      /unknown hook group "view"/,
    );
    agent.exports.configure({ groups: { views: false } });
    expect(report(vm, "View.measure")!.status).toBe("off");
    expect(() => agent.exports.configure({ maxStack: "deep" })).toThrow(/maxStack must be a number >= 0/);
  });
});

describe("a hook that fails while recording", () => {
  it("never fails the app's call: the message is still delivered and the hook reports itself failed once", async () => {
    const vm = fakeAndroid(30);
    vm.removeMethod("android.os.Looper", "getThread", []);
    vm.addMethod(vm.cls("android.os.Looper"), {
      name: "getThread",
      body: () => {
        throw new Error("java.lang.IllegalStateException: broken looper");
      },
    });
    await loadAgent(vm);
    vm.define({
      name: "com.example.app.Tick",
      extends: "java.lang.Object",
      implements: ["java.lang.Runnable"],
      app: true,
      methods: [{ name: "run", body: (v) => void v.log.push({ tid: 0, tag: "App", message: "tick" }) }],
    });
    const a = androidOf(vm);
    const ht = a.thread("android.os.HandlerThread", "bg");
    const l = a.looperFor(ht);
    const h = vm.newObj("android.os.Handler", { mLooper: l.obj });
    for (let i = 0; i < 2; i++) vm.invoke(h, "post", [vm.newObj("com.example.app.Tick")]);
    a.drain(l);
    expect(vm.log.filter((x) => x.message === "tick")).toHaveLength(2);
    const d = readLines(vm);
    expect(d.hooks.filter((x) => x.status === "failed").map((x) => [x.hook, x.detail])).toEqual([
      ["Handler.sendMessageAtTime", "at run time: java.lang.IllegalStateException: broken looper"],
    ]);
    expect(d.tasks).toEqual([]);
    expect(hookWarnings(d)).toEqual([
      "handler_thread and intent_service tasks missing: Handler.sendMessageAtTime failed on this device (API 30): at run time: java.lang.IllegalStateException: broken looper (logcat line 40)",
    ]);
  });
});
