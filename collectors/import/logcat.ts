// Importer for saved logcat text in any layout: every line into `logcat`, the jank-related lines into
// `log_events`, JankStats FrameData lines into `frames` (source jankstats), and the agent's protocol lines
// into tasks, contexts, render_ops and ui_events (they carry their own CLOCK_MONOTONIC times).
import type { Table } from "apache-arrow";
import { bundleTableFromRows, makeBundleTable } from "../../bundle/table-builder";
import type { TableName } from "../../bundle/schema";
import { AGENT_TAG } from "../agent/protocol";
import { agentTables } from "../bundle-tables";
import { hookWarnings } from "../sources/agent-hook-warnings";
import { AgentLineReader } from "../sources/agent-lines";
import { jankStatsFrames, type JankStatsFrame } from "../sources/jankstats";
import { logEvents } from "../sources/log-events";
import { looksLikeLogcat, parseLogcat, type LogRecord } from "../sources/logcat";
import type { TextImport } from "./framestats";

const DEFAULT_DEADLINE_NS = 16_670_000n;

export function detectLogcat(text: string): boolean {
  return looksLikeLogcat(text);
}

function logcatTable(runId: string, lines: readonly LogRecord[]): Table {
  return bundleTableFromRows("logcat", runId, lines, {
    ts: (l) => l.mono_ns,
    wall_time: (l) => l.wall,
    pid: (l) => (l.pid >= 0 ? l.pid : null),
  });
}

/**
 * JankStats frames: duration is the total (API 31+), else CPU (API 24+), else UI time; the deadline is
 * duration - frameOverrunNanos when the overrun is known (so jank = overrun > 0), else 16.67 ms.
 */
export function jankStatsTable(runId: string, frames: readonly JankStatsFrame[]): Table {
  const duration = frames.map((f) => f.total ?? f.cpu ?? f.ui);
  const deadline = frames.map((f, i) =>
    f.overrun !== null ? duration[i]! - f.overrun : DEFAULT_DEADLINE_NS,
  );
  return makeBundleTable(
    "frames",
    runId,
    {
      window: frames.map((f) => (f.states ? `states: ${f.states}` : null)),
      intended_vsync: frames.map((f) => f.start),
      frame_completed: frames.map((f, i) => f.start + duration[i]!),
      duration,
      deadline,
      jank: duration.map((d, i) => d > deadline[i]!),
      suspect: duration.map((d) => (d < 0n ? "negative duration" : null)),
      source: frames.map(() => "jankstats"),
    },
    frames.length,
  );
}

export function importLogcat(text: string, file: string, runId: string): TextImport {
  const log = parseLogcat(text, file);
  const reader = new AgentLineReader();
  let agentLines = 0;
  for (const l of log.lines)
    if (l.tag === AGENT_TAG && l.pid >= 0) {
      agentLines++;
      reader.feed(l.message, l.pid, `${file} line ${l.lineNo}`, l === log.cut?.record);
    }
  const d = reader.finish();
  const events = logEvents(log.lines);
  const jank = jankStatsFrames(log.lines, file);
  const warnings = [
    ...log.warnings,
    ...jank.warnings,
    ...(agentLines ? [...d.warnings, ...hookWarnings(d)] : []),
  ];
  const tables: Partial<Record<TableName, Table>> = agentLines ? agentTables(runId, d) : {};
  if (log.lines.length) tables.logcat = logcatTable(runId, log.lines);
  if (events.length) tables.log_events = bundleTableFromRows("log_events", runId, events);
  if (jank.frames.length) tables.frames = jankStatsTable(runId, jank.frames);
  // A last line without its newline that still reads as a whole log line (header and message) is a warning only:
  // saved logs often just lack the final newline; one that does not read as a log line is counted unread above.
  const lastWhole = !!log.cut?.record && log.cut.record.message !== "";
  if (log.cut)
    warnings.push(
      lastWhole
        ? `${file} line ${log.cut.lineNo}: no newline at the end; the line reads as a whole log line (if the file was cut, its message may be short)`
        : `${file} line ${log.cut.lineNo}: no newline at the end: the file may be cut inside this line (its message may be short); import partial`,
    );
  if (log.clock !== "monotonic" && log.lines.length)
    warnings.push(
      `${file}: logcat.ts is null: this ${log.format} log prints ${log.clock === null ? "no time" : "wall-clock times"} (collect with -v monotonic for CLOCK_MONOTONIC)`,
    );
  // Partial when a line was cut or unread, or the agent's lines were cut, undecodable, lost or impossible.
  const complete =
    log.unread === 0 && (!log.cut || lastWhole) && jank.warnings.length === 0 && !(agentLines && d.partial);
  return {
    context: { app: d.hello?.package ?? "unknown", scenario: `import ${file}` },
    tables,
    warnings,
    complete,
    source: { kind: "logcat", origin: file },
    ...(agentLines && Object.keys(d.lostLines).length ? { lost_lines: d.lostLines } : {}),
  };
}
