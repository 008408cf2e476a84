// The DiagDroid report as Markdown, for the headless runner and published notebooks: the issues in rank order
// (anomaly-issues.ts: a waiting group and the groups it waited behind are one issue, as Table 2 counts them),
// and for each of an issue's groups Figure 5/6's lines 1-9, the runtime dependency named per context (Figure 6's
// lines 7-9: "runtime dependency: c1, c2", then the execution time of each).
import type { GroupReport } from "./anomalous-groups";
import { anomalyIssues } from "./anomaly-issues";
import { DIAGDROID } from "./defaults";

export interface AnomalyReportOptions {
  /** τ used for the groups, ms (line 4); default: the τ the groups carry, else DIAGDROID.tauMs */
  tauMs?: number;
  /** frames shown per context, innermost first; default 8 */
  maxFrames?: number;
}

const ms = (x: number) => (Number.isNaN(x) ? "n/a" : `${x.toFixed(2)}ms`);
const groupLabel = (g: number, contextIds: readonly number[]) =>
  `group ${g} (contexts ${contextIds.join(", ")})`;

export function anomalyReport(reports: readonly GroupReport[], options: AnomalyReportOptions = {}): string {
  const tau = options.tauMs ?? reports[0]?.tauMs ?? DIAGDROID.tauMs;
  const maxFrames = options.maxFrames ?? 8;
  if (reports.length === 0)
    return `No anomalous task group: every queuing and execution time is ≤ ${tau}ms.\n`;
  const out: string[] = [];
  const issues = anomalyIssues(reports);
  for (const issue of issues) {
    const others = issue.groups.slice(1).map((g) => `group ${g.group}`);
    out.push(
      `## Issue ${issue.rank} of ${issues.length}: ${groupLabel(issue.lead.group, issue.lead.contextIds)}` +
        (others.length ? `, with ${others.join(", ")} it waited behind` : ""),
      "",
    );
    for (const r of issue.groups) groupBlock(out, r, tau, maxFrames);
  }
  return out.join("\n");
}

function groupBlock(out: string[], r: GroupReport, tau: number, maxFrames: number): void {
  out.push(`### Group ${r.group} (rank ${r.rank} of the groups, contexts ${r.contextIds.join(", ")})`, "");
  const unfinished = [
    r.neverStarted ? `${r.neverStarted} never started (queued until the trace end)` : "",
    r.running ? `${r.running} still running at the trace end` : "",
  ].filter(Boolean);
  out.push(
    `${r.tasks} tasks, anomalous by ${r.anomalousBy.join(" and ")}, on ${r.executorId}` +
      (unfinished.length ? `; ${unfinished.join(", ")}` : "") +
      ".",
    "",
    "```",
    `1. contexts: ${r.contextIds.map((id) => `c${id}`).join(", ")}`,
    `2.   max queuing time: ${ms(r.mqMs)}` +
      (Number.isNaN(r.meMs) ? "" : `   (max execution time: ${ms(r.meMs)})`),
    `3.   pool capacity: ${r.poolCapacity ?? "unbounded"}`,
    `4.   cases of queuing time ≥ ${tau}ms: ${r.slowCases}`,
  );
  // one line per context, in the order of the groups (most waited behind first), as Figure 6 lists c1, c2
  const deps = r.dependsOn.flatMap((d) => d.byContext.map((c) => ({ ...c, group: d.group })));
  if (r.slowCases > 0) {
    out.push(
      `5.     avg. queue length: ${r.avgQueueLength.toFixed(2)}`,
      `6.     avg. execution time of the in-queue tasks: ${ms(r.avgInQueueExecMs)}`,
      `7.   runtime dependency: ${deps.map((d) => `c${d.contextId}`).join(", ") || "none"}`,
    );
    deps.forEach((d, i) =>
      out.push(
        `${8 + i}.     execution time of c${d.contextId}    max: ${ms(d.execMaxMs)}    avg. ${ms(d.execAvgMs)}` +
          `    (group ${d.group}, waited behind ${d.waitedBehind}×)`,
      ),
    );
  }
  out.push("```", "");
  r.contexts.forEach((frames, i) => {
    out.push(`Context c${r.contextIds[i]} (innermost first):`, "", "```");
    out.push(...frames.slice(0, maxFrames).map((f) => `  ${f}`));
    if (frames.length > maxFrames) out.push(`  … ${frames.length - maxFrames} more frames`);
    out.push("```", "");
  });
}
