// logcat text in every layout of AOSP liblog logprint.cpp (threadtime, brief, time, process, thread, tag,
// long; with -v year, monotonic, epoch, uid, usec/nsec, zone, color) and Android Studio's Logcat copy.
// Lines are read by logcat-line.ts in linear time; -v long messages span the lines up to a blank one.
import { parseLine, parseLongHeader, type LogcatClock, type LogcatLayout, type LogLine } from "./logcat-line";

export { parseLine, type LogcatClock, type LogcatLayout, type LogLine } from "./logcat-line";

export type LogcatFormat = LogcatLayout | "monotonic";

/** One line for the live collectors: the same reading as the files (monotonic lines report "monotonic"). */
export function parseLogLine(line: string): { line: LogLine; format: LogcatFormat } | null {
  const p = parseLine(line);
  if (!p) return null;
  return {
    line: p.line,
    format: p.clock === "monotonic" && p.layout === "threadtime" ? "monotonic" : p.layout,
  };
}

export type LogRecord = LogLine & { lineNo: number };

export interface LogcatResult {
  lines: LogRecord[];
  /** the layout of the first line read (the file's format), null when none was read */
  format: LogcatFormat | null;
  /** the time prefix of the first line read */
  clock: LogcatClock | null;
  /** lines read per layout, e.g. { threadtime: 1998, brief: 2 } */
  layouts: Partial<Record<LogcatLayout, number>>;
  /** "--------- beginning of main" markers seen: a second one for the same buffer means logcat restarted */
  markers: { buffer: string; lineNo: number }[];
  /** lines that were not log lines */
  unread: number;
  /** the text does not end with a newline: liblog ends every line with one, so a saved log may have been cut
   * inside its last line (a copied excerpt lacks one too); the record on that line, if it is one */
  cut: { lineNo: number; record: LogRecord | null } | null;
  warnings: string[];
}

const MAX_NAMED = 20;

export function parseLogcat(text: string, file = "logcat"): LogcatResult {
  const out: LogcatResult = {
    lines: [],
    format: null,
    clock: null,
    layouts: {},
    markers: [],
    unread: 0,
    cut: null,
    warnings: [],
  };
  const all = text.split("\n");
  let long: LogRecord | null = null;
  let lastLayout: LogcatLayout | null = null;
  let longBody: string[] = [];
  const endLong = () => {
    if (!long) return;
    long.message = longBody.join("\n");
    long = null;
    longBody = [];
  };
  for (let i = 0; i < all.length; i++) {
    const raw = all[i]!.endsWith("\r") ? all[i]!.slice(0, -1) : all[i]!;
    if (long) {
      // -v long: the message runs to the blank line logprint.cpp prints after it.
      if (raw === "") {
        endLong();
        continue;
      }
      if (!raw.startsWith("[ ")) {
        longBody.push(raw);
        continue;
      }
      endLong();
    }
    if (raw.trim() === "") continue;
    // Android Studio's copy continues a multi-line message (a stack trace) on lines indented to the message column.
    const last = out.lines[out.lines.length - 1];
    if (last && lastLayout === "studio" && raw.startsWith(" ".repeat(20))) {
      last.message += "\n" + raw.replace(/^ +/, "");
      continue;
    }
    if (raw.startsWith("--------- ")) {
      const m = /^-+ (?:beginning of|switch to) (\S+)/.exec(raw.slice(0, 200));
      if (m) {
        out.markers.push({ buffer: m[1]!, lineNo: i + 1 });
        continue;
      }
    }
    const header = raw.startsWith("[ ") ? parseLongHeader(raw) : null;
    const p = header ?? parseLine(raw);
    if (!p) {
      if (out.unread++ < MAX_NAMED)
        out.warnings.push(`${file} line ${i + 1}: not a logcat line: ${JSON.stringify(raw.slice(0, 60))}`);
      continue;
    }
    if (out.format === null) {
      out.format = p.clock === "monotonic" && p.layout === "threadtime" ? "monotonic" : p.layout;
      out.clock = p.clock;
    }
    out.layouts[p.layout] = (out.layouts[p.layout] ?? 0) + 1;
    lastLayout = p.layout;
    // p.line is a fresh object per line: take it over rather than copy it (100k-line logs)
    const record: LogRecord = Object.assign(p.line, { lineNo: i + 1 });
    out.lines.push(record);
    if (header) long = record;
  }
  endLong();
  const last = out.lines[out.lines.length - 1];
  if (text !== "" && !text.endsWith("\n"))
    out.cut = { lineNo: all.length, record: last?.lineNo === all.length ? last : null };
  if (out.unread > MAX_NAMED)
    out.warnings.push(`${file}: ${out.unread - MAX_NAMED} more lines were not log lines`);
  return out;
}

/** True when most of the first 50 non-blank lines are log lines (at least 3, or all of a shorter file). */
export function looksLikeLogcat(text: string): boolean {
  let seen = 0;
  let read = 0;
  let from = 0;
  let inLong = false;
  while (seen < 50 && from < text.length) {
    let to = text.indexOf("\n", from);
    if (to < 0) to = text.length;
    const raw = text.slice(from, Math.min(to, from + 4096)).replace(/\r$/, "");
    from = to + 1;
    if (raw.trim() === "") inLong = false;
    if (inLong || raw.trim() === "" || /^-+ (beginning of|switch to) /.test(raw)) continue;
    seen++;
    const header = parseLongHeader(raw);
    if (header) inLong = true;
    if (header ?? parseLine(raw)) read++;
  }
  return read >= Math.min(3, seen) && read > 0 && read * 2 >= seen;
}
