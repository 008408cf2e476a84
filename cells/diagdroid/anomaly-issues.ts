// DiagDroid's report ranks issues, not groups (§4.2, §6 and Table 2: "ranking of the buggy issue / total # issues
// reported"). The paper's issue is a group whose tasks queued for long together with the tasks it bears runtime
// dependency with: Figure 5 reports c1's group with c2 as its "runtime dependency", one issue ranked 1/7, and §4.2
// says the anomalous task "per se is not always the root cause", the tasks it waited behind are. So the anomalous
// groups linked by a wait ≥ τ (a slow case of one waited behind a task of the other, either way, transitively) are
// one issue, led by the group that waited longest (the symptom, reported first as in Figure 5).
//
// Ranking: the paper ranks "according to their performance metrics as well as their execution contexts" and
// gives no formula; an issue's metric is the largest of its groups' Mq and Me (§4.2's performance metrics), so a
// wait and the execution that caused it count once, at the larger of the two. Ties: more cases of queuing ≥ τ
// first, then the lead group's id. A group anomalous by its own execution, blocking no slow case, is an issue alone.
import type { GroupReport } from "./anomalous-groups";

export interface AnomalyIssue {
  /** 1-based */
  rank: number;
  /** the group whose tasks waited longest (largest Mq among the groups with cases of queuing ≥ τ), else the only group */
  lead: GroupReport;
  /** the issue's anomalous groups, the lead first, then by group id */
  groups: GroupReport[];
  contextIds: number[];
  /** max over the groups of max(Mq, Me), ms */
  scoreMs: number;
  /** cases of queuing time ≥ τ over the issue's groups */
  slowCases: number;
}

const metric = (g: GroupReport) => Math.max(g.mqMs, Number.isNaN(g.meMs) ? -Infinity : g.meMs);

/** The issues of a report of anomalous groups (from anomalousGroups), ranked. */
export function anomalyIssues(groups: readonly GroupReport[]): AnomalyIssue[] {
  const byGroup = new Map(groups.map((g) => [g.group, g]));
  const parent = new Map(groups.map((g) => [g.group, g.group]));
  const find = (g: number): number => {
    let r = g;
    while (parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  for (const g of groups)
    for (const d of g.dependsOn) if (byGroup.has(d.group)) parent.set(find(d.group), find(g.group));
  const members = new Map<number, GroupReport[]>();
  for (const g of groups) {
    const root = find(g.group);
    members.set(root, [...(members.get(root) ?? []), g]);
  }
  const issues = [...members.values()].map((list): AnomalyIssue => {
    const waiting = list.filter((g) => g.slowCases > 0).sort((a, b) => b.mqMs - a.mqMs || a.group - b.group);
    const lead = waiting[0] ?? [...list].sort((a, b) => metric(b) - metric(a) || a.group - b.group)[0]!;
    const rest = list.filter((g) => g !== lead).sort((a, b) => a.group - b.group);
    return {
      rank: 0,
      lead,
      groups: [lead, ...rest],
      contextIds: [lead, ...rest].flatMap((g) => g.contextIds),
      scoreMs: Math.max(...list.map(metric)),
      slowCases: list.reduce((n, g) => n + g.slowCases, 0),
    };
  });
  issues.sort((a, b) => b.scoreMs - a.scoreMs || b.slowCases - a.slowCases || a.lead.group - b.lead.group);
  issues.forEach((issue, i) => (issue.rank = i + 1));
  return issues;
}

/** The issue holding a group (by group id), or undefined when the group is not anomalous. */
export function issueOf(issues: readonly AnomalyIssue[], group: number): AnomalyIssue | undefined {
  return issues.find((i) => i.groups.some((g) => g.group === group));
}
