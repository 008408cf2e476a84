// anomalyIssues on hand-built runs: a group that queued ≥ τ and the group it waited behind are one issue, ranked
// once by the larger of their Mq and Me (DiagDroid §4.2, Figure 5: c1's group reported with c2 as its runtime
// dependency, Table 2: LawListFragment@OpenLaw ranks 1 of 7 issues). Ranks worked out by hand below.
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { anomalousGroups, anomalyIssues, issueOf } from "../../../cells/diagdroid/index";
import { tasksTable, type T } from "./tasks-fixture";

const stack = (name: string) => [`${name}.run`, `${name}.post`, `${name}.click`, `${name}.onCreate`];
// contexts 1 (the waiter), 2 (its blocker), 3 (an unrelated slow handler), each 4 frames from the others
const contexts = makeBundleTable("contexts", "r", {
  context_id: [1, 2, 3],
  frames: [stack("LawSectionList"), stack("UpdateLawList"), stack("Other")],
});
// the blocker runs 0-2000 ms on the serial executor; the waiter, scheduled at 100, starts at 2000 (Q = 1900);
// the unrelated task runs `otherMs` on its own handler
const run = (otherMs: number) => {
  const rows: T[] = [
    { id: 1, ctx: 2, s: 0, b: 0, e: 2000 },
    { id: 2, ctx: 1, s: 100, b: 2000, e: 2050 },
    { id: 3, ctx: 3, unit: "Handler@9", s: 0, b: 0, e: otherMs },
  ];
  return anomalousGroups(tasksTable(rows), contexts);
};
const groupOf = (groups: ReturnType<typeof run>, ctx: number) =>
  groups.find((g) => g.contextIds.includes(ctx))!;

describe("anomalyIssues", () => {
  it("ranks the waiter and its blocker as one issue led by the waiter, above a group the blocker outranks alone", () => {
    // by group: blocker Me 2000 (1), other Me 1950 (2), waiter Mq 1900 (3)
    const groups = run(1950);
    expect(groups.map((g) => [g.rank, g.contextIds])).toEqual([
      [1, [2]],
      [2, [3]],
      [3, [1]],
    ]);
    const issues = anomalyIssues(groups);
    expect(issues.map((i) => [i.rank, i.lead.contextIds, i.contextIds, i.scoreMs, i.slowCases])).toEqual([
      [1, [1], [1, 2], 2000, 1],
      [2, [3], [3], 1950, 0],
    ]);
    expect(issueOf(issues, groupOf(groups, 1).group)!.rank).toBe(1);
    expect(issueOf(issues, groupOf(groups, 2).group)!.rank).toBe(1);
  });

  it("a slower unrelated group still ranks first: the issue's metric is its largest Mq or Me", () => {
    const issues = anomalyIssues(run(3000));
    expect(issues.map((i) => [i.rank, i.contextIds, i.scoreMs])).toEqual([
      [1, [3], 3000],
      [2, [1, 2], 2000],
    ]);
  });

  it("no groups, no issues", () => {
    expect(anomalyIssues([])).toEqual([]);
  });
});
