// One logcat line in any of the layouts of AOSP liblog logprint.cpp (android_log_formatLogLine) and of
// Android Studio's Logcat copy. A hand-written scanner: every step moves forward, so a line costs time
// linear in its length (the old regular expressions took 92 s on one 300 KB line).

/** Layouts; `studio` is Android Studio Dolphin+ (`pid-tid  tag  package  L  msg`), `studio-legacy` the older `pid-tid/package L/tag: msg`. */
export type LogcatLayout =
  "threadtime" | "time" | "brief" | "process" | "thread" | "tag" | "long" | "studio" | "studio-legacy";

/** The time prefix: `-v year`, the default month-day, `-v monotonic` (seconds since boot) or `-v epoch`. */
export type LogcatClock = "date" | "year" | "monotonic" | "epoch";

export interface LogLine {
  /** CLOCK_MONOTONIC ns for `-v monotonic` lines; null for wall-clock formats */
  mono_ns: bigint | null;
  /** the wall-clock time as printed (`MM-DD HH:MM:SS.mmm`, with the year, or epoch seconds); null when none */
  wall: string | null;
  /** -1 when the layout prints no pid (`-v tag`); converted to null at the table boundary */
  pid: number;
  tid: number | null;
  /** `-v uid`: the uid or user name logcat printed before the pid */
  uid: string | null;
  level: string;
  tag: string;
  message: string;
}

export interface ParsedLine {
  line: LogLine;
  layout: LogcatLayout;
  clock: LogcatClock | null;
}

// logprint.cpp filterPriToChar, plus A (assert) as Android Studio prints it.
const LEVELS = "VDIWEFSA";
const isDigit = (c: number) => c >= 48 && c <= 57;
const isLevel = (s: string, i: number) => i < s.length && LEVELS.includes(s[i]!);

function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}
function spacesEnd(s: string, i: number): number {
  while (i < s.length && s[i] === " ") i++;
  return i;
}
function tokenEnd(s: string, i: number): number {
  while (i < s.length && s[i] !== " ") i++;
  return i;
}

interface TimeRead {
  end: number;
  clock: LogcatClock;
  wall: string | null;
  mono: bigint | null;
}

/** `[YYYY-]MM-DD HH:MM:SS.fff[ +zzzz]` or `  sss.fff` (3, 6 or 9 fractional digits: -v usec / nsec). */
export function readTime(s: string, start: number): TimeRead | null {
  const i = spacesEnd(s, start);
  const d = digitsEnd(s, i);
  if (d === i) return null;
  if (s[d] === ".") {
    const f = digitsEnd(s, d + 1);
    if (![3, 6, 9].includes(f - d - 1) || d - i > 19) return null;
    const secs = BigInt(s.slice(i, d));
    const ns = secs * 1_000_000_000n + BigInt(s.slice(d + 1, f).padEnd(9, "0"));
    // -v epoch prints seconds since 1970 (10 digits today); -v monotonic seconds since boot.
    if (secs >= 1_000_000_000n) return { end: f, clock: "epoch", wall: s.slice(i, f), mono: null };
    return { end: f, clock: "monotonic", wall: null, mono: ns };
  }
  if (s[d] !== "-" || (d - i !== 2 && d - i !== 4)) return null;
  let j = d + 1;
  if (d - i === 4) {
    if (digitsEnd(s, j) !== j + 2 || s[j + 2] !== "-") return null;
    j += 3;
  }
  // MM-DD HH:MM:SS.
  if (digitsEnd(s, j) !== j + 2 || s[j + 2] !== " ") return null;
  j += 3;
  for (const sep of [":", ":", "."]) {
    if (digitsEnd(s, j) !== j + 2 || s[j + 2] !== sep) return null;
    j += 3;
  }
  const f = digitsEnd(s, j);
  if (![3, 6, 9].includes(f - j)) return null;
  let end = f;
  // -v zone: " +0100"
  if (s[f] === " " && (s[f + 1] === "+" || s[f + 1] === "-") && digitsEnd(s, f + 2) === f + 6) end = f + 6;
  return { end, clock: d - i === 4 ? "year" : "date", wall: s.slice(i, end), mono: null };
}

type Body = Omit<LogLine, "mono_ns" | "wall"> & { layout: LogcatLayout };

/** `(uid:  pid)` or `(  pid)` ending at `close` (the index of ")"); looks back a bounded distance. */
function pidInParens(s: string, close: number, from: number): { pid: number; uid: string | null } | null {
  let k = close - 1;
  const stop = Math.max(from, close - 40);
  const dEnd = k + 1;
  while (k >= stop && isDigit(s.charCodeAt(k))) k--;
  if (k + 1 === dEnd) return null;
  const pid = Number(s.slice(k + 1, dEnd));
  while (k >= stop && s[k] === " ") k--;
  if (s[k] === "(") return { pid, uid: null };
  if (s[k] !== ":") return null;
  const uEnd = k;
  k--;
  while (k >= stop && s[k] !== "(" && s[k] !== " ") k--;
  while (k >= stop && s[k] === " ") k--;
  if (s[k] !== "(") return null;
  return { pid, uid: s.slice(k + 1, uEnd).trim() };
}

/** Index of the first ": " (or a final ":") at or after i, or -1. */
function colonSep(s: string, i: number): number {
  for (let k = s.indexOf(":", i); k >= 0; k = s.indexOf(":", k + 1))
    if (k + 1 === s.length || s[k + 1] === " ") return k;
  return -1;
}
const after = (s: string, colon: number) => s.slice(s[colon + 1] === " " ? colon + 2 : colon + 1);

/** brief `L/tag(  pid): msg` (also the body of -v time) or -v tag `L/tag: msg`. */
function slashBody(s: string, i: number): Body | null {
  if (!isLevel(s, i) || s[i + 1] !== "/") return null;
  const level = s[i]!;
  // brief: the first "):" (followed by a space or the end) closes "(  pid)" or "(uid:  pid)".
  let close = s.indexOf("):", i + 2);
  while (close >= 0 && close + 2 < s.length && s[close + 2] !== " ") close = s.indexOf("):", close + 1);
  const p = close >= 0 ? pidInParens(s, close, i + 2) : null;
  if (p) {
    const open = s.lastIndexOf("(", close);
    return {
      layout: "brief",
      pid: p.pid,
      tid: null,
      uid: p.uid,
      level,
      tag: s.slice(i + 2, open).trimEnd(),
      message: after(s, close + 1),
    };
  }
  const colon = colonSep(s, i + 2);
  if (colon < 0) return null;
  return {
    layout: "tag",
    pid: -1,
    tid: null,
    uid: null,
    level,
    tag: s.slice(i + 2, colon).trimEnd(),
    message: after(s, colon),
  };
}

/** -v process `L(  pid) msg  (tag)` and -v thread `L(  pid:  tid) msg`. */
function parenBody(s: string, i: number): Body | null {
  if (!isLevel(s, i) || s[i + 1] !== "(") return null;
  const close = s.indexOf(")", i + 2);
  if (close < 0 || close - i > 40) return null;
  const inner = s
    .slice(i + 2, close)
    .trim()
    .split(/ *: */);
  if (!inner.every((t) => /^[\w]+$/.test(t)) || inner.length > 3) return null;
  const nums = inner.map(Number);
  if (s[close + 1] !== " " && close + 1 !== s.length) return null;
  const rest = s.slice(close + 2);
  const level = s[i]!;
  // "(uid:  pid)" and "(pid:  tid)" look alike: a trailing "  (tag)" makes it -v process.
  if (rest.endsWith(")")) {
    const open = rest.lastIndexOf("  (");
    if (open >= 0 && Number.isInteger(nums[nums.length - 1]) && inner.length <= 2)
      return {
        layout: "process",
        pid: nums[nums.length - 1]!,
        tid: null,
        uid: inner.length === 2 ? inner[0]! : null,
        level,
        tag: rest.slice(open + 3, -1),
        message: rest.slice(0, open),
      };
  }
  const [pid, tid] = nums.slice(-2);
  if (inner.length < 2 || !Number.isInteger(pid) || !Number.isInteger(tid)) return null;
  return {
    layout: "thread",
    pid: pid!,
    tid: tid!,
    uid: inner.length === 3 ? inner[0]! : null,
    level,
    tag: "",
    message: rest,
  };
}

/** threadtime after the time: `[uid] pid tid L tag: msg`. */
function threadtimeBody(s: string, i: number): Body | null {
  const tokens: string[] = [];
  let k = i;
  while (tokens.length < 3) {
    const e = tokenEnd(s, k);
    if (e === k) return null;
    const t = s.slice(k, e);
    if (t.length === 1 && isLevel(t, 0) && tokens.length >= 2) {
      const colon = colonSep(s, e + 1);
      if (s[e] !== " " || colon < 0) return null;
      const [pid, tid] = tokens;
      if (!/^\d+$/.test(pid!) || !/^\d+$/.test(tid!)) return null;
      return {
        layout: "threadtime",
        pid: Number(pid),
        tid: Number(tid),
        uid: null,
        level: t,
        tag: s.slice(e + 1, colon).trimEnd(),
        message: after(s, colon),
      };
    }
    tokens.push(t);
    k = spacesEnd(s, e);
  }
  // the fourth token must be the level
  const e = tokenEnd(s, k);
  if (e !== k + 1 || !isLevel(s, k)) return null;
  const [uid, pid, tid] = tokens;
  const colon = colonSep(s, e + 1);
  if (!/^\d+$/.test(pid!) || !/^\d+$/.test(tid!) || colon < 0) return null;
  return {
    layout: "threadtime",
    pid: Number(pid),
    tid: Number(tid),
    uid: uid!,
    level: s[k]!,
    tag: s.slice(e + 1, colon).trimEnd(),
    message: after(s, colon),
  };
}

/** Android Studio: `pid-tid/package L/tag: msg` or `pid-tid  tag  package  L  msg`. */
function studioBody(s: string, i: number): Body | null {
  const p = digitsEnd(s, i);
  if (p === i || s[p] !== "-") return null;
  const t = digitsEnd(s, p + 1);
  if (t === p + 1) return null;
  const pid = Number(s.slice(i, p));
  const tid = Number(s.slice(p + 1, t));
  if (s[t] === "/") {
    const pkgEnd = tokenEnd(s, t + 1);
    const b = slashBody(s, pkgEnd + 1);
    if (!b || b.layout !== "tag") return null;
    return { ...b, layout: "studio-legacy", pid, tid };
  }
  if (s[t] !== " ") return null;
  const tokens: string[] = [];
  let k = spacesEnd(s, t);
  while (k < s.length && tokens.length < 8) {
    const e = tokenEnd(s, k);
    if (e === k + 1 && isLevel(s, k) && tokens.length >= 1 && (e === s.length || s[e] === " ")) {
      const tag = tokens.length >= 2 ? tokens.slice(0, -1).join(" ") : tokens[0]!;
      return { layout: "studio", pid, tid, uid: null, level: s[k]!, tag, message: s.slice(spacesEnd(s, e)) };
    }
    tokens.push(s.slice(k, e));
    k = spacesEnd(s, e);
  }
  return null;
}

/** The header line of -v long: `[ time  pid: tid L/tag     ]`; the message follows on the next lines. */
export function parseLongHeader(s: string): ParsedLine | null {
  return plausible(parseLong(s));
}

function parseLong(s: string): ParsedLine | null {
  if (!s.startsWith("[ ") || !s.trimEnd().endsWith("]")) return null;
  const time = readTime(s, 2);
  if (!time) return null;
  const body = s.slice(time.end, s.trimEnd().length - 1).trim();
  const m = /^(?:(\S+) +)?(\d+): *(\d+) ([VDIWEFSA])\/(.*)$/.exec(body.length < 4096 ? body : "");
  if (!m) return null;
  return {
    layout: "long",
    clock: time.clock,
    line: {
      mono_ns: time.mono,
      wall: time.wall,
      pid: Number(m[2]),
      tid: Number(m[3]),
      uid: m[1] ?? null,
      level: m[4]!,
      tag: m[5]!.trimEnd(),
      message: "",
    },
  };
}

// pid and tid are int32 in the bundle (and in the kernel): a larger number is not a log line's.
const plausible = (p: ParsedLine | null): ParsedLine | null =>
  p && p.line.pid <= 0x7fffffff && (p.line.tid ?? 0) <= 0x7fffffff ? p : null;

/** One line of any single-line layout; null for markers, blank lines and anything unrecognised. */
export function parseLine(raw: string): ParsedLine | null {
  return plausible(parseAnyLine(raw));
}

function parseAnyLine(raw: string): ParsedLine | null {
  const s = raw.charCodeAt(0) === 0x1b ? stripColor(raw) : raw;
  const time = readTime(s, 0);
  if (time) {
    const i = spacesEnd(s, time.end);
    if (i === time.end) return null;
    const body = studioBody(s, i) ?? threadtimeBody(s, i) ?? timeBody(s, i);
    if (!body) return null;
    const { layout, ...rest } = body;
    return { layout, clock: time.clock, line: { ...rest, mono_ns: time.mono, wall: time.wall } };
  }
  const body = slashBody(s, 0) ?? parenBody(s, 0);
  if (!body) return null;
  const { layout, ...rest } = body;
  return { layout, clock: null, line: { ...rest, mono_ns: null, wall: null } };
}

/** -v time: the brief body after a time. */
function timeBody(s: string, i: number): Body | null {
  const b = slashBody(s, i);
  return b && b.layout === "brief" ? { ...b, layout: "time" } : null;
}

// -v color wraps a line in "\x1b[<n>m" ... "\x1b[0m".
function stripColor(s: string): string {
  const m = s.indexOf("m");
  const body = m > 0 && m < 8 ? s.slice(m + 1) : s;
  return body.endsWith("\x1b[0m") ? body.slice(0, -4) : body;
}
