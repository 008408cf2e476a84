// The DiagDroid report as Markdown (Figure 5's lines 1–9, for every anomalous group, in rank order), for the
// headless runner and published notebooks.
import type { GroupReport } from "./anomalous-groups";
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
  for (const r of reports) {
    out.push(`### ${r.rank}. ${groupLabel(r.group, r.contextIds)}`, "");
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
    if (r.slowCases > 0) {
      out.push(
        `5.     avg. queue length: ${r.avgQueueLength.toFixed(2)}`,
        `6.     avg. execution time of the in-queue tasks: ${ms(r.avgInQueueExecMs)}`,
        `7.   runtime dependency: ${r.dependsOn.map((d) => `group ${d.group}`).join(", ") || "none"}`,
      );
      r.dependsOn.forEach((d, i) =>
        out.push(
          `${8 + i}.     execution time of group ${d.group}    max: ${ms(d.execMaxMs)}    avg. ${ms(d.execAvgMs)}` +
            `    (waited behind ${d.waitedBehind}×)`,
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
  return out.join("\n");
}
