// ftrace text as atrace and systrace save it, into slices, counters, thread states, threads and processes.
// Semantics follow what Perfetto's trace processor does with the same lines
// (src/trace_processor/importers/systrace/systrace_line_parser.cc): tracing_mark_write, print and the old
// `0` event carry atrace markers; sched_* events give thread states; other kernel events are counted, not kept.
import { parseAtraceMarker } from "./atrace-marker";
import { parseFtraceLine, type FtraceLine } from "./ftrace-line";
import type { SliceRow, TraceRows } from "../perfetto/rows";
import { SchedStates } from "./sched-states";

export interface SystraceParse {
  rows: TraceRows;
  /** event lines read, and of those the kernel events we do not keep, by name */
  events: number;
  ignored: Map<string, number>;
  warnings: string[];
  /** false when a line could not be read or a marker was malformed */
  complete: boolean;
}

const MARKER_EVENTS = new Set(["tracing_mark_write", "print", "0"]);
const SCHED_EVENTS = new Set(["sched_switch", "sched_waking", "sched_wakeup", "sched_blocked_reason"]);
const MAX_EXAMPLES = 5;

/** Parses ftrace text; `file` names it in messages. Bad lines are counted with their line numbers, never fatal. */
export function parseSystraceText(text: string, file: string): SystraceParse {
  const lines: { l: FtraceLine; no: number }[] = [];
  const problems: string[] = [];
  let bad = 0;
  const complain = (no: number, why: string) => {
    bad++;
    if (problems.length < MAX_EXAMPLES) problems.push(`${file} line ${no}: ${why}`);
  };
  let no = 0;
  let sorted = true;
  for (const raw of text.split("\n")) {
    no++;
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    // `cpus=N` heads the trace_pipe dump atrace saves (trace processor skips it too).
    if (/^\s*cpus=\d+\s*$/.test(raw)) continue;
    const l = parseFtraceLine(raw);
    if (!l) {
      complain(no, `not an ftrace event line: ${JSON.stringify(raw.slice(0, 80))}`);
      continue;
    }
    if (lines.length && l.ts < lines[lines.length - 1]!.l.ts) sorted = false;
    lines.push({ l, no });
  }
  // The kernel merges per-CPU buffers in time order; a concatenated or edited file may not be: sort, stably.
  if (!sorted) lines.sort((a, b) => (a.l.ts < b.l.ts ? -1 : a.l.ts > b.l.ts ? 1 : a.no - b.no));

  const slices: SliceRow[] = [];
  const counters: TraceRows["counters"] = [];
  const stacks = new Map<number, number[]>();
  const asyncOpen = new Map<string, number[]>();
  const names = new Map<number, string>();
  const pids = new Map<number, number>();
  const ignored = new Map<string, number>();
  const sched = new SchedStates();
  let unmatched = 0;

  for (const { l, no } of lines) {
    if (l.task !== "<...>" && l.tid !== 0) names.set(l.tid, l.task);
    if (l.tgid !== null && l.tid !== 0) pids.set(l.tid, l.tgid);
    if (MARKER_EVENTS.has(l.event)) {
      const m = parseAtraceMarker(l.args);
      if (m === null) continue;
      if (typeof m === "string") {
        complain(no, m);
        continue;
      }
      if (m.phase !== "E" || m.pid !== null) pids.set(l.tid, m.pid!);
      const stack = stacks.get(l.tid) ?? [];
      stacks.set(l.tid, stack);
      const thread = { tid: l.tid, thread_name: null, category: "atrace", track: null };
      switch (m.phase) {
        case "B":
          stack.push(slices.length);
          slices.push({ ts: l.ts, dur: null, pid: m.pid, name: m.name, depth: stack.length - 1, ...thread });
          break;
        case "E": {
          const open = stack.pop();
          if (open === undefined) unmatched++;
          else slices[open]!.dur = l.ts - slices[open]!.ts;
          break;
        }
        case "I":
          slices.push({ ts: l.ts, dur: 0, pid: m.pid, name: m.name, depth: stack.length, ...thread });
          break;
        case "C":
          counters.push({ ts: l.ts, pid: m.pid, name: m.name, value: m.value });
          break;
        case "N":
          slices.push(asyncRow(l.ts, m.pid, m.track, m.name, 0));
          break;
        case "S":
        case "G": {
          const track = m.phase === "G" ? m.track : m.name;
          const key = `${m.pid}\u0000${track}\u0000${m.cookie}`;
          const list = asyncOpen.get(key) ?? [];
          asyncOpen.set(key, list);
          // An S repeated while its cookie is open is dropped (trace processor's BeginLegacyUnnestable); G nests.
          if (list.length && m.phase === "S") break;
          list.push(slices.length);
          slices.push(asyncRow(l.ts, m.pid, track, m.name, null));
          break;
        }
        case "F":
        case "H": {
          const track = m.phase === "H" ? m.track : m.name;
          const open = asyncOpen.get(`${m.pid}\u0000${track}\u0000${m.cookie}`)?.pop();
          if (open === undefined) unmatched++;
          else slices[open]!.dur = l.ts - slices[open]!.ts;
          break;
        }
      }
    } else if (!sched.event(l.event, l.ts, l.cpu, l.args)) {
      if (SCHED_EVENTS.has(l.event))
        complain(
          no,
          `${l.event} arguments not in the kernel's format: ${JSON.stringify(l.args.slice(0, 80))}`,
        );
      else ignored.set(l.event, (ignored.get(l.event) ?? 0) + 1);
    }
  }
  for (const [tid, name] of sched.names) if (!names.has(tid)) names.set(tid, name);
  asyncDepths(slices);
  for (const s of slices) if (s.tid !== null) s.thread_name = names.get(s.tid) ?? null;
  for (const r of sched.rows) {
    r.pid = pids.get(r.tid) ?? null;
    r.thread_name = names.get(r.tid) ?? null;
  }
  const threads = [...new Set([...names.keys(), ...pids.keys()])]
    .sort((a, b) => a - b)
    .map((tid) => ({ tid, name: names.get(tid) ?? "", pid: pids.get(tid) ?? null }));
  const processes = [...new Set([...pids.values()])]
    .sort((a, b) => a - b)
    .map((pid) => ({ pid, ppid: null, name: names.get(pid) ?? null, uid: null })); // main thread's comm: no cmdline here

  const warnings: string[] = [];
  if (bad) warnings.push(`${file}: ${bad} line(s) could not be read; first: ${problems.join("; ")}`);
  if (unmatched)
    warnings.push(`${file}: ${unmatched} end marker(s) (E, F, H) without a matching begin, left out`);
  const open = slices.filter((s) => s.dur === null).length;
  if (open) warnings.push(`${file}: ${open} slice(s) still open at the end of the trace (dur null)`);
  if (!lines.length) warnings.push(`${file}: no ftrace event lines`);
  return {
    rows: { slices, counters, threadStates: sched.rows, threads, processes, frameTimeline: [] },
    events: lines.length,
    ignored,
    warnings,
    complete: bad === 0,
  };
}

function asyncRow(ts: number, pid: number, track: string, name: string, dur: number | null): SliceRow {
  return { ts, dur, pid, tid: null, thread_name: null, name, depth: 0, category: "async", track };
}

// Async slices of one process and track may overlap; each gets the lowest lane free at its start, as a
// timeline draws them (an unclosed slice holds its lane to the end).
function asyncDepths(slices: SliceRow[]) {
  const lanes = new Map<string, (number | null)[]>();
  for (const s of slices) {
    if (s.tid !== null) continue;
    const key = `${s.pid}\u0000${s.track}`;
    const ends = lanes.get(key) ?? [];
    lanes.set(key, ends);
    let d = ends.findIndex((e) => e !== null && e <= s.ts);
    if (d < 0) d = ends.length;
    ends[d] = s.dur === null ? null : s.ts + s.dur;
    s.depth = d;
  }
}
