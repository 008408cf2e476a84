import { describe, expect, it } from "vitest";
import { API_LEVELS, fakeAndroid } from "./fake-android";
import { loadAgent, readLines } from "./load-agent";
import { driveSession } from "./scenario";

const big = (n: number) => BigInt(n);

describe.each(API_LEVELS)("the bundled agent on API %i (fake bridge)", (api) => {
  it("reports every hook once, installed with the overload this level offers", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const d = readLines(vm);
    expect(d.hello).toMatchObject({
      agent_version: "3.0.0",
      pid: vm.pid,
      package: "com.example.app",
      api_level: api,
    });
    const status = Object.fromEntries(d.hooks.map((h) => [h.hook, h.status]));
    expect(Object.keys(status)).toHaveLength(38);
    // startForegroundService came in API 26 (Android 8.0): missing before, and only it.
    const notOk = Object.entries(status).filter(([, s]) => s !== "ok");
    expect(notOk).toEqual(api < 26 ? [["ContextImpl.startForegroundService", "missing"]] : []);
    const doFrame = d.hooks.find((h) => h.hook === "Choreographer.doFrame")!;
    expect(doFrame.detail).toBe(
      api >= 31 ? "doFrame(long,int,android.view.DisplayEventReceiver$VsyncEventData)" : "doFrame(long,int)",
    );
    const draw = d.hooks.find((h) => h.hook === "View.draw")!;
    expect(draw.found).toEqual([
      "draw(android.graphics.Canvas)",
      "draw(android.graphics.Canvas,android.view.ViewGroup,long)",
    ]);
  });

  it("records every task category once, with the times, queues and capacities driven", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    const want = driveSession(vm);
    const d = readLines(vm);
    expect(d.warnings).toEqual([
      "agent: 1 tasks taken back before they ran (looper messages removed from their queue) are not in tasks",
    ]);
    expect(d.tasks.some((t) => t.task_class === "com.example.app.Debounced")).toBe(false);
    const by = (c: string) => d.tasks.filter((t) => t.category === c);

    // Threads, whether they run a Runnable, override run(), inherit an override or call super.run().
    const threads = by("thread");
    expect(threads.map((t) => [t.task_class, t.scheduled, t.started, t.ended])).toEqual(
      want.threads.map((t) => [t.cls, big(t.scheduled), big(t.started), big(t.ended)]),
    );
    expect(threads.every((t) => t.pool_capacity === null)).toBe(true);

    // The HandlerThread's messages: front of queue first; the delayed one scheduled at its target time.
    const msgs = by("handler_thread");
    expect(msgs.map((t) => [t.task_class, t.scheduled, t.enqueued, t.started])).toEqual(
      want.messages.map((m) => [m.cls, big(m.scheduled), big(m.enqueued), big(m.started)]),
    );
    expect(new Set(msgs.map((t) => t.executor_id)).size).toBe(1);
    expect(msgs[0]!.executor_id).toMatch(/^android\.os\.MessageQueue\(bg\)@[0-9a-f]+$/);
    expect(msgs.every((t) => t.pool_capacity === 1 && t.thread_name === "bg" && t.ended! > t.started!)).toBe(
      true,
    );

    // IntentService: scheduled when startService ran, with startService's stack as its context.
    const [svc, ...more] = by("intent_service");
    expect(more).toEqual([]);
    expect(svc).toMatchObject({
      scheduled: big(want.service.scheduled),
      pool_capacity: 1,
      thread_name: "IntentService[SyncService]",
    });
    expect(d.contexts.get(svc!.context_id)).toEqual(want.service.context);
    expect(svc!.ended! - svc!.started!).toBe(7_000_000n); // onHandleIntent's 7 ms

    // ThreadPoolExecutor: one queue, capacity = core size over an unbounded queue.
    const pool = by("thread_pool_executor");
    expect(pool.map((t) => t.scheduled)).toEqual(want.pool.scheduled.map(big));
    expect(
      pool.every((t) => t.pool_capacity === want.pool.capacity && t.task_class === "com.example.app.Decode"),
    ).toBe(true);
    expect(new Set(pool.map((t) => t.executor_id)).size).toBe(1);

    // AsyncTask: each once (no second thread_pool_executor row for the serial executor's wrapper).
    const at = by("async_task");
    expect(at.map((t) => [t.task_class, t.pool_capacity])).toEqual(
      want.asyncTasks.map((a) => [a.cls, a.capacity]),
    );
    expect(at[0]!.executor_id).toMatch(/^android\.os\.AsyncTask\$SerialExecutor@/);
    expect([at[1]!.executor_id, at[3]!.executor_id]).toEqual([at[0]!.executor_id, at[0]!.executor_id]);
    expect(at[2]!.executor_id).toMatch(/^java\.util\.concurrent\.ThreadPoolExecutor@/);
    expect(at.every((t) => t.started !== null && t.ended! >= t.started)).toBe(true);
    // Serial means one after another.
    expect(at[1]!.started! >= at[0]!.ended!).toBe(true);

    expect(d.tasks).toHaveLength(want.threads.length + 3 + 1 + 3 + 4);
  });

  it("records measure and layout after requestLayout, draw per frame (re-recorded or replayed), and the input events", async () => {
    const vm = fakeAndroid(api);
    await loadAgent(vm);
    driveSession(vm);
    const d = readLines(vm);
    const ops = d.renderOps;
    // Frame 1 lays out all three views (layout runs parents first but ends last) and draws the two visible
    // ones: the invisible banner is measured and laid out, never drawn (ViewGroup.dispatchDraw). Frame 2,
    // after title.invalidate(): no layout; the title re-recorded, the DecorView replayed.
    expect(
      ops.map((o) => `${o.frame} ${o.op} ${o.view_class.split(".").at(-1)}${o.replayed ? " replayed" : ""}`),
    ).toEqual([
      "1 measure TextView",
      "1 measure View",
      "1 measure DecorView",
      "1 layout TextView",
      "1 layout View",
      "1 layout DecorView",
      "1 draw DecorView",
      "1 draw TextView",
      "2 draw DecorView replayed",
      "2 draw TextView",
    ]);
    const decor = ops.find((o) => o.view_class.endsWith("DecorView"))!;
    const title = ops.find((o) => o.op === "layout" && o.view_class === "android.widget.TextView")!;
    const banner = ops.find((o) => o.op === "layout" && o.view_class === "android.view.View")!;
    expect(decor.parent_id).toBeNull();
    expect(title).toMatchObject({
      parent_id: decor.view_id,
      xml_id: "title",
      left: 0,
      top: 0,
      width: 1080,
      height: 100,
      ui_thread: true,
    });
    expect(banner).toMatchObject({
      visibility: "invisible",
      has_background: true,
      hw_accelerated: true,
      xml_id: null,
    });
    expect(ops.every((o) => o.layout_file === "res/layout/activity_main.xml")).toBe(true);
    expect(ops.every((o) => o.window_id === decor.window_id && o.window_id !== null)).toBe(true);
    // dur includes the children (DRAW §III): the DecorView has no background (PFLAG_SKIP_DRAW), so its
    // re-recording is the title's draw, 0.2 ms; replayed, it costs nothing.
    const draws = ops.filter((o) => o.op === "draw").map((o) => o.dur);
    expect(draws).toEqual([200_000n, 200_000n, 0n, 200_000n]);
    expect(d.uiEvents.map((e) => [e.kind, e.target])).toEqual([
      ["click", "title"],
      ["click", "com.example.app.FeedGestures"],
      ["scroll", "com.example.app.FeedGestures"],
      ["swipe", "com.example.app.FeedGestures"],
      ["long_click", "com.example.app.FeedGestures"],
      ["key", "KEYCODE_BACK"],
    ]);
  });
});
