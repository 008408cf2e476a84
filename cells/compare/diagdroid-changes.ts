// DiagDroid's task groups compared: the contexts of both sides clustered together (DiagDroid §4.2, single
// linkage over frame edit distance), so a group is the same group on either side; per group the queuing time
// Mq and execution time Me per task (§4.1, Definitions 6-7), and its busy time and tasks per second, which
// are zero where a side lacks the group (new and vanished groups are compared against zero); and the groups'
// queuing dependencies (diagdroid-dependency-changes.ts).
import type { Table } from "apache-arrow";
import { int32, int64, optional, readColumns, stringCodes, utf8, utf8List } from "../../bundle/read-columns";
import { contextGroups } from "../diagdroid/context-groups";
import { DIAGDROID } from "../diagdroid/defaults";
import { diagdroidDependencyChanges, QUEUE_COLUMNS } from "./diagdroid-dependency-changes";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

export interface DiagdroidChangesOptions {
  /** context clustering distance in frames; default DIAGDROID.maxDistance */
  maxDistance?: number;
}

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
    diagdroidDependencyChanges(
      tasks,
      groupOf,
      nameOf,
      (i) => classes[classCode[i]!] || "(no class)",
      builder,
    );
}
