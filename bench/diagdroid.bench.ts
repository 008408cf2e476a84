// DiagDroid benchmarks: queue metrics on 1,000,000 tasks (budget 1 s, docs/budgets.md) and context grouping
// of 1,000 and 10,000 distinct depth-40 contexts (budget 2 s for 10,000), on data generated here from seeds.
// Contexts come two ways: "realistic" (call stacks from one app: shared framework frames at the outer end,
// an app call tree, a scheduling API innermost, and variants of a few hundred task sites that differ by
// line numbers, an inserted hook frame or another caller, like DiagDroid's Figure 10) and "random"
// (40 frames drawn uniformly from 5,000 names: no shared structure at all).
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import { contextGroups } from "../cells/diagdroid/context-groups";
import { queueMetrics } from "../cells/diagdroid/queue-metrics";
import type { Benchmark } from "./harness";
import { mulberry32 } from "../collectors/simulator/random";

const rng = mulberry32;

const DEPTH = 40;
const ENTRIES = [
  ["android.os.Handler.dispatchMessage(Handler.java:102)", "android.os.Looper.loop(Looper.java:154)"],
  ["android.view.View.performClick(View.java:5637)", "android.view.View$PerformClick.run(View.java:22429)"],
  [
    "android.view.Choreographer.doFrame(Choreographer.java:603)",
    "android.view.Choreographer$FrameDisplayEventReceiver.run(Choreographer.java:761)",
  ],
];
const OUTER = [
  "android.os.Handler.handleCallback(Handler.java:751)",
  "android.os.Looper.loop(Looper.java:154)",
  "android.app.ActivityThread.main(ActivityThread.java:6119)",
  "java.lang.reflect.Method.invoke(Native Method)",
  "com.android.internal.os.ZygoteInit$MethodAndArgsCaller.run(ZygoteInit.java:886)",
  "com.android.internal.os.ZygoteInit.main(ZygoteInit.java:776)",
];
const INNER = [
  [
    "android.os.AsyncTask.executeOnExecutor(Native Method)",
    "android.os.AsyncTask.execute(AsyncTask.java:534)",
  ],
  ["java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1358)"],
  [
    "android.os.Handler.sendMessageAtTime(Handler.java:617)",
    "android.os.Handler.sendMessageDelayed(Handler.java:587)",
  ],
  ["java.lang.Thread.start(Thread.java:724)"],
];

/** `n` distinct realistic stacks of depth ~40 (innermost first), from `sites` task sites. */
export function realisticContexts(n: number, seed = 7, sites = Math.max(20, n / 25)): string[][] {
  const r = rng(seed);
  const bases: string[][] = [];
  for (let s = 0; s < sites; s++) {
    // App call tree with branching 4: stacks share outer app frames as real ones do.
    const inner = INNER[Math.floor(r() * INNER.length)]!;
    const entry = ENTRIES[Math.floor(r() * ENTRIES.length)]!;
    const appDepth = DEPTH - inner.length - entry.length - OUTER.length;
    const app: string[] = [];
    let node = 0;
    for (let d = 0; d < appDepth; d++) {
      node = node * 4 + 1 + Math.floor(r() * 4);
      const id = node % 100003;
      app.push(`com.example.app.m${d}.C${id}.run${id % 7}(C${id}.java:${10 + (id % 400)})`);
    }
    bases.push([...inner, ...app.reverse(), ...entry, ...OUTER]);
  }
  const out: string[][] = [];
  const keys = new Set<string>();
  while (out.length < n) {
    const b = [...bases[Math.floor(r() * bases.length)]!];
    const edits = Math.floor(r() * 4);
    for (let e = 0; e < edits; e++) {
      const p = Math.floor(r() * b.length);
      const kind = r();
      if (kind < 0.5) b[p] = b[p]!.replace(/:\d+\)$/, `:${Math.floor(r() * 2000)})`);
      else if (kind < 0.7)
        b.splice(p, 0, "de.robv.android.xposed.XposedBridge.invokeOriginalMethodNative(Native Method)");
      else if (kind < 0.85) b.splice(p, 1);
      else
        b[p] = `com.example.app.Caller${Math.floor(r() * 50)}.onEvent(Caller.java:${Math.floor(r() * 300)})`;
    }
    const key = b.join("\n");
    if (keys.has(key)) continue;
    keys.add(key);
    out.push(b);
  }
  return out;
}

/** `n` stacks of 40 frames drawn uniformly from 5,000 names. */
export function randomContexts(n: number, seed = 11): string[][] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: DEPTH }, () => `f${Math.floor(r() * 5000)}`));
}

/**
 * `n` tasks on 2,000 execution units of capacity 1, 3, 8 or unbounded: bursts of submissions, execution
 * times from 1 ms to 2 s, 0.1% never started and 0.1% still running at the trace end.
 */
export function syntheticTasks(n: number, seed = 3): Table {
  const r = rng(seed);
  const units = 2000;
  const caps = [1, 3, 8, null] as const;
  const capOf = Array.from({ length: units }, () => caps[Math.floor(r() * caps.length)]!);
  const taskId = new BigInt64Array(n);
  const executor: string[] = new Array(n);
  const capacity: (number | null)[] = new Array(n);
  const scheduled = new BigInt64Array(n);
  const started: (bigint | null)[] = new Array(n);
  const ended: (bigint | null)[] = new Array(n);
  const context = new Int32Array(n);
  // Per unit, simulate a FIFO pool so that the data is consistent (started ≥ scheduled, capacity honoured).
  const clock = new Float64Array(units);
  const freeAt: number[][] = capOf.map((c) => new Array(c ?? 0).fill(0));
  for (let i = 0; i < n; i++) {
    const u = Math.floor(r() * units);
    clock[u]! += r() < 0.7 ? r() * 5e6 : r() * 2e9;
    const s = clock[u]!;
    const exec = Math.exp(Math.log(1e6) + r() * Math.log(2000)); // 1 ms .. 2 s, log-uniform
    const slots = freeAt[u]!;
    let start = s;
    if (capOf[u] !== null) {
      let best = 0;
      for (let j = 1; j < slots.length; j++) if (slots[j]! < slots[best]!) best = j;
      start = Math.max(s, slots[best]!);
      slots[best] = start + exec;
    }
    taskId[i] = BigInt(i);
    executor[i] = `Executor@${u.toString(16)}`;
    capacity[i] = capOf[u]!;
    scheduled[i] = BigInt(Math.round(s));
    const fate = r();
    started[i] = fate < 0.001 ? null : BigInt(Math.round(start));
    ended[i] = fate < 0.002 ? null : BigInt(Math.round(start + exec));
    context[i] = Math.floor(r() * 5000);
  }
  return makeBundleTable("tasks", "bench", {
    task_id: taskId,
    category: executor.map(() => "thread_pool_executor"),
    executor_id: executor,
    pool_capacity: capacity,
    scheduled,
    started,
    ended,
    context_id: context,
  });
}

let tasks: Table | undefined;
const contexts = new Map<string, string[][]>();

function groupsBench(n: number, kind: "realistic" | "random", budget?: number): Benchmark {
  const key = `${kind} ${n}`;
  return {
    name: `diagdroid/context-groups ${n.toLocaleString("en")} ${kind} contexts, depth 40, maxDistance 2`,
    unit: "ms",
    budget,
    runs: 5,
    setup() {
      if (!contexts.has(key)) contexts.set(key, kind === "random" ? randomContexts(n) : realisticContexts(n));
    },
    measure() {
      const cs = contexts.get(key)!;
      const t0 = performance.now();
      contextGroups(cs, 2);
      return performance.now() - t0;
    },
  };
}

export const benchmarks: Benchmark[] = [
  {
    name: "diagdroid/queue-metrics 1M tasks",
    unit: "ms",
    budget: 1000,
    runs: 5,
    setup() {
      tasks ??= syntheticTasks(1_000_000);
    },
    measure() {
      const t0 = performance.now();
      queueMetrics(tasks!);
      return performance.now() - t0;
    },
  },
  groupsBench(1000, "realistic"),
  groupsBench(10_000, "realistic", 2000),
  groupsBench(1000, "random"),
  groupsBench(10_000, "random", 2000),
];
