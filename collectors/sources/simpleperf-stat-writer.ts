// Prints `simpleperf stat` reports the way each era of AOSP simpleperf/cmd_stat.cpp does (ShowText/ShowCSV,
// GetCommentForSummary): the simulated phone answers with it and the parser tests round-trip through it.
import type { StatThread } from "./simpleperf-stat";

/** "2018": no header, "(N%)"; "2020": header and "(N%)"; "current": header, no "(N%)"; csv likewise. */
export type StatStyle = "2018" | "2020" | "current" | "csv-2018" | "csv";

export interface StatWriteRow {
  counter: string;
  /** task-clock and cpu-clock in ns */
  count: bigint;
  cpu?: number | null;
  thread?: StatThread | null;
  /** time the event was on a counter, ns (default: the report's elapsed time); 0 = not counted */
  runtimeNs?: bigint;
  /** time enabled / time running (default 1), printed as "(N%)" in 2018/2020 styles */
  scale?: number;
  generated?: boolean;
  /** overrides the comment simpleperf would compute */
  comment?: string;
}

export interface StatWriteReport {
  elapsedNs: bigint;
  rows: StatWriteRow[];
}

const RATE_OF: Record<string, string> = {
  "cache-misses": "cache-references",
  "branch-misses": "branch-instructions",
};

/** The comment of cmd_stat.cpp GetCommentForSummary (`sep` is ' ' in text, ',' in CSV). */
export function statComment(row: StatWriteRow, report: StatWriteReport, sep: " " | ","): string {
  const [type, modifier = ""] = row.counter.split(":") as [string, string?];
  const runtime = Number(row.runtimeNs ?? report.elapsedNs);
  const count = Number(row.count);
  const seconds = Number(report.elapsedNs) / 1e9;
  const peer = (name: string) =>
    report.rows.find(
      (r) =>
        r.counter === (modifier ? `${name}:${modifier}` : name) &&
        (r.cpu ?? null) === (row.cpu ?? null) &&
        (r.thread?.tid ?? null) === (row.thread?.tid ?? null),
    );
  if (type === "task-clock") return `${(count / 1e9 / seconds).toFixed(6)}${sep}cpus used`;
  if (type === "cpu-clock") return "";
  if (type === "cpu-cycles") return runtime === 0 ? "" : `${(count / runtime).toFixed(6)}${sep}GHz`;
  if (type === "instructions" && count !== 0) {
    const cycles = peer("cpu-cycles");
    if (cycles) return `${(Number(cycles.count) / count).toFixed(6)}${sep}cycles per instruction`;
  }
  const of = RATE_OF[type] ?? (type.endsWith("-misses") ? `${type.slice(0, -"-misses".length)}s` : null);
  const base = of ? peer(of) : undefined;
  if (base && base.count !== 0n) return `${((count / Number(base.count)) * 100).toFixed(6)}%${sep}miss rate`;
  if (runtime === 0) return "";
  const rate = count / (runtime / 1e9);
  if (rate >= 1e9 - 1e5) return `${(rate / 1e9).toFixed(3)}${sep}G/sec`;
  if (rate >= 1e6 - 1e2) return `${(rate / 1e6).toFixed(3)}${sep}M/sec`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(3)}${sep}K/sec`;
  return `${rate.toFixed(3)}${sep}/sec`;
}

/** A count as simpleperf prints it: clocks as "%lf(ms)", others with thousands separators except in CSV. */
export function formatStatCount(counter: string, count: bigint, csv: boolean): string {
  if (/^(task|cpu)-clock(:|$)/.test(counter)) {
    const ms = count / 1_000_000n;
    const frac = count % 1_000_000n;
    return `${ms}.${frac.toString().padStart(6, "0")}(ms)`;
  }
  const s = count.toString();
  return csv ? s : s.replace(/\B(?=(\d{3})+$)/g, ",");
}

function seconds(ns: bigint): string {
  const us = (ns + 500n) / 1000n;
  return `${us / 1_000_000n}.${(us % 1_000_000n).toString().padStart(6, "0")}`;
}

export function formatStatReport(report: StatWriteReport, style: StatStyle): string {
  const csv = style === "csv" || style === "csv-2018";
  const pctStyle = style === "2018" || style === "2020" || style === "csv-2018";
  const showThread = report.rows.some((r) => r.thread);
  const showCpu = report.rows.some((r) => r.cpu !== undefined && r.cpu !== null);
  const cells = report.rows.map((r) => {
    const comment = r.comment ?? statComment(r, report, csv ? "," : " ");
    const pct = `(${(100 / (r.scale ?? 1)).toFixed(0)}%)`;
    return { r, count: formatStatCount(r.counter, r.count, csv), comment, pct };
  });
  let out = csv ? "Performance counter statistics,\n" : "Performance counter statistics:\n\n";
  if (csv) {
    for (const { r, count, comment, pct } of cells) {
      const prefix =
        (showThread ? `${r.thread!.name},${r.thread!.pid},${r.thread!.tid},` : "") +
        (showCpu ? `${r.cpu},` : "");
      const tail = pctStyle
        ? `${pct}${r.generated ? " (generated)," : ","}`
        : r.generated
          ? "(generated),"
          : "";
      out += `${prefix}${count},${r.counter},${comment},${tail}\n`;
    }
    return out + `Total test time,${seconds(report.elapsedNs)},seconds,\n`;
  }
  const titles = [
    ...(showThread ? ["thread_name", "pid", "tid"] : []),
    ...(showCpu ? ["cpu"] : []),
    "count",
    "event_name",
  ];
  const columns = cells.map(({ r, count }) => [
    ...(showThread ? [r.thread!.name, String(r.thread!.pid), String(r.thread!.tid)] : []),
    ...(showCpu ? [String(r.cpu)] : []),
    count,
    r.counter,
  ]);
  const width = titles.map((t, i) => Math.max(t.length, ...columns.map((c) => c[i]!.length)));
  const commentWidth = Math.max(0, ...cells.map((c) => c.comment.length));
  const countAt = titles.indexOf("count");
  if (style !== "2018") {
    const last = style === "2020" ? " # count / runtime,  runtime / enabled_time" : " # count / runtime";
    out +=
      "# " +
      [...titles.map((t, i) => (i === countAt ? t.padStart(width[i]!) : t.padEnd(width[i]!))), last].join(
        "  ",
      ) +
      "\n";
  }
  for (const [k, { r, comment, pct }] of cells.entries()) {
    const c = columns[k]!;
    let line = "";
    for (let i = 0; i < countAt; i++) line += "  " + c[i]!.padEnd(width[i]!);
    line += `  ${c[countAt]!.padStart(width[countAt]!)}  ${c[countAt + 1]!.padEnd(width[countAt + 1]!)}   # ${comment.padEnd(commentWidth)}`;
    line += pctStyle ? `  ${pct}${r.generated ? " (generated)" : ""}` : r.generated ? " (generated)" : "";
    out += line + "\n";
  }
  return out + `\nTotal test time: ${seconds(report.elapsedNs)} seconds.\n`;
}
