// `dumpsys meminfo <pkg>` (AOSP frameworks/base core/java/android/app/ActivityThread.java dumpMemInfoTable,
// the non-checkin form; ActivityManagerService prints the header and "No process found for: "). Read from
// its own headers, so every release's columns are found by name:
//   Android 4.3:  Pss, Shared Dirty, Private Dirty, Heap Size/Alloc/Free; rows "Native", "Dalvik"
//   Android 4.4:  Pss Total, Private Dirty, Private Clean, Swapped Dirty, Heap ...; rows "Native Heap", ...
//   Android 6:    Pss Total, Private Dirty, Private Clean, Swapped Dirty, Heap Size, Heap Alloc, Heap Free
//   Android 7-9:  ... SwapPss Dirty instead of Swapped Dirty
//   Android 10+:  ... plus Rss Total; the App Summary gains an Rss(KB) column and "TOTAL PSS:/TOTAL RSS:"
// and, since Android 6, the "App Summary" (Java Heap, Native Heap, Code, Stack, Graphics, Private Other,
// System: the figures Android Studio's memory profiler shows). Every figure is in KB; samples hold bytes.

/** One process's figures, bytes by kind (heap_samples.kind). */
export interface MeminfoSample {
  pid: number | null;
  process: string | null;
  /** "Uptime:" (SystemClock.uptimeMillis, CLOCK_MONOTONIC) in ns, null when the header is missing */
  uptime_ns: bigint | null;
  values: Map<string, number>;
  /** 1-based line of the section's "** MEMINFO" header */
  line: number;
}

export interface MeminfoResult {
  samples: MeminfoSample[];
  /** what could not be read, naming file and line; what was read is kept */
  warnings: string[];
  /** the dump itself failed ("No process found for: <pkg>") */
  failure: string | null;
}

/** App Summary labels -> kinds (ActivityThread: "Java Heap:", "Native Heap:", ...). */
const SUMMARY_KINDS: Record<string, string> = {
  "Java Heap": "java_heap",
  "Native Heap": "native_heap",
  Code: "code",
  Stack: "stack",
  Graphics: "graphics",
  "Private Other": "private_other",
  System: "system",
  Unknown: "unknown",
};

/** Main-table rows and columns kept: the heaps' sizes (the summary has only their PSS). Android 4.3 and
 * earlier name the rows "Native"/"Dalvik" and the PSS column "Pss" alone. */
const TABLE_KINDS: [rows: string[], columns: string[], kind: string][] = [
  [["Native Heap", "Native"], ["Heap Size"], "native_heap_size"],
  [["Native Heap", "Native"], ["Heap Alloc"], "native_heap_alloc"],
  [["Dalvik Heap", "Dalvik"], ["Heap Size"], "java_heap_size"],
  [["Dalvik Heap", "Dalvik"], ["Heap Alloc"], "java_heap_alloc"],
  [["TOTAL"], ["Pss Total", "Pss"], "pss_total"],
  [["TOTAL"], ["Rss Total"], "rss_total"],
];

const KB = 1024;
const isCount = (t: string) => /^\d+$/.test(t);
const isDashes = (l: string) => /^[\s-]+$/.test(l) && l.includes("------");

export function parseMeminfo(text: string, file = "meminfo"): MeminfoResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const samples: MeminfoSample[] = [];
  const warnings: string[] = [];
  let failure: string | null = null;
  let uptime: bigint | null = null;
  let cur: MeminfoSample | null = null;
  let table: string[] | null = null;
  let summary: { line: string; segments: [number, number][] } | null = null;
  // dumpsys ends every line with a newline: a last line without one was cut, and its figures may have lost digits
  const cutAt = !text.endsWith("\n") && lines[lines.length - 1]!.trim() !== "" ? lines.length - 1 : -1;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    const where = `${file} line ${i + 1}`;
    if (line.startsWith("No process found for")) failure ??= `${where}: ${line}`;
    if (i === cutAt) {
      warnings.push(
        `${where}: no newline at the end: the dump is cut inside this line; its figures are left out`,
      );
      break;
    }
    if (line.startsWith("Uptime:")) {
      const up = line.split(/\s+/)[1] ?? "";
      if (isCount(up)) uptime = BigInt(up) * 1_000_000n;
      else warnings.push(`${where}: Uptime is not a number ("${up.slice(0, 30)}")`);
      continue;
    }
    const header = /^\*\* MEMINFO in pid (\d+) \[([^\]]*)\] \*\*$/.exec(line);
    if (header) {
      cur = {
        pid: Number(header[1]),
        process: header[2]!,
        uptime_ns: uptime,
        values: new Map(),
        line: i + 1,
      };
      samples.push(cur);
      table = summary = null;
      continue;
    }
    if (!cur) continue;
    if (isDashes(raw)) {
      const above = [lines[i - 2] ?? "", lines[i - 1] ?? ""];
      if (/Pss\(KB\)/.test(above[1]!)) summary = { line: above[1]!, segments: dashSegments(raw) };
      else table = tableColumns(above[0]!, above[1]!);
      continue;
    }
    if (line === "") {
      table = null;
      continue;
    }
    if (line === "App Summary" || line === "Objects" || line === "SQL" || line === "Dalvik Details") {
      table = null;
      if (line !== "App Summary") summary = null;
      continue;
    }
    if (line.startsWith("TOTAL") && line.includes(":")) {
      readTotals(line, cur.values);
      summary = null;
      continue;
    }
    if (summary) {
      readSummaryRow(raw, summary.segments, cur.values, where, warnings);
      continue;
    }
    if (table) readTableRow(line, table, cur.values, where, warnings);
  }
  for (const s of samples)
    if (!s.values.has("pss_total"))
      warnings.push(
        `${file} line ${s.line}: pid ${s.pid} has no TOTAL (the dump is cut short?); kept ${s.values.size} figures`,
      );
  if (!samples.length && !failure)
    warnings.push(`${file}: no "** MEMINFO in pid" section (not dumpsys meminfo <package> output?)`);
  return { samples, warnings, failure };
}

/** [start, end) of each maximal run of characters that `inside` accepts. */
function runs(line: string, inside: (ch: string) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < line.length;) {
    if (!inside(line[k]!)) {
      k++;
      continue;
    }
    const start = k;
    while (k < line.length && inside(line[k]!)) k++;
    out.push([start, k]);
  }
  return out;
}

const notBlank = (ch: string) => ch !== " " && ch !== "\t";

/** Words of a line with the index just past each. */
function words(line: string): { word: string; end: number }[] {
  return runs(line, notBlank).map(([start, end]) => ({ word: line.slice(start, end), end }));
}

/** Column names from the two header lines, right-aligned like the figures: "Pss" over "Total" is "Pss
 * Total"; a column with nothing above it (Android 4.3's "Pss") keeps its one word. */
function tableColumns(top: string, bottom: string): string[] | null {
  const above = words(top);
  const names = words(bottom).map(({ word, end }) => {
    const over = above.find((a) => Math.abs(a.end - end) <= 1);
    return over ? `${over.word} ${word}` : word;
  });
  return names.length ? names : null;
}

function readTableRow(
  line: string,
  columns: string[],
  values: Map<string, number>,
  where: string,
  warnings: string[],
) {
  const tokens = line.split(/\s+/);
  const first = tokens.findIndex(isCount);
  if (first <= 0) return;
  const label = tokens.slice(0, first).join(" ");
  const counts = tokens.slice(first);
  if (!counts.every(isCount) || counts.length > columns.length) {
    warnings.push(`${where}: row "${label}" does not fit the table's ${columns.length} columns`);
    return;
  }
  for (const [rows, names, kind] of TABLE_KINDS) {
    if (!rows.includes(label)) continue;
    const k = columns.findIndex((c) => names.includes(c));
    if (k >= 0 && k < counts.length) values.set(kind, Number(counts[k]) * KB);
  }
}

/** Column spans of the "------" marks under "Pss(KB)" and "Rss(KB)". */
function dashSegments(line: string): [number, number][] {
  return runs(line, (ch) => ch === "-");
}

/** "           Java Heap:    15316                          40844": numbers placed by column (Rss is the second). */
function readSummaryRow(
  raw: string,
  segments: [number, number][],
  values: Map<string, number>,
  where: string,
  warnings: string[],
) {
  const colon = raw.indexOf(":");
  if (colon < 0) return;
  const label = raw.slice(0, colon).trim();
  const kind = SUMMARY_KINDS[label];
  if (!kind) return;
  const rest = raw.slice(colon + 1);
  for (const [start, stop] of runs(rest, notBlank)) {
    const token = rest.slice(start, stop);
    if (!isCount(token)) {
      warnings.push(`${where}: ${label} is not a number ("${token.slice(0, 30)}")`);
      return;
    }
    // right-aligned under its dashes: the column whose span holds the number's last digit, else the nearest
    const end = colon + 1 + stop;
    let column = 0;
    let best = Infinity;
    segments.forEach(([a, b], s) => {
      const d = end <= a ? a - end : end > b ? end - b : 0;
      if (d < best) [best, column] = [d, s];
    });
    values.set(column === 0 ? kind : `${kind}_rss`, Number(token) * KB);
  }
}

/** "TOTAL:  66534   TOTAL SWAP PSS: 0" or "TOTAL PSS: 96932   TOTAL RSS: 182691   TOTAL SWAP (KB): 0";
 * swap_total is the swap PSS where the device prints one, else the swapped KB. */
function readTotals(line: string, values: Map<string, number>) {
  const parts = line.split(":");
  for (let k = 0; k + 1 < parts.length; k++) {
    const label = parts[k]!.replace(/^\s*\d+\s*/, "").trim();
    const n = parts[k + 1]!.trim().split(/\s+/)[0] ?? "";
    if (!isCount(n)) continue;
    const kind =
      label === "TOTAL" || label === "TOTAL PSS"
        ? "pss_total"
        : label === "TOTAL RSS"
          ? "rss_total"
          : label.startsWith("TOTAL SWAP")
            ? "swap_total"
            : null;
    if (kind) values.set(kind, Number(n) * KB);
  }
}
