// `simpleperf stat` output (AOSP system/extras simpleperf/cmd_stat.cpp), every shape it has printed:
// - 2016-2019: "  count  event   # comment  (N%)" rows, no column header ("(N%)" = runtime / enabled time);
// - 2020-2022: a "# [thread_name pid tid] [cpu] count event_name # ..." header, --per-thread/--per-core columns;
// - 2022-: the same without "(N%)" (one event file per cpu made the percentage meaningless);
// - --csv in each era ("count,event,value,unit,[(N%)]," and "Performance counter statistics,").
// With --interval a report is printed every interval; each ends with "Total test time", seconds since start.

export interface StatThread {
  name: string;
  pid: number;
  tid: number;
}

export interface StatRow {
  /** event name as printed, modifier included (cpu-cycles:u) */
  counter: string;
  /** raw count as printed (never scaled); task-clock and cpu-clock in ns; null for "<not counted>" */
  count: bigint | null;
  /** false when the event never ran on the PMU: "(0%)", "<not counted>", or (2022-) a zero count with no comment */
  counted: boolean;
  cpu: number | null;
  thread: StatThread | null;
  /** "1.612904 GHz", "" when simpleperf printed none (CSV's "value,unit" is joined with a space) */
  comment: string;
  /** "(N%)" of 2016-2022 output: time running / time enabled (with --per-core: this core's share) */
  runtimePct: number | null;
  /** an ":u" + ":k" sum simpleperf added itself ("(generated)") */
  generated: boolean;
  line: number;
}

export interface StatReport {
  /** line of "Performance counter statistics" */
  line: number;
  csv: boolean;
  /** "Total test time": from the start of counting to this report, ns (µs precision); estimated when cutOff */
  elapsedNs: bigint;
  /** the output ends (or a new report begins) before this report's "Total test time": rows kept, time estimated */
  cutOff: boolean;
  rows: StatRow[];
}

export interface SimpleperfStat {
  reports: StatReport[];
  perCore: boolean;
  perThread: boolean;
  /** simpleperf's own log lines ("simpleperf W cmd_stat.cpp:946] ..."), continuation lines joined */
  messages: { line: number; level: string; text: string }[];
  /** events simpleperf refused ("Unknown event_type", "is not supported on the device") */
  unsupported: string[];
  /** harmless oddities: text outside any report, a report cut off before "Total test time" */
  warnings: string[];
  /** lines inside a report that are not a row: `<file> line N: why: "content"`; parsing goes on after them */
  errors: string[];
}

const REPORT_START = /^Performance counter statistics([:,])\s*$/;
const TOTAL_TEXT = /^Total test time:\s*(\d+(?:\.\d+)?)\s*seconds\.?\s*$/;
const TOTAL_CSV = /^Total test time,(\d+(?:\.\d+)?),seconds,?\s*$/;
const LOG_LINE = /^simpleperf ([VDIWEF]) (.*)$/;
const LOG_SOURCE = /^.*?\b[\w-]+\.(?:cpp|cc|h):\d+\]\s?/;
const VERBOSE_TEXT = /^\s*\S+\(tid -?\d+, cpu -?\d+\): count /;
const VERBOSE_CSV = /^[^,]+,tid,-?\d+,cpu,-?\d+,count,/;
const NOT_COUNTED = /<not (?:counted|supported)>/;
const PCT = /\((\d+(?:\.\d+)?)%\)\s*$/;
const GENERATED = /\(generated\),?\s*$/;
const EVENT_NAME = /^[A-Za-z_][^\s,#]*$/;
const MAX_ERRORS = 50;

/** A count as printed: 1,234,567 / 1234567 / 25.274251(ms) (ns / 1e6 with %lf); undefined if it is none. */
export function parseStatCount(text: string): bigint | undefined {
  if (/^\d+$/.test(text)) return BigInt(text);
  if (/^\d{1,3}(?:,\d{3})+$/.test(text)) return BigInt(text.replaceAll(",", ""));
  const ms = /^(\d+)(?:\.(\d+))?\(ms\)$/.exec(text);
  if (ms) return decimalToScaled(ms[1]!, ms[2] ?? "", 6);
  return undefined;
}

/** "10.027923" seconds to ns, exactly (decimal digits, not a float). */
export function secondsToNs(text: string): bigint {
  const [int, frac = ""] = text.split(".");
  return decimalToScaled(int!, frac, 9);
}

function decimalToScaled(int: string, frac: string, digits: number): bigint {
  const kept = frac.padEnd(digits, "0").slice(0, digits);
  const roundUp = frac.length > digits && frac.charCodeAt(digits) >= 53; // '5'
  return BigInt(int) * 10n ** BigInt(digits) + BigInt(kept) + (roundUp ? 1n : 0n);
}

/** True when the text holds at least one simpleperf stat report (for `jankbook import`). */
export function looksLikeSimpleperfStat(text: string): boolean {
  return (
    // A cut-off output has no "Total test time" line; the report heading alone is distinctive.
    /^Performance counter statistics[:,]\s*$/m.test(text.slice(0, 65536))
  );
}

interface Layout {
  thread: boolean;
  cpu: boolean;
}

export function parseSimpleperfStat(text: string, file = "simpleperf stat"): SimpleperfStat {
  const out: SimpleperfStat = {
    reports: [],
    perCore: false,
    perThread: false,
    messages: [],
    unsupported: [],
    warnings: [],
    errors: [],
  };
  const lines = text.split("\n"); // "\r" goes with trimEnd
  let report: (Omit<StatReport, "elapsedNs" | "cutOff"> & { layout: Layout | null }) | null = null;
  let lastMessage: SimpleperfStat["messages"][number] | null = null;
  let errorCount = 0;
  let strayCount = 0;
  const error = (i: number, why: string, line: string) => {
    if (errorCount++ < MAX_ERRORS) out.errors.push(`${file} line ${i + 1}: ${why}: "${line.slice(0, 120)}"`);
  };
  // A report without its "Total test time" keeps every row it printed; its time is one interval after the
  // report before (the interval from the two before that, or from the start), or 0 when it is the first.
  const closeCutOff = (at: number) => {
    if (!report) return;
    if (!report.rows.length) {
      out.warnings.push(
        `${file} line ${at}: the report begun at line ${report.line} has no "Total test time" line (output cut off) and no rows`,
      );
      report = null;
      return;
    }
    const r = out.reports;
    const prev = r.at(-1)?.elapsedNs;
    const step = r.length >= 2 ? r.at(-1)!.elapsedNs - r.at(-2)!.elapsedNs : (prev ?? 0n);
    const elapsedNs = prev === undefined ? 0n : prev + step;
    const { layout: _layout, ...done } = report;
    out.reports.push({ ...done, elapsedNs, cutOff: true });
    out.warnings.push(
      `${file} line ${at}: the report begun at line ${report.line} has no "Total test time" line (output cut off); ` +
        `its ${report.rows.length} rows are kept, at an estimated ${prev === undefined ? "0 s (no report before it gives a time)" : `${Number(elapsedNs) / 1e9} s`}`,
    );
    report = null;
  };
  // The file's last line with no newline after it may be cut mid-number: a row there is not trusted.
  const lastCut = text.endsWith("\n") ? -1 : lines.length - 1;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line.trim() === "") {
      lastMessage = null;
      continue;
    }
    const c0 = line.charCodeAt(0);
    const start = c0 === 80 /* P */ ? REPORT_START.exec(line) : null;
    if (start) {
      closeCutOff(i + 1);
      report = { line: i + 1, csv: start[1] === ",", rows: [], layout: null };
      lastMessage = null;
      continue;
    }
    const total = c0 === 84 /* T */ ? (TOTAL_TEXT.exec(line) ?? TOTAL_CSV.exec(line)) : null;
    if (total) {
      if (!report) error(i, "a Total test time line without a report before it", line);
      else {
        const { layout: _layout, ...done } = report;
        out.reports.push({ ...done, elapsedNs: secondsToNs(total[1]!), cutOff: false });
      }
      report = null;
      lastMessage = null;
      continue;
    }
    const log = c0 === 115 /* s */ ? LOG_LINE.exec(line) : null;
    if (log) {
      lastMessage = { line: i + 1, level: log[1]!, text: log[2]!.replace(LOG_SOURCE, "") };
      out.messages.push(lastMessage);
      const refused = /Unknown event_type '([^']+)'|Event type '([^']+)' is not supported/.exec(line);
      if (refused) out.unsupported.push((refused[1] ?? refused[2])!);
      continue;
    }
    if (line.includes("tid") && (VERBOSE_TEXT.test(line) || VERBOSE_CSV.test(line))) continue; // --verbose per-fd counts; the summary rows follow
    if (report && line.startsWith("#")) {
      report.layout = headerLayout(line) ?? report.layout;
      continue;
    }
    const row = report ? (report.csv ? csvRow(line, report.layout) : textRow(line, report.layout)) : null;
    if (row && i === lastCut) {
      out.warnings.push(
        `${file} line ${i + 1}: the file ends inside this row (no newline after it), left out: "${line.slice(0, 80)}"`,
      );
      continue;
    }
    if (row && typeof row !== "string") {
      row.line = i + 1;
      report!.rows.push(row);
      if (row.cpu !== null) out.perCore = true;
      if (row.thread !== null) out.perThread = true;
      lastMessage = null;
      continue;
    }
    if (lastMessage) {
      lastMessage.text += " " + line.trim(); // LOG(WARNING) << "...\n..." continues without the prefix
      continue;
    }
    if (report) error(i, row ?? "not a counter row", line);
    else if (strayCount++ < 10)
      out.warnings.push(`${file} line ${i + 1}: outside any report, ignored: "${line.slice(0, 80)}"`);
  }
  closeCutOff(lines.length);
  if (errorCount > MAX_ERRORS) out.errors.push(`${file}: ${errorCount - MAX_ERRORS} more bad lines`);
  if (strayCount > 10) out.warnings.push(`${file}: ${strayCount - 10} more lines outside any report ignored`);
  return out;
}

/** "# thread_name  pid  tid  cpu  count  event_name  # count / runtime": which columns come before count. */
function headerLayout(line: string): Layout | null {
  const titles = line.replace(/^#\s*/, "").split(/\s+#/)[0]!.split(/\s+/);
  if (!titles.includes("count") || !titles.includes("event_name")) return null;
  return { thread: titles.includes("thread_name"), cpu: titles.includes("cpu") };
}

type Parsed = StatRow | string;

/** "  [thread pid tid] [cpu] count  event   # comment  [(N%)] [(generated)]". */
function textRow(line: string, layout: Layout | null): Parsed | null {
  const hash = lastHash(line);
  if (hash < 0) return null;
  let left = line.slice(0, hash);
  let right = line.slice(hash + 1).trim();
  const notCounted = left.includes("<") && NOT_COUNTED.test(left);
  if (notCounted) left = left.replace(NOT_COUNTED, "\u0000");
  const tokens = left.trim().split(/\s+/);
  if (tokens.length < 2) return null;
  const counter = tokens.pop()!;
  const countText = tokens.pop()!;
  if (!EVENT_NAME.test(counter)) return `"${counter}" is not an event name`;
  const count = notCounted ? null : parseStatCount(countText);
  if (count === undefined) return `"${countText}" is not a count`;
  const prefix = readPrefix(tokens, layout);
  if (typeof prefix === "string") return prefix;
  const generated = right.endsWith(")") && GENERATED.test(right);
  if (generated) right = right.replace(GENERATED, "").trim();
  const pct = right.endsWith(")") ? PCT.exec(right) : null;
  if (pct) right = right.replace(PCT, "").trim();
  return makeRow(counter, count, prefix, right, pct ? Number(pct[1]) : null, generated);
}

/** Index of the '#' that opens the comment: the last one standing alone (thread names may hold '#'). */
function lastHash(line: string): number {
  for (let i = line.length - 1; i > 0; i--)
    if (line[i] === "#" && /\s/.test(line[i - 1]!) && (i + 1 === line.length || /\s/.test(line[i + 1]!)))
      return i;
  return -1;
}

const int = (t: string | undefined) => (t !== undefined && /^-?\d+$/.test(t) ? Number(t) : null);

function readPrefix(
  tokens: string[],
  layout: Layout | null,
): { cpu: number | null; thread: StatThread | null } | string {
  const wantCpu = layout ? layout.cpu : tokens.length === 1;
  const wantThread = layout ? layout.thread : false;
  let cpu: number | null = null;
  let thread: StatThread | null = null;
  if (wantCpu) {
    cpu = int(tokens.pop());
    if (cpu === null) return "expected a cpu number before the count";
  }
  if (wantThread) {
    const tid = int(tokens.pop());
    const pid = int(tokens.pop());
    if (tid === null || pid === null) return "expected thread_name pid tid before the count";
    thread = { name: tokens.join(" "), pid, tid };
    tokens.length = 0;
  }
  if (tokens.length) return `unexpected "${tokens.join(" ")}" before the count`;
  return { cpu, thread };
}

/** "[thread,pid,tid,][cpu,]count,event,[value,unit],[(N%)][ (generated)]," (comma-separated comment). */
function csvRow(line: string, layout: Layout | null): Parsed | null {
  const fields = line.split(",");
  if (fields[fields.length - 1]!.trim() === "") fields.pop();
  const countAt = (j: number) =>
    NOT_COUNTED.test(fields[j]!) || parseStatCount(fields[j]!.trim()) !== undefined;
  let name = -1;
  for (let j = 1; j < fields.length && name < 0; j++)
    if (EVENT_NAME.test(fields[j]!) && parseStatCount(fields[j]!) === undefined && countAt(j - 1)) name = j;
  if (name < 0) return fields.length >= 2 ? "no count,event_name pair" : null;
  const countText = fields[name - 1]!.trim();
  const count = NOT_COUNTED.test(countText) ? null : parseStatCount(countText)!;
  const before = fields.slice(0, name - 1);
  let prefix: { cpu: number | null; thread: StatThread | null } | string;
  if (before.length === 0) prefix = { cpu: null, thread: null };
  else if (before.length === 1) prefix = readPrefix(before, { cpu: true, thread: false });
  else {
    // CSV has no header; a thread name with commas is rejoined (cpu present if the layout says so or 4 fields).
    const cpu = layout ? layout.cpu : before.length === 4;
    const tail = before.splice(before.length - (cpu ? 3 : 2));
    prefix = readPrefix([before.join(","), ...tail], { cpu, thread: true });
    if (typeof prefix !== "string" && prefix.thread) prefix.thread.name = before.join(",");
  }
  if (typeof prefix === "string") return prefix;
  const rest = fields.slice(name + 1);
  let generated = false;
  let pct: number | null = null;
  const lastField = rest[rest.length - 1]?.trim() ?? "";
  const old = /^\((\d+(?:\.\d+)?)%\)( \(generated\))?$/.exec(lastField);
  if (old) {
    rest.pop();
    pct = Number(old[1]);
    generated = old[2] !== undefined;
  } else if (lastField === "(generated)") {
    rest.pop();
    generated = true;
  }
  // simpleperf separates a comment's value and unit with ',' in CSV (sap_mid) and ' ' in text.
  const comment = rest.join(",").replace(",", " ").trim();
  return makeRow(fields[name]!, count, prefix, comment, pct, generated);
}

function makeRow(
  counter: string,
  count: bigint | null,
  prefix: { cpu: number | null; thread: StatThread | null },
  comment: string,
  runtimePct: number | null,
  generated: boolean,
): StatRow {
  // A zero count with no comment means no runtime (cmd_stat.cpp GetCommentForSummary); cpu-clock never has one.
  const silent = runtimePct === null && comment === "" && count === 0n && !/^cpu-clock(:|$)/.test(counter);
  const counted = count !== null && runtimePct !== 0 && !silent;
  return {
    counter,
    count,
    counted,
    cpu: prefix.cpu,
    thread: prefix.thread,
    comment,
    runtimePct,
    generated,
    line: 0,
  };
}
