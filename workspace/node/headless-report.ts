// The reports of a headless run (`jankbook run --out x.html|x.json|x.md`, `jankbook publish`), written from the
// cells' records as the notebook worker last reported them (isolated-run.ts): complete when the notebook
// settled, and the report of everything else when a cell had to be stopped. Every cell's output is capped by
// the worker (worker-protocol.ts), so no report grows with a cell's value.
import type { IsolatedResult } from "./isolated-run";
import { cellLabel, cellStatusName, type CellState } from "../notebook/cell-state";

/** The published page; publish.ts and its DOM are loaded only for it (a run without --out x.html never needs them). */
export async function htmlReport(r: IsolatedResult, embedData = false): Promise<string> {
  const [{ publishNotebook }, { createNodePublishContext }] = await Promise.all([
    import("../publish/publish"),
    import("./node-context"),
  ]);
  return publishNotebook(r.notebook, r.states, createNodePublishContext(r.provenance, { embedData }));
}

export function markdownReport(r: IsolatedResult): string {
  const p = r.provenance;
  const lines = [`# ${p.title ?? r.path}`, "", `jankbook ${p.jankbookVersion}, ${p.generatedAt}`, ""];
  if (r.stopped)
    lines.push(
      `**Stopped:** ${r.stopped.cells.length ? r.stopped.cells.join("; ") : "the notebook"} ${r.stopped.message}`,
      "",
    );
  lines.push(
    "## Runs",
    "",
    ...p.runs.map(
      (x) =>
        `- ${x.run_id}: ${x.app ?? ""} ${x.app_version ?? ""} on ${x.device_model ?? "?"} (API ${x.api_level ?? "?"}), ${x.started_at ?? ""}`,
    ),
    "",
  );
  if (r.loadErrors.length) lines.push("## Load errors", "", ...r.loadErrors.map((e) => `- ${e}`), "");
  if (p.inputs.length)
    lines.push("## Inputs", "", ...p.inputs.map((i) => `- ${i.name} = ${JSON.stringify(i.value)}`), "");
  lines.push(
    "## Checks",
    "",
    ...(r.checks.length
      ? r.checks.map((c) => `- [${c.ok ? "x" : " "}] ${c.name}${c.detail ? `: ${c.detail}` : ""}`)
      : ["(none)"]),
    "",
  );
  const skipped = notApplicableByReason(r.notApplicableCells);
  if (skipped.size)
    lines.push(
      "## Not applicable to these runs",
      "",
      ...[...skipped].map(([reason, cells]) => `- ${reason} (${cells.join(", ")})`),
      "",
    );
  lines.push("## Cells", "", "| cell | status | ms | error |", "|---|---|---|---|");
  for (const s of r.states)
    lines.push(
      `| ${s.kind} ${s.name ?? (s.defines.join(", ") || s.id)} | ${cellStatusName(s).replace("-", " ")} | ${s.ms === undefined ? "" : Math.round(s.ms)} | ${(s.error ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ")} |`,
    );
  return lines.join("\n") + "\n";
}

export function jsonReport(r: IsolatedResult): string {
  return JSON.stringify(
    {
      notebook: r.path,
      ok: reportOk(r),
      stopped: r.stopped,
      loadErrors: r.loadErrors,
      setErrors: r.setErrors,
      provenance: r.provenance,
      checks: r.checks,
      notApplicable: [...notApplicableByReason(r.notApplicableCells)].map(([reason, cells]) => ({
        reason,
        cells,
      })),
      cells: r.records.map((c) => ({
        id: c.id,
        kind: c.kind,
        name: c.name,
        status: c.status,
        error: c.error,
        notApplicable: c.notApplicable,
        values: c.snapshot?.values ?? {},
        value: c.snapshot?.value,
        displays: c.snapshot?.displays ?? [],
        checks: c.checks.map(({ name, ok, detail }) => ({ name, ok, detail })),
        ms: c.ms,
        defines: c.defines,
        references: c.references,
      })),
      ms: r.ms,
    },
    null,
    2,
  );
}

/** The not-applicable cells grouped by what their runs lack, each named as progress lines name it. */
export function notApplicableByReason(cells: readonly CellState[]): Map<string, string[]> {
  const byReason = new Map<string, string[]>();
  for (const c of cells) {
    const reason = c.notApplicable ?? "";
    byReason.set(reason, [...(byReason.get(reason) ?? []), cellLabel(c)]);
  }
  return byReason;
}

/** No cell failed, no check failed, every run loaded, nothing was stopped. */
export function reportOk(r: IsolatedResult): boolean {
  return (
    !r.failedCells.length &&
    !r.failedChecks.length &&
    !r.loadErrors.length &&
    !r.setErrors.length &&
    !r.stopped
  );
}
