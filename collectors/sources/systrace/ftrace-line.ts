// One line of ftrace text output (kernel/trace/trace_output.c, trace_print_context): the
// `TASK-PID (TGID) [CPU] FLAGS TIMESTAMP: EVENT: ARGS` prefix in its variants: TGID present
// (options/print-tgid, `(-----)` when unknown) or absent, the irq-flags column (`d..3`, `.N.1.`) present or
// absent (old kernels), a task name that may itself hold dashes, spaces and brackets.

export interface FtraceLine {
  /** comm as printed; `<...>` when the kernel no longer knew it */
  task: string;
  /** the thread (kernel pid) that logged the event */
  tid: number;
  /** the process (kernel tgid) when print-tgid was on and it was known */
  tgid: number | null;
  cpu: number;
  /** timestamp in ns as printed (seconds with up to 9 decimals); exact below 2^53 ns, 104 days of uptime */
  ts: number;
  /** event name: tracing_mark_write, print, 0 (old atrace), sched_switch, ... */
  event: string;
  args: string;
}

// The first `-PID` (after a non-empty task) that is followed by the optional `(TGID)` and `[CPU]`; flags are 3
// letters or dots plus one or two hex digits or dots (preempt count), as trace_print_lat_fmt writes them. Some
// writers leave no space between flags and timestamp (`....316.196720`, trace processor's
// systrace_line_tokenizer.cc allows it): the flags then take the fewest characters that leave a timestamp.
const LINE =
  /^\s*(.+?)-(\d+)\s+(?:\(\s*(\d+|-+)\s*\)\s+)?\[(\d+)\]\s+(?:[a-zA-Z.]{3}[0-9a-fA-F.]{1,2}?\s*)?(\d+)\.(\d{1,9}):\s+([^\s:]+):\s?(.*)$/;

/** The line parsed, or null when it is not an event line (header, blank, continuation of a multi-line event). */
export function parseFtraceLine(line: string): FtraceLine | null {
  const m = LINE.exec(line);
  if (!m) return null;
  const tgid = m[3] === undefined || m[3].startsWith("-") ? null : Number(m[3]);
  const frac = m[6]!;
  return {
    task: m[1]!.trim(),
    tid: Number(m[2]),
    tgid,
    cpu: Number(m[4]),
    ts: Number(m[5]!) * 1e9 + Number(frac) * 10 ** (9 - frac.length),
    event: m[7]!,
    args: m[8]!.trimEnd(),
  };
}
