// logcat text in the formats of system/core liblog/logprint.cpp: threadtime (the default), the same with
// `-v monotonic` (seconds since boot instead of a date), and brief. One pure line parser.

export interface LogLine {
  /** CLOCK_MONOTONIC ns for monotonic lines; null for wall-clock formats */
  mono_ns: bigint | null;
  /** "MM-DD HH:MM:SS.mmm" for threadtime lines */
  wall: string | null;
  pid: number;
  tid: number | null;
  level: string;
  tag: string;
  message: string;
}

export type LogcatFormat = "threadtime" | "monotonic" | "brief";

const THREADTIME = /^(\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\s+(\d+)\s+(\d+)\s+([VDIWEFSA])\s(.*?)\s*: ?(.*)$/;
const MONOTONIC = /^\s*(\d+)\.(\d+)\s+(\d+)\s+(\d+)\s+([VDIWEFSA])\s(.*?)\s*: ?(.*)$/;
const BRIEF = /^([VDIWEFSA])\/(.*?)\(\s*(\d+)\): ?(.*)$/;

/** Seconds with 3, 6 or 9 fractional digits (`-v usec`, `-v nsec`) to ns. */
function secondsToNs(sec: string, frac: string): bigint {
  return BigInt(sec) * 1_000_000_000n + BigInt(frac.padEnd(9, "0").slice(0, 9));
}

/** One line; null for "--------- beginning of main" markers, blank lines and anything unrecognised. */
export function parseLogLine(line: string): { line: LogLine; format: LogcatFormat } | null {
  let m = MONOTONIC.exec(line);
  if (m)
    return {
      format: "monotonic",
      line: {
        mono_ns: secondsToNs(m[1]!, m[2]!),
        wall: null,
        pid: Number(m[3]),
        tid: Number(m[4]),
        level: m[5]!,
        tag: m[6]!,
        message: m[7]!,
      },
    };
  m = THREADTIME.exec(line);
  if (m)
    return {
      format: "threadtime",
      line: {
        mono_ns: null,
        wall: m[1]!,
        pid: Number(m[2]),
        tid: Number(m[3]),
        level: m[4]!,
        tag: m[5]!,
        message: m[6]!,
      },
    };
  m = BRIEF.exec(line);
  if (m)
    return {
      format: "brief",
      line: {
        mono_ns: null,
        wall: null,
        pid: Number(m[3]),
        tid: null,
        level: m[1]!,
        tag: m[2]!.trim(),
        message: m[4]!,
      },
    };
  return null;
}

export interface LogcatResult {
  lines: (LogLine & { lineNo: number })[];
  format: LogcatFormat | null;
  /** "--------- beginning of main" markers seen: a second one for the same buffer means logcat restarted */
  markers: { buffer: string; lineNo: number }[];
  warnings: string[];
}

export function parseLogcat(text: string, file = "logcat"): LogcatResult {
  const out: LogcatResult = { lines: [], format: null, markers: [], warnings: [] };
  const all = text.split(/\r?\n/);
  let unread = 0;
  for (let i = 0; i < all.length; i++) {
    const raw = all[i]!;
    if (raw.trim() === "") continue;
    const marker = /^-+ beginning of (\S+)/.exec(raw);
    if (marker) {
      out.markers.push({ buffer: marker[1]!, lineNo: i + 1 });
      continue;
    }
    const p = parseLogLine(raw);
    if (!p) {
      if (unread++ < 20) out.warnings.push(`${file} line ${i + 1}: not a logcat line: "${raw.slice(0, 60)}"`);
      continue;
    }
    out.format ??= p.format;
    out.lines.push({ ...p.line, lineNo: i + 1 });
  }
  if (unread > 20) out.warnings.push(`${file}: ${unread - 20} more unreadable lines`);
  return out;
}
