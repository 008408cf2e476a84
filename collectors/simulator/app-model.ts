// A seeded model of an app on one device: a main-thread looper, executors with the queueing rules of
// DiagDroid §2 (AsyncTask's serial executor, thread pools, handler threads, IntentService, plain threads),
// a frame pipeline on a vsync grid (UI thread, then RenderThread), and a view tree whose measure, layout
// and draw costs drive the frame times (DRAW §III). Times are ns from the start of the scenario.
import type { AgentRecord, TaskCategory } from "../agent/protocol";
import type { DeviceProfile } from "./device-profiles";
import { between, type Rand } from "./random";

const MS = 1_000_000;

export interface SimFrame {
  window: string;
  intended: number;
  vsync: number;
  vsync_id: number;
  input_ts: number | null;
  input_id: number;
  handle_input: number;
  animation: number;
  traversals: number;
  draw_start: number;
  sync_queued: number;
  sync_start: number;
  issue: number;
  swap: number;
  completed: number;
  dequeue: number;
  queue: number;
  gpu: number;
  period: number;
}

export interface SimView {
  id: number;
  cls: string;
  xml_id: string | null;
  layout_file: string | null;
  left: number;
  top: number;
  width: number;
  height: number;
  background: boolean;
  visibility: "visible" | "invisible" | "gone";
  /** own draw cost, ms, before the device's speed factor */
  cost: number;
  children: SimView[];
}

export interface SimTask {
  task_id: number;
  category: TaskCategory;
  executor_id: string;
  pool_capacity: number | null;
  task_class: string;
  scheduled: number;
  started: number;
  ended: number;
  tid: number;
  thread_name: string;
  context_id: number;
}

export interface LogRecord {
  ts: number;
  pid: number;
  tid: number;
  level: string;
  tag: string;
  /** agent record (printed by the phone through the protocol encoder) or plain text */
  record: AgentRecord | string;
}

export class Executor {
  private threads: { tid: number; name: string; freeAt: number }[] = [];
  private lastStart = -Infinity;
  constructor(
    readonly id: string,
    readonly category: TaskCategory,
    readonly capacity: number | null,
    private readonly threadName: (i: number) => string,
    private readonly tidFor: (i: number) => number,
  ) {}

  /** FIFO start on the first free worker (capacity workers; null = a new thread per task). */
  place(ts: number, dur: number): { start: number; end: number; tid: number; name: string } {
    let worker = this.threads.reduce<(typeof this.threads)[number] | null>(
      (best, w) => (!best || w.freeAt < best.freeAt ? w : best),
      null,
    );
    if (!worker || (worker.freeAt > ts && (this.capacity === null || this.threads.length < this.capacity))) {
      const i = this.threads.length;
      worker = { tid: this.tidFor(i), name: this.threadName(i), freeAt: 0 };
      this.threads.push(worker);
    }
    const start = Math.max(ts, worker.freeAt, this.lastStart);
    this.lastStart = start;
    worker.freeAt = start + dur;
    return { start, end: start + dur, tid: worker.tid, name: worker.name };
  }
}

export class AppSim {
  readonly frames: SimFrame[] = [];
  readonly log: LogRecord[] = [];
  readonly tasks: SimTask[] = [];
  readonly contexts = new Map<string, number>();
  readonly period: number;
  readonly window: string;
  /** busy intervals of the main thread from looper messages */
  private mainBusy: [number, number][] = [];
  private nextFrameAt = 0;
  private traversal = 0;
  private nextTid: number;
  private nextTask = 1;
  private vsyncId = 1000;
  private inputId = 0;
  readonly renderOpCount = { n: 0 };
  lastInput: number | null = null;
  /** false when the agent runs without its View hooks (a device lab that only needs frames and events) */
  viewHooks = true;

  constructor(
    readonly rand: Rand,
    readonly device: DeviceProfile,
    readonly pkg: string,
    readonly pid: number,
    activity: string,
  ) {
    this.period = Math.round(1e9 / device.refresh_hz);
    this.window = `${pkg}/${activity}/android.view.ViewRootImpl@${this.hash().toString(16)}`;
    this.nextTid = pid + 17;
  }

  hash(): number {
    return 0x1000000 + Math.floor(this.rand() * 0x7effffff);
  }
  tid(): number {
    return this.nextTid++;
  }

  executor(
    id: string,
    category: TaskCategory,
    capacity: number | null,
    threadName: (i: number) => string,
    fixedTid?: number,
  ): Executor {
    const tids: number[] = [];
    return new Executor(
      `${id}@${this.hash().toString(16)}`,
      category,
      capacity,
      threadName,
      (i) => fixedTid ?? (tids[i] ??= this.tid()),
    );
  }

  private emit(ts: number, tid: number, record: AgentRecord | string, tag = "JankbookAgent", level = "I") {
    this.log.push({ ts: Math.round(ts), pid: this.pid, tid, level, tag, record });
  }
  note(ts: number, tag: string, text: string, level = "I", pid = this.pid, tid = this.pid) {
    this.log.push({ ts: Math.round(ts), pid, tid, level, tag, record: text });
  }

  /** An input event as the agent sees it (GestureDetector / View.performClick hooks). */
  input(ts: number, kind: string, target: string, source = "agent") {
    this.lastInput = ts;
    this.inputId++;
    this.emit(ts, this.pid, { type: "input", ts: BigInt(Math.round(ts)), kind, target, source });
  }

  /** Schedules a task: the agent prints task (at scheduling), begin and end lines. */
  submit(
    ex: Executor,
    ts: number,
    durMs: number,
    taskClass: string,
    stack: string[],
    schedulerTid = this.pid,
  ): SimTask {
    const key = stack.join("\n");
    let ctx = this.contexts.get(key);
    if (ctx === undefined) {
      ctx = this.contexts.size;
      this.contexts.set(key, ctx);
      this.emit(ts, schedulerTid, { type: "ctx", context_id: ctx, frames: stack });
    }
    const dur = (durMs * MS) / this.device.speed;
    const p = ex.place(ts, dur);
    const t: SimTask = {
      task_id: this.nextTask++,
      category: ex.category,
      executor_id: ex.id,
      pool_capacity: ex.capacity,
      task_class: taskClass,
      scheduled: Math.round(ts),
      started: Math.round(p.start),
      ended: Math.round(p.end),
      tid: p.tid,
      thread_name: p.name,
      context_id: ctx,
    };
    this.tasks.push(t);
    this.emit(ts, schedulerTid, {
      type: "task",
      task_id: t.task_id,
      category: t.category,
      executor_id: t.executor_id,
      pool_capacity: t.pool_capacity,
      task_class: taskClass,
      scheduled: BigInt(t.scheduled),
      context_id: ctx,
    });
    this.emit(p.start, p.tid, {
      type: "begin",
      task_id: t.task_id,
      ts: BigInt(t.started),
      tid: p.tid,
      thread_name: p.name,
    });
    this.emit(p.end, p.tid, { type: "end", task_id: t.task_id, ts: BigInt(t.ended) });
    if (p.tid === this.pid) this.mainBusy.push([p.start, p.end]);
    return t;
  }

  private mainFreeAt(t: number): number {
    let at = t;
    for (let moved = true; moved;) {
      moved = false;
      for (const [a, b] of this.mainBusy)
        if (a <= at && at < b) {
          at = b;
          moved = true;
        }
    }
    return at;
  }

  /** Frames on the vsync grid from `from` until `to` while the screen animates; `layout` adds measure/layout passes. */
  animate(
    from: number,
    to: number,
    root: SimView,
    opts: { layoutFirst?: boolean; extraDrawMs?: number; renderOps?: boolean } = {},
  ) {
    const P = this.period;
    let t = Math.max(Math.ceil(from / P) * P, this.nextFrameAt);
    let first = true;
    while (t < to) {
      const uiStart = this.mainFreeAt(t);
      const vsync = Math.floor(uiStart / P) * P;
      const hadInput = this.lastInput !== null && this.lastInput > t - P && this.lastInput <= uiStart;
      const handleInput = uiStart + between(this.rand, 0.05, 0.2) * MS;
      const animation =
        handleInput + (hadInput ? between(this.rand, 0.3, 1.2) : between(this.rand, 0.05, 0.2)) * MS;
      const traversals = animation + between(this.rand, 0.1, 0.3) * MS;
      const frameIndex = this.traversal++;
      const emitOps = opts.renderOps !== false && this.viewHooks;
      let cursor = traversals;
      const layout = opts.layoutFirst === true && first;
      if (layout) {
        cursor = this.walk(root, null, "measure", cursor, frameIndex, emitOps);
        cursor = this.walk(root, null, "layout", cursor, frameIndex, emitOps);
      }
      const drawStart = cursor + 0.05 * MS;
      let drawEnd = this.walk(root, null, "draw", drawStart, frameIndex, emitOps);
      drawEnd += ((opts.extraDrawMs ?? 0) * MS * between(this.rand, 0.8, 1.2)) / this.device.speed;
      const syncQueued = drawEnd + 0.05 * MS;
      const syncStart = syncQueued + between(this.rand, 0.05, 0.3) * MS;
      const issue = syncStart + between(this.rand, 0.3, 1.0) * MS;
      const gpuCost = (this.treeArea(root) / (this.device.width * this.device.height)) * 1.1 * MS;
      const dequeue = between(this.rand, 0.05, 0.4) * MS;
      const swap = issue + dequeue + gpuCost / this.device.speed;
      const completed = swap + between(this.rand, 0.2, 0.6) * MS;
      this.frames.push({
        window: this.window,
        intended: t,
        vsync,
        vsync_id: this.vsyncId++,
        input_ts: hadInput ? this.lastInput : null,
        input_id: hadInput ? this.inputId : 0,
        handle_input: handleInput,
        animation,
        traversals,
        draw_start: drawStart,
        sync_queued: syncQueued,
        sync_start: syncStart,
        issue,
        swap,
        completed,
        dequeue,
        queue: between(this.rand, 0.03, 0.2) * MS,
        gpu: swap + gpuCost * 0.6,
        period: P,
      });
      this.vsyncId += Math.max(0, Math.floor((syncStart - t) / P));
      // The UI thread may start the next frame once this one is handed to the RenderThread.
      t = Math.max(t + P, Math.ceil(syncStart / P) * P);
      first = false;
      if (completed - t > 5 * P)
        this.note(
          completed,
          "Choreographer",
          `Skipped ${Math.floor((completed - t) / P)} frames!  The application may be doing too much work on its main thread.`,
        );
    }
    this.nextFrameAt = t;
  }

  private treeArea(v: SimView): number {
    if (v.visibility === "gone") return 0;
    return (v.background ? v.width * v.height : 0) + v.children.reduce((s, c) => s + this.treeArea(c), 0);
  }

  /** One pass over the tree, parents before children (children nested inside the parent's time). */
  private walk(
    v: SimView,
    parent: SimView | null,
    op: "measure" | "layout" | "draw",
    start: number,
    frame: number,
    emit: boolean,
  ): number {
    if (v.visibility === "gone") return start;
    const s = this.device.speed;
    const own =
      op === "draw"
        ? ((v.cost +
            (v.background ? 0.6 * ((v.width * v.height) / (this.device.width * this.device.height)) : 0)) *
            MS) /
          s
        : ((op === "measure" ? 0.04 : 0.02) * MS * between(this.rand, 0.8, 1.2)) / s;
    // Whole nanoseconds from here on: a child rounded on its own could end 1 ns after its parent or start 1 ns
    // before its sibling ends, which a reader must take as overlapping rather than nested (DRAW §III-B).
    const s0 = Math.round(start);
    let t = s0 + Math.round(own * between(this.rand, 0.9, 1.1));
    if (op === "draw" && v.visibility === "invisible") t = s0 + 0.002 * MS; // an invisible view skips its own drawing
    for (const c of v.children) t = this.walk(c, v, op, t, frame, emit);
    const dur = Math.max(1000, t - s0);
    if (emit) {
      this.renderOpCount.n++;
      this.emit(s0 + dur, this.pid, {
        type: "op",
        frame,
        view_id: v.id,
        parent_id: parent?.id ?? null,
        view_class: v.cls,
        op,
        start: BigInt(s0),
        dur: BigInt(dur),
        ui_thread: true,
        hw_accelerated: true,
        left: v.left,
        top: v.top,
        width: v.width,
        height: v.height,
        has_background: v.background,
        visibility: v.visibility,
        xml_id: v.xml_id,
        layout_file: v.layout_file,
      });
    }
    return s0 + dur;
  }

  view(
    cls: string,
    rect: [number, number, number, number],
    o: Partial<Omit<SimView, "id" | "cls" | "left" | "top" | "width" | "height">> = {},
  ): SimView {
    return {
      id: this.hash(),
      cls,
      xml_id: o.xml_id ?? null,
      layout_file: o.layout_file ?? null,
      left: rect[0],
      top: rect[1],
      width: rect[2],
      height: rect[3],
      background: o.background ?? false,
      visibility: o.visibility ?? "visible",
      cost: o.cost ?? 0.05,
      children: o.children ?? [],
    };
  }
}
