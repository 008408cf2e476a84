// Dependency-aware diagnosis (DiagDroid §4.2): tasks grouped by clustered execution context; a group A is
// anomalous when Mq(A) = max queuing time or Me(A) = max execution time exceeds τ; for each anomalous group
// the report of Figures 5–9: contexts, Mq, pool capacity, over the cases with queuing time ≥ τ the average
// queue length and the average execution time of the tasks they waited behind, and the groups those tasks
// belong to with their execution time max/avg.
//
// Ranking (the paper ranks "by performance metrics and contexts" without a formula): by max(Mq, Me)
// descending, then by the number of cases with queuing time ≥ τ descending, then by group id.
// Never-started tasks count with their queuing time up to the trace end (a lower bound); tasks still running
// have no execution time (they count in `running`, not in Me).
import type { Table } from "apache-arrow";
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { int32, readColumns, utf8List } from "../../bundle/read-columns";
import { contextGroups } from "./context-groups";
import { DIAGDROID } from "./defaults";
import { queueData, type QueueMetricsOptions } from "./queue-metrics";
import { waitedBehindColumns } from "./waited-behind";

export interface AnomalousGroupsOptions extends QueueMetricsOptions {
  /** τ in ms; default DIAGDROID.tauMs (defaults.ts, §4.2). */
  tauMs?: number;
  /** context clustering distance in frames; default DIAGDROID.maxDistance (defaults.ts). */
  maxDistance?: number;
}

export interface GroupDependency {
  group: number;
  contextIds: number[];
  /** how many times slow cases of the reported group waited behind a task of this group */
  waitedBehind: number;
  /** execution time over all finished tasks of this group, ms (NaN when none finished) */
  execMaxMs: number;
  execAvgMs: number;
  /** the same per context of the group: Figure 6's lines 8-9 name each context (c1, c2) the slow cases waited behind */
  byContext: ContextDependency[];
}

export interface ContextDependency {
  contextId: number;
  waitedBehind: number;
  /** over all finished tasks of this context, ms (NaN when none finished) */
  execMaxMs: number;
  execAvgMs: number;
}

export interface GroupReport {
  /** 1-based */
  rank: number;
  /** the τ (ms) the group was judged against: a result carries what made it, so a report cannot print another */
  tauMs: number;
  /** the context clustering distance (frames) that formed the group */
  maxDistance: number;
  group: number;
  contextIds: number[];
  contexts: string[][];
  tasks: number;
  /** Mq(A), ms */
  mqMs: number;
  /** Me(A), ms, over finished tasks (NaN when none finished) */
  meMs: number;
  anomalousBy: ("queuing" | "execution")[];
  /** pool capacity of the execution unit of the task with the longest queuing time; null = unbounded */
  poolCapacity: number | null;
  executorId: string;
  /** cases with queuing time ≥ τ */
  slowCases: number;
  avgQueueLength: number;
  /** over every (slow case, task it waited behind) pair whose task finished, ms */
  avgInQueueExecMs: number;
  dependsOn: GroupDependency[];
  neverStarted: number;
  running: number;
}

/** Contexts by id from the contexts table (a context_id given twice with different frames is an error). */
export function contextFrames(contexts: Table): Map<number, string[]> {
  const { context_id: ids, frames } = readColumns(contexts, "contexts", {
    context_id: int32(),
    frames: utf8List(),
  });
  const out = new Map<number, string[]>();
  for (let i = 0; i < contexts.numRows; i++) {
    const id = ids[i]!;
    const list = frames.get(i) as { toArray(): ArrayLike<string> } | null;
    const stack = list ? Array.from(list.toArray(), (f) => String(f)) : [];
    const prev = out.get(id);
    if (prev && prev.join("\n") !== stack.join("\n"))
      throw new Error(`contexts row ${i}: context_id ${id} appears twice with different frames`);
    out.set(id, stack);
  }
  return out;
}

export function anomalousGroups(
  tasks: Table,
  contexts: Table,
  options: AnomalousGroupsOptions = {},
): GroupReport[] {
  const tau = options.tauMs ?? DIAGDROID.tauMs;
  const maxDistance = options.maxDistance ?? DIAGDROID.maxDistance;
  const q = queueData(tasks, options);
  const byId = contextFrames(contexts);
  const missing = [...new Set(q.contextId)].filter((id) => !byId.has(id));
  if (missing.length)
    throw new Error(
      `tasks reference ${missing.length} context_id(s) with no row in contexts: ${missing.slice(0, 10).join(", ")}`,
    );
  const contextIds = [...byId.keys()];
  const groupOfContext = new Map<number, number>();
  const ids = contextGroups(
    contextIds.map((id) => byId.get(id)!),
    maxDistance,
  );
  contextIds.forEach((id, i) => groupOfContext.set(id, ids[i]!));
  const groups = ids.length ? Math.max(...ids) + 1 : 0;
  const groupOf = Int32Array.from(q.contextId, (c) => groupOfContext.get(c)!);

  // Per group: Mq, Me, exec sum/count (for dependencies), the task with the longest queue.
  const mq = new Float64Array(groups).fill(-Infinity);
  const mqTask = new Int32Array(groups).fill(-1);
  const me = new Float64Array(groups).fill(NaN);
  const execSum = new Float64Array(groups);
  const execCount = new Int32Array(groups);
  const count = new Int32Array(groups);
  const neverStarted = new Int32Array(groups);
  const running = new Int32Array(groups);
  for (let i = 0; i < q.n; i++) {
    const g = groupOf[i]!;
    count[g]!++;
    if (q.queueMs[i]! > mq[g]!) ((mq[g] = q.queueMs[i]!), (mqTask[g] = i));
    const e = q.execMs[i]!;
    if (!Number.isNaN(e)) {
      if (!(e <= me[g]!)) me[g] = e;
      execSum[g]! += e;
      execCount[g]!++;
    }
    if (q.state[i] === 2) neverStarted[g]!++;
    if (q.state[i] === 1) running[g]!++;
  }
  const anomalous: number[] = [];
  for (let g = 0; g < groups; g++) if (count[g]! > 0 && (mq[g]! > tau || me[g]! > tau)) anomalous.push(g);
  // Per context: execution time max/sum/count, for Figure 6's per-context dependency lines.
  const ctxExec = new Map<number, { max: number; sum: number; n: number }>();
  for (let i = 0; i < q.n; i++) {
    const e = q.execMs[i]!;
    if (Number.isNaN(e)) continue;
    const c = ctxExec.get(q.contextId[i]!) ?? { max: -Infinity, sum: 0, n: 0 };
    ((c.max = Math.max(c.max, e)), (c.sum += e), c.n++);
    ctxExec.set(q.contextId[i]!, c);
  }
  const isAnomalous = new Uint8Array(groups);
  for (const g of anomalous) isAnomalous[g] = 1;

  const slow = (i: number) => q.queueMs[i]! >= tau && isAnomalous[groupOf[i]!] === 1;
  const behind = waitedBehindColumns(q, slow);
  const reports: GroupReport[] = anomalous.map((g) => ({
    rank: 0,
    tauMs: tau,
    maxDistance,
    group: g,
    contextIds: contextIds.filter((id) => groupOfContext.get(id) === g),
    contexts: contextIds.filter((id) => groupOfContext.get(id) === g).map((id) => byId.get(id)!),
    tasks: count[g]!,
    mqMs: mq[g]!,
    meMs: me[g]!,
    anomalousBy: [
      ...(mq[g]! > tau ? ["queuing" as const] : []),
      ...(me[g]! > tau ? ["execution" as const] : []),
    ],
    poolCapacity: Number.isFinite(q.unitCapacity[q.unit[mqTask[g]!]!]!)
      ? q.unitCapacity[q.unit[mqTask[g]!]!]!
      : null,
    executorId: q.unitNames[q.unit[mqTask[g]!]!]!,
    slowCases: 0,
    avgQueueLength: NaN,
    avgInQueueExecMs: NaN,
    dependsOn: [],
    neverStarted: neverStarted[g]!,
    running: running[g]!,
  }));
  const reportOf = new Map(reports.map((r) => [r.group, r]));
  const lengthSum = new Map<number, number>();
  const inQueue = new Map<
    number,
    { sum: number; n: number; deps: Map<number, number>; ctxDeps: Map<number, number> }
  >();
  for (let i = 0; i < q.n; i++) {
    if (!slow(i)) continue;
    const r = reportOf.get(groupOf[i]!)!;
    r.slowCases++;
    lengthSum.set(r.group, (lengthSum.get(r.group) ?? 0) + q.queueLength[i]!);
    let acc = inQueue.get(r.group);
    if (!acc) inQueue.set(r.group, (acc = { sum: 0, n: 0, deps: new Map(), ctxDeps: new Map() }));
    for (let k = behind.offsets[i]!; k < behind.offsets[i + 1]!; k++) {
      const j = behind.indices[k]!;
      if (!Number.isNaN(q.execMs[j]!)) ((acc.sum += q.execMs[j]!), acc.n++);
      acc.deps.set(groupOf[j]!, (acc.deps.get(groupOf[j]!) ?? 0) + 1);
      acc.ctxDeps.set(q.contextId[j]!, (acc.ctxDeps.get(q.contextId[j]!) ?? 0) + 1);
    }
  }
  for (const r of reports) {
    if (r.slowCases === 0) continue;
    r.avgQueueLength = lengthSum.get(r.group)! / r.slowCases;
    const acc = inQueue.get(r.group)!;
    r.avgInQueueExecMs = acc.n ? acc.sum / acc.n : NaN;
    r.dependsOn = [...acc.deps]
      .map(([g, n]) => ({
        group: g,
        contextIds: contextIds.filter((id) => groupOfContext.get(id) === g),
        waitedBehind: n,
        execMaxMs: me[g]!,
        execAvgMs: execCount[g] ? execSum[g]! / execCount[g]! : NaN,
        byContext: contextIds
          .filter((id) => groupOfContext.get(id) === g && acc.ctxDeps.has(id))
          .map((id) => {
            const c = ctxExec.get(id);
            return {
              contextId: id,
              waitedBehind: acc.ctxDeps.get(id)!,
              execMaxMs: c ? c.max : NaN,
              execAvgMs: c ? c.sum / c.n : NaN,
            };
          }),
      }))
      .sort((a, b) => b.waitedBehind - a.waitedBehind || a.group - b.group);
  }
  const score = (r: GroupReport) => Math.max(r.mqMs, Number.isNaN(r.meMs) ? -Infinity : r.meMs);
  reports.sort((a, b) => score(b) - score(a) || b.slowCases - a.slowCases || a.group - b.group);
  reports.forEach((r, i) => (r.rank = i + 1));
  return reports;
}

/** Ranked anomalous groups: Mq and Me per group against τ (the τ the groups carry, unless given). */
export function anomalousGroupsPlot(
  reports: readonly GroupReport[],
  options: { tauMs?: number } = {},
): ChartSpec {
  const rows = reports.flatMap((r) => {
    const label = `#${r.rank} group ${r.group}`;
    const bar = (metric: string, ms: number) => ({ label, metric, ms, tip: `${ms.toFixed(1)} ms` });
    return [
      bar("Mq (max queuing)", r.mqMs),
      ...(Number.isNaN(r.meMs) ? [] : [bar("Me (max execution)", r.meMs)]),
    ];
  });
  return chartSpec("anomalousGroupsPlot", {
    mark: "barX",
    data: rows,
    x: "ms",
    y: "metric",
    fy: "label",
    fill: "metric",
    options: { title: "tip" },
    layout: {
      marginLeft: 110,
      x: { label: "ms", grid: true },
      fy: { domain: reports.map((r) => `#${r.rank} group ${r.group}`), label: null },
      y: { axis: null },
      color: { legend: true },
    },
    over: [
      {
        mark: "ruleX",
        data: [options.tauMs ?? reports[0]?.tauMs ?? DIAGDROID.tauMs],
        options: { stroke: "#d62728", strokeDasharray: "4,3" },
      },
    ],
  });
}
