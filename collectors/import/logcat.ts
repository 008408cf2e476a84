// Importer for saved logcat text (`logcat -v monotonic`, threadtime or brief): the agent's protocol lines
// become tasks, contexts, render_ops and ui_events. Agent lines carry their own CLOCK_MONOTONIC times, so
// any of the formats works.
import { AGENT_TAG } from "../agent/protocol";
import { agentTables } from "../bundle-tables";
import { AgentLineReader } from "../sources/agent-lines";
import { parseLogcat } from "../sources/logcat";
import type { TextImport } from "./framestats";

export function detectLogcat(text: string): boolean {
  const head = text.split("\n", 50);
  return (
    head.filter((l) =>
      /^\s*\d+\.\d+\s+\d+\s+\d+ [VDIWEF] |^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+ [VDIWEF] |^[VDIWEF]\/.*\(\s*\d+\): /.test(
        l,
      ),
    ).length >= Math.min(3, head.length)
  );
}

export function importLogcat(text: string, file: string, runId: string): TextImport {
  const log = parseLogcat(text, file);
  const reader = new AgentLineReader();
  for (const l of log.lines)
    if (l.tag === AGENT_TAG) reader.feed(l.message, l.pid, `${file} line ${l.lineNo}`);
  const d = reader.finish();
  const warnings = [...log.warnings, ...d.warnings];
  if (!d.lines) warnings.push(`${file}: no ${AGENT_TAG} lines (${log.lines.length} other log lines)`);
  return {
    context: { app: d.hello?.package ?? "unknown", scenario: `import ${file}` },
    tables: agentTables(runId, d),
    warnings,
    complete: !d.warnings.some((w) => /lost/.test(w)),
    source: { kind: "logcat", origin: file },
  };
}
