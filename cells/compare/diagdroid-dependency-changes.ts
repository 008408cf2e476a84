// DiagDroid's queuing dependencies compared (§4.1, Definition 3; §4.2: a long queue is "usually caused by other
// tasks that bear runtime dependency"): per pair of a waiting group and a group whose tasks were ahead of its waits,
// that group's share of the tasks ahead and the queuing time it caused per second, so an edge that appears,
// vanishes or grows is a row of the list. Groups are diagdroid-changes.ts's, clustered over both sides.
import type { Table } from "apache-arrow";
import { readColumns, stringCodes, utf8 } from "../../bundle/read-columns";
import { readTaskColumns } from "../diagdroid/task-columns";
import { waitedBehindColumns } from "../diagdroid/waited-behind";
import type { MetricBuilder, MetricSpec } from "./metric-builder";

/** An edge whose queuing time is below this share of its side's queuing time (every group's) on both sides is left out. */
export const MIN_EDGE_SHARE = 0.005;

/** The columns a queue needs beyond the groups' (DiagDroid §4.1: tasks queue per execution unit and its capacity). */
export const QUEUE_COLUMNS = ["task_id", "executor_id", "pool_capacity"];

/**
 * Queuing dependencies between groups: for each task of group G that had to wait, the tasks ahead of it in its
 * execution unit (waited-behind.ts: Definition 3's pairs and the tasks running then), their groups' shares of
 * them, and its queuing time split among them in those shares. Per edge G ← H, over G's waits: H's share of the
 * tasks ahead (a rate, each wait one unit, 0 where no H task was ahead), and the queuing time H's tasks caused per
 * second (an amount, zero where the edge is missing, so a new edge is compared against zero).
 */
export function diagdroidDependencyChanges(
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
