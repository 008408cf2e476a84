// What `am profile start/stop` records on the simulated phone: the model's tasks and frames as method
// calls (AndroScope §IV: enter/exit records per thread, dual clock), between the start and the stop.
// Calls already running at the start have no enter record and calls still running at the stop no exit,
// as ART writes them (runtime/trace.cc); `calls` lists what a reader should rebuild (TraceBridge §V).
import type { TaskCategory } from "../agent/protocol";
import type { TraceMethod, TraceThread } from "../sources/method-trace";
import type { TraceRecordSpec, WriteTraceSpec } from "../sources/method-trace-writer";
import type { AppSim } from "./app-model";

/** One call the trace shows (at least one of its records falls in the window); times ns since the scenario start. */
export interface TracedCall {
  thread: string;
  method: string;
  depth: number;
  enter: number;
  exit: number;
  /** false: begun before tracing, its enter record is missing */
  enterRecorded: boolean;
  /** false: still running at the stop, its exit record is missing */
  exitRecorded: boolean;
}

export interface SimMethodTrace {
  spec: WriteTraceSpec;
  calls: TracedCall[];
  /** the window traced, ns since the scenario start; record times are µs since `from` */
  from: number;
  to: number;
}

interface Unit {
  tid: number;
  thread: string;
  /** nested calls, outermost first; each inside the previous */
  calls: { method: string; enter: number; exit: number }[];
}

const OUTER: Record<TaskCategory, string | null> = {
  async_task: "android.os.AsyncTask$3.call()Ljava/lang/Object;",
  handler_thread: "android.os.Handler.dispatchMessage(Landroid/os/Message;)V",
  intent_service: "android.app.IntentService$ServiceHandler.handleMessage(Landroid/os/Message;)V",
  thread_pool_executor: null,
  thread: "java.lang.Thread.run()V",
  // The simulated apps schedule none of these; their worker entry points, for when one does.
  scheduled_executor: null,
  fork_join_pool: "java.util.concurrent.ForkJoinTask.doExec()I",
  coroutine: "kotlinx.coroutines.DispatchedTask.run()V",
};

function innerMethod(category: TaskCategory, cls: string): string {
  if (category === "async_task") return `${cls}.doInBackground([Ljava/lang/Object;)Ljava/lang/Object;`;
  if (category === "intent_service") return `${cls}.onHandleIntent(Landroid/content/Intent;)V`;
  if (cls.endsWith("Handler")) return `${cls}.handleMessage(Landroid/os/Message;)V`;
  return `${cls}.run()V`;
}

/** The model's work per thread: each task (dispatch method around the task's own method) and each frame's UI-thread part. */
function units(sim: AppSim): Unit[] {
  const out: Unit[] = [];
  const inset = (a: number, b: number) => (b - a > 10_000 ? [a + 3_000, b - 2_000] : [a, b]);
  for (const t of sim.tasks) {
    const outer = OUTER[t.category];
    const [a, b] = outer ? inset(t.started, t.ended) : [t.started, t.ended];
    const calls = [{ method: innerMethod(t.category, t.task_class), enter: a!, exit: b! }];
    if (outer) calls.unshift({ method: outer, enter: t.started, exit: t.ended });
    out.push({ tid: t.tid, thread: t.thread_name, calls });
  }
  for (const f of sim.frames)
    out.push({
      tid: sim.pid,
      thread: "main",
      calls: [
        { method: "android.view.Choreographer.doFrame(JI)V", enter: f.handle_input, exit: f.sync_queued },
        {
          method: "android.view.ViewRootImpl.performTraversals()V",
          enter: f.traversals,
          exit: f.sync_queued,
        },
      ],
    });
  return out;
}

function splitMethod(name: string, id: number): TraceMethod {
  const paren = name.indexOf("(");
  const dot = name.lastIndexOf(".", paren);
  return {
    id,
    className: name.slice(0, dot),
    methodName: name.slice(dot + 1, paren),
    signature: name.slice(paren),
  };
}

/** The trace of [from, to] (ns since the scenario start); startTimeUs is the wall clock at `from`. */
export function simMethodTrace(sim: AppSim, from: number, to: number, startTimeUs: number): SimMethodTrace {
  const byThread = new Map<number, Unit[]>();
  for (const u of units(sim)) (byThread.get(u.tid) ?? byThread.set(u.tid, []).get(u.tid)!).push(u);
  const threadIds = new Map<number, TraceThread>();
  const methodIds = new Map<string, number>();
  const methodId = (m: string) =>
    methodIds.get(m) ?? methodIds.set(m, 0x6f100000 + 0x18 * methodIds.size).get(m)!;
  const pending: { ts: number; seq: number; rec: TraceRecordSpec }[] = [];
  const calls: TracedCall[] = [];
  let seq = 0;
  // ART names threads by their Linux tid (the main thread's is the pid), 16 bits in data version 2 and 3.
  for (const tid of [...byThread.keys()].sort((a, b) => a - b)) {
    const list = byThread.get(tid)!.sort((a, b) => a.calls[0]!.enter - b.calls[0]!.enter);
    let cpu = 0;
    let busyUntil = -Infinity;
    const thread: TraceThread = { id: tid & 0xffff, name: list[0]!.thread };
    const cpuAt = (unitStart: number, ts: number) => Math.floor((cpu + ts - unitStart) / 1000);
    for (const u of list) {
      const start = u.calls[0]!.enter;
      const end = u.calls[0]!.exit;
      if (start < busyUntil) continue; // a thread runs one thing at a time: never interleave calls
      busyUntil = end;
      const visible = u.calls.filter((c) => c.exit >= from && c.enter <= to);
      if (visible.length) threadIds.set(tid, thread);
      const record = (c: { method: string }, action: number, ts: number) =>
        pending.push({
          ts,
          seq: seq++,
          rec: {
            threadId: thread.id,
            methodId: methodId(c.method),
            action,
            wallUs: Math.floor((ts - from) / 1000),
            threadCpuUs: cpuAt(start, ts),
          },
        });
      for (const c of u.calls) if (c.enter >= from && c.enter <= to) record(c, 0, c.enter);
      for (const c of [...u.calls].reverse()) if (c.exit >= from && c.exit <= to) record(c, 1, c.exit);
      for (const [depth, c] of u.calls.entries())
        if (visible.includes(c))
          calls.push({
            thread: thread.name,
            method: c.method,
            depth,
            enter: c.enter,
            exit: c.exit,
            enterRecorded: c.enter >= from,
            exitRecorded: c.exit <= to,
          });
      cpu += end - start;
    }
  }
  // One stream of records in time order; a thread's own records keep their nesting order.
  pending.sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const methods = [...methodIds].map(([name, id]) => splitMethod(name, id));
  const spec: WriteTraceSpec = {
    dataVersion: 3,
    clock: "dual",
    startTimeUs,
    threads: [...threadIds.values()].sort((a, b) => a.id - b.id),
    methods,
    records: pending.map((p) => p.rec),
    properties: {
      "data-file-overflow": "false",
      "elapsed-time-usec": String(Math.floor((to - from) / 1000)),
      "num-method-calls": String(pending.length),
      "clock-call-overhead-nsec": "144",
      vm: "art",
      pid: String(sim.pid),
    },
  };
  return { spec, calls, from, to };
}
