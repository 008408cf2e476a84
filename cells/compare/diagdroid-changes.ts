// DiagDroid's task groups compared: the contexts of both sides clustered together (DiagDroid §4.2, single
// linkage over frame edit distance), so a group is the same group on either side; per group the queuing time
// Mq and execution time Me per task (§4.1, Definitions 6-7), and its busy time and tasks per second, which
// are zero where a side lacks the group (new and vanished groups are compared against zero). And the groups' queuing
// dependencies (§4.1, Definition 3; §4.2: a long queue is "usually caused by other tasks that bear runtime
// dependency"): per pair of a waiting group and a group whose tasks were ahead of its waits, that group's share of
// the tasks ahead and the queuing time it caused per second, so an edge that appears, vanishes or grows is a row.
import type { Table } from "apache-arrow";
import { int32, int64, optional, readColumns, stringCodes, utf8, utf8List } from "../../bundle/read-columns";
import { contextGroups } from "../diagdroid/context-groups";
import { DIAGDROID } from "../diagdroid/defaults";
import { readTaskColumns } from "../diagdroid/task-columns";
import { waitedBehindColumns } from "../diagdroid/waited-behind";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export interface DiagdroidChangesOptions {
  /** context clustering distance in frames; default DIAGDROID.maxDistance */
  maxDistance?: number;
}

/** An edge whose queuing time is below this share of its side's queuing time (every group's) on both sides is left out. */
export const MIN_EDGE_SHARE = 0.005;

/** The columns a queue needs beyond the groups' (DiagDroid §4.1: tasks queue per execution unit and its capacity). */
const QUEUE_COLUMNS = ["task_id", "executor_id", "pool_capacity"];

const FRAMEWORK = /^(android\.|java\.|javax\.|com\.android\.|dalvik\.|kotlin\.|kotlinx\.|androidx\.)/;

/** The app frame a group is named by: the first frame of its first context outside the framework. */
const appFrame = (stack: readonly string[]) => stack.find((f) => !FRAMEWORK.test(f)) ?? stack[0] ?? "?";

export function diagdroidChanges(
  tasks: Table | undefined,
  contexts: Table | undefined,
  builder: MetricBuilder,
  options: DiagdroidChangesOptions = {},
): void {
  if (!tasks || !contexts || tasks.numRows === 0) return;
  const ctx = readColumns(contexts, "contexts", { run_id: utf8(), context_id: int32(), frames: utf8List() });
  const ctxRuns: string[] = [];
  const ctxRun = stringCodes(ctx.run_id, ctxRuns);
  const stacks: string[][] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < contexts.numRows; i++) {
    const run = ctxRuns[ctxRun[i]!]!;
    if (!builder.locate(run)) continue;
    const list = ctx.frames.get(i) as { toArray(): ArrayLike<string> } | null;
    index.set(`${run}\u0000${ctx.context_id[i]}`, stacks.length);
    stacks.push(list ? Array.from(list.toArray()) : []);
  }
  const group = contextGroups(stacks, options.maxDistance ?? DIAGDROID.maxDistance);
  const t = readColumns(tasks, "tasks", {
    run_id: utf8(),
    context_id: int32(),
    scheduled: int64(),
    started: optional(int64()),
    ended: optional(int64()),
    task_class: optional(utf8()),
  });
  const runs: string[] = [];
  const code = stringCodes(t.run_id, runs);
  // a group is named by its most frequent task class and its first context's app frame
  const classes: string[] = [];
  const classCode = t.task_class ? stringCodes(t.task_class, classes) : new Int32Array(tasks.numRows);
  const groupOf = new Int32Array(tasks.numRows).fill(-1);
  const classCounts = new Map<number, Map<number, number>>();
  const firstStack = new Map<number, string[]>();
  for (let i = 0; i < tasks.numRows; i++) {
    const s = index.get(`${runs[code[i]!]}\u0000${t.context_id[i]}`);
    if (s === undefined) continue;
    const g = group[s]!;
    groupOf[i] = g;
    if (!firstStack.has(g)) firstStack.set(g, stacks[s]!);
    const counts = classCounts.get(g) ?? new Map<number, number>();
    counts.set(classCode[i]!, (counts.get(classCode[i]!) ?? 0) + 1);
    classCounts.set(g, counts);
  }
  const specs = new Map<number, MetricSpec[]>();
  const labels = new Set<string>();
  const names = new Map<number, string>();
  const nameOf = (g: number) => {
    let subject = names.get(g);
    if (subject !== undefined) return subject;
    const counts = [...classCounts.get(g)!].sort((x, y) => y[1] - x[1]);
    const cls = classes[counts[0]![0]] || "(no class)";
    subject = `${cls} from ${appFrame(firstStack.get(g)!)}`;
    for (let n = 2; labels.has(subject); n++) subject = `${subject} #${n}`;
    labels.add(subject);
    names.set(g, subject);
    return subject;
  };
  const specsOf = (g: number) => {
    let s = specs.get(g);
    if (s) return s;
    const subject = nameOf(g);
    const base = { analysis: "diagdroid", subject, better: "lower" as const, scale: "ratio" as const };
    s = [
      {
        ...base,
        key: `diagdroid:${subject}:mq`,
        measure: "queuing time Mq (mean)",
        unit: "ms",
        statistic: { kind: "mean" },
      },
      {
        ...base,
        key: `diagdroid:${subject}:me`,
        measure: "execution time Me (mean)",
        unit: "ms",
        statistic: { kind: "mean" },
      },
      {
        ...base,
        key: `diagdroid:${subject}:busy`,
        measure: "execution time per second",
        unit: "ms/s",
        statistic: { kind: "mean" },
      },
      {
        ...base,
        key: `diagdroid:${subject}:rate`,
        measure: "tasks per second",
        unit: "1/s",
        statistic: { kind: "mean" },
      },
    ];
    specs.set(g, s);
    return s;
  };
  for (let i = 0; i < tasks.numRows; i++) {
    const g = groupOf[i]!;
    if (g < 0) continue;
    const [mq, me, busy, rate] = specsOf(g);
    const run = runs[code[i]!]!;
    const at = t.scheduled[i]!;
    const started = t.started?.[i] ?? NaN;
    const ended = t.ended?.[i] ?? NaN;
    if (Number.isFinite(started)) builder.add(mq!, run, at, (started - at) / 1e6);
    if (Number.isFinite(started) && Number.isFinite(ended)) {
      builder.add(me!, run, at, (ended - started) / 1e6);
      // busy time per second where the task ran (a queued task runs in later buckets than it was posted in)
      builder.addInterval(busy!, run, started, ended);
    }
    builder.addAmount(rate!, run, at, 1);
  }
  const have = new Set(tasks.schema.fields.map((f) => f.name));
  if (QUEUE_COLUMNS.every((c) => have.has(c)))
    dependencyChanges(tasks, groupOf, nameOf, (i) => classes[classCode[i]!] || "(no class)", builder);
}

/**
 * Queuing dependencies between groups: for each task of group G that had to wait, the tasks ahead of it in its
 * execution unit (waited-behind.ts: Definition 3's pairs and the tasks running then), their groups' shares of
 * them, and its queuing time split among them in those shares. Per edge G ← H, over G's waits: H's share of the
 * tasks ahead (a rate, each wait one unit, 0 where no H task was ahead), and the queuing time H's tasks caused per
 * second (an amount, zero where the edge is missing, so a new edge is compared against zero).
 */
function dependencyChanges(
  tasks: Table,
  groupOf: Int32Array,
  nameOf: (g: number) => string,
  classOf: (i: number) => string,
  builder: MetricBuilder,
): void {
  const q = readTaskColumns(tasks);
  const runs: string[] = [];
  const code = stringCodes(readColumns(tasks, "tasks", { run_id: utf8() }).run_id, runs);
  const side = (i: number) => builder.locate(runs[code[i]!]!)?.[0];
  const waits = (i: number) => groupOf[i]! >= 0 && Number.isFinite(q.started[i]!) && side(i) !== undefined;
  const behind = waitedBehindColumns(q, waits);
  // the edges' queuing time per side, to leave out those that hold almost none of either side's
  const edgeMs = new Map<string, [number, number]>();
  const totalMs = [0, 0];
  // the task classes ahead per edge: a group holds similar contexts (§4.2), not always one class
  const aheadClasses = new Map<string, Map<string, number>>();
  const shares = (i: number) => {
    const byGroup = new Map<number, number>();
    const from = behind.offsets[i]!;
    const n = behind.offsets[i + 1]! - from;
    for (let k = from; k < from + n; k++) {
      const h = groupOf[behind.indices[k]!]!;
      if (h >= 0) byGroup.set(h, (byGroup.get(h) ?? 0) + 1 / n);
    }
    return byGroup;
  };
  const countAhead = (i: number) => {
    for (let k = behind.offsets[i]!; k < behind.offsets[i + 1]!; k++) {
      const j = behind.indices[k]!;
      if (groupOf[j]! < 0) continue;
      const key = `${groupOf[i]}\u0000${groupOf[j]}`;
      const counts = aheadClasses.get(key) ?? new Map<string, number>();
      counts.set(classOf(j), (counts.get(classOf(j)) ?? 0) + 1);
      aheadClasses.set(key, counts);
    }
  };
  const waited = (i: number) => behind.offsets[i + 1]! > behind.offsets[i]!;
  for (let i = 0; i < q.n; i++) {
    if (!waited(i)) continue;
    const s = side(i)!;
    const ms = (q.started[i]! - q.scheduled[i]!) / 1e6;
    totalMs[s]! += ms;
    countAhead(i);
    for (const [h, share] of shares(i)) {
      const key = `${groupOf[i]}\u0000${h}`;
      const e = edgeMs.get(key) ?? [0, 0];
      e[s] += share * ms;
      edgeMs.set(key, e);
    }
  }
  const kept = new Map<number, number[]>();
  for (const [key, [a, b]] of edgeMs) {
    if (a < MIN_EDGE_SHARE * totalMs[0]! && b < MIN_EDGE_SHARE * totalMs[1]!) continue;
    const [g, h] = key.split("\u0000").map(Number) as [number, number];
    kept.set(g, [...(kept.get(g) ?? []), h]);
  }
  const specs = new Map<string, [MetricSpec, MetricSpec]>();
  const specsOf = (g: number, h: number) => {
    const key = `${g}\u0000${h}`;
    let s = specs.get(key);
    if (s) return s;
    // named by the class most often ahead, and its group where that group goes by another class
    const cls = [...aheadClasses.get(key)!].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0];
    const blocking = nameOf(h);
    const subject = `${nameOf(g)} behind ${
      blocking.startsWith(`${cls} from `) ? blocking : `${cls} in ${g === h ? "its own group" : blocking}`
    }`;
    const base = { analysis: "diagdroid", subject, better: "lower" as const };
    s = [
      {
        ...base,
        key: `diagdroid:${subject}:share`,
        measure: "share of the tasks its waits queued behind",
        unit: "share",
        scale: "difference",
        statistic: { kind: "mean" },
      },
      {
        ...base,
        key: `diagdroid:${subject}:queued`,
        measure: "queuing time behind them per second",
        unit: "ms/s",
        scale: "ratio",
        statistic: { kind: "mean" },
      },
    ];
    specs.set(key, s);
    return s;
  };
  for (let i = 0; i < q.n; i++) {
    if (!waited(i)) continue;
    const edges = kept.get(groupOf[i]!);
    if (!edges) continue;
    const run = runs[code[i]!]!;
    const at = q.scheduled[i]!;
    const ms = (q.started[i]! - at) / 1e6;
    const byGroup = shares(i);
    for (const h of edges) {
      const [share, queued] = specsOf(groupOf[i]!, h);
      const part = byGroup.get(h) ?? 0;
      builder.add(share, run, at, part);
      builder.addAmount(queued, run, at, part * ms);
    }
  }
}
