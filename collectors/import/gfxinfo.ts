// Importer for `dumpsys gfxinfo <pkg>` without framestats rows (Android 4.3 to 16, phones and TV, one process or
// every process, or a bare excerpt starting at `Stats since:`): no per-frame timestamps, so no frames table; the
// summaries go into `gfxinfo_summaries` and their HISTOGRAM / GPU HISTOGRAM lines into `gfxinfo_histogram`.
import type { Table } from "apache-arrow";
import type { TableName } from "../../bundle/schema";
import { bundleTableFromRows, makeBundleTable } from "../../bundle/table-builder";
import { parseGfxinfo, type GfxinfoResult } from "../sources/gfxinfo";
import type { TextImport } from "./framestats";

/** A gfxinfo dump, or an excerpt of one that starts at (or holds) a summary. */
export function detectGfxinfo(text: string): boolean {
  if (text.includes("---PROFILEDATA---")) return false;
  if (/\*\* Graphics info for pid \d+ \[/.test(text)) return true;
  return /^\s*Stats since: \d+ns\s*$/m.test(text) || /^\s*Total frames rendered: \d+\s*$/m.test(text);
}

/** gfxinfo_summaries and gfxinfo_histogram rows for every summary of the dump; empty tables are left out. */
export function gfxinfoTables(runId: string, g: GfxinfoResult): Partial<Record<TableName, Table>> {
  const out: Partial<Record<TableName, Table>> = {};
  const s = g.summaries;
  if (!s.length) return out;
  const num = (v: number | null | undefined) => (v === undefined ? null : v);
  const percentile = (key: "percentiles" | "gpu_percentiles", p: number) => (x: (typeof s)[number]) =>
    num(x[key][p]);
  const count = (key: keyof (typeof s)[number]["counts"]) => (x: (typeof s)[number]) => num(x.counts[key]);
  out.gfxinfo_summaries = bundleTableFromRows("gfxinfo_summaries", runId, s, {
    stats_since: (x) => x.stats_since_ns,
    p50_ms: percentile("percentiles", 50),
    p90_ms: percentile("percentiles", 90),
    p95_ms: percentile("percentiles", 95),
    p99_ms: percentile("percentiles", 99),
    gpu_p50_ms: percentile("gpu_percentiles", 50),
    gpu_p90_ms: percentile("gpu_percentiles", 90),
    gpu_p95_ms: percentile("gpu_percentiles", 95),
    gpu_p99_ms: percentile("gpu_percentiles", 99),
    missed_vsync: count("missed_vsync"),
    high_input_latency: count("high_input_latency"),
    slow_ui_thread: count("slow_ui_thread"),
    slow_bitmap_uploads: count("slow_bitmap_uploads"),
    slow_issue_draw_commands: (x) => num(x.counts.slow_issue_draw_commands ?? x.counts.slow_draw),
    frame_deadline_missed: count("frame_deadline_missed"),
  });
  const rows = s.flatMap((x) => [
    ...x.histogram.map((b) => ({ x, kind: "frame", b })),
    ...x.gpu_histogram.map((b) => ({ x, kind: "gpu", b })),
  ]);
  if (rows.length)
    out.gfxinfo_histogram = makeBundleTable(
      "gfxinfo_histogram",
      runId,
      {
        pid: rows.map((r) => r.x.pid),
        window: rows.map((r) => r.x.window),
        kind: rows.map((r) => r.kind),
        bucket_ms: rows.map((r) => r.b.ms),
        count: rows.map((r) => r.b.count),
      },
      rows.length,
    );
  return out;
}

/** dumpsys ends every line with a newline: a saved dump ending without one was cut inside its last line. */
export function cutInsideLastLine(text: string, file: string): string | null {
  if (/[\r\n]$/.test(text)) return null;
  const lines = text.split(/\r\n|\n|\r/);
  const last = lines[lines.length - 1]!.trim();
  // blank, or the fixed ---PROFILEDATA--- marker (hwui FrameInfoVisualizer.cpp dumpData): whole, nothing lost
  if (/^(---PROFILEDATA---)?$/.test(last)) return null;
  if (lastRowWhole(last))
    return `${file} line ${lines.length}: no newline at the end; the line reads as a whole line of the dump`;
  return `${file} line ${lines.length}: no newline at the end: the file was cut inside this line`;
}

/** A framestats row prints a comma after every field (hwui FrameInfoVisualizer.cpp dumpData), and the RenderNode
 * memory line ends in "(capacity)" after its last figure: a last line ending so lost nothing. */
function lastRowWhole(line: string): boolean {
  return /^\d+(,-?\d+)+,$/.test(line) || /\d kB \(used\) \/ \d+(\.\d+)? kB \(capacity\)$/.test(line);
}

/** Does a cut-line warning (cutInsideLastLine) make the import partial? */
export function cutMakesPartial(warning: string | null): boolean {
  return warning !== null && !warning.includes("reads as a whole");
}

export function importGfxinfo(text: string, file: string, runId = `import-${file}`): TextImport {
  const g = parseGfxinfo(text, file);
  const warnings = [...g.warnings];
  if (g.truncated) warnings.push(g.truncated);
  const cut = g.truncated ? null : cutInsideLastLine(text, file);
  if (cut) warnings.push(cut);
  warnings.push(...g.inconsistent.map((w) => `${w}: figures that cannot all be true`));
  const proc = g.summaries.find((s) => s.window === null) ?? g.summaries[0];
  if (!g.summaries.length)
    warnings.push(`${file}: no frame statistics in this dump (Android before 6 prints none)`);
  else
    warnings.push(
      `${file}: gfxinfo summaries only (${g.summaries.length}; ${proc!.total_frames ?? "?"} frames, ` +
        `${proc!.janky_frames ?? "?"} janky): no per-frame data; collect framestats for a frames table`,
    );
  return {
    context: { app: g.package ?? "unknown", scenario: `import ${file}` },
    tables: gfxinfoTables(runId, g),
    warnings,
    complete: g.warnings.length === 0 && !g.truncated && !cutMakesPartial(cut),
    source: { kind: "gfxinfo", origin: file },
  };
}
