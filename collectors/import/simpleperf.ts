// Importer for saved `simpleperf stat` output (text or --csv, one report or an --interval series): the
// hpc_samples table. The output carries no clock, only seconds since counting began, so ts is that.
import { hpcSamples, hpcSamplesTable } from "../sources/simpleperf-samples";
import { looksLikeSimpleperfStat, parseSimpleperfStat } from "../sources/simpleperf-stat";
import type { TextImport } from "./framestats";

export function detectSimpleperfStat(text: string): boolean {
  return looksLikeSimpleperfStat(text);
}

export function importSimpleperfStat(text: string, file: string, runId: string): TextImport {
  const stat = parseSimpleperfStat(text, file);
  const samples = hpcSamples(stat);
  const warnings = [
    ...stat.errors,
    ...stat.warnings,
    ...stat.messages.map((m) => `${file} line ${m.line}: simpleperf ${m.level}: ${m.text}`),
    ...samples.warnings.map((w) => `${file}: ${w}`),
  ];
  if (samples.ts.length)
    warnings.push(
      `${file}: hpc_samples.ts is ns since simpleperf stat began counting (the output holds no device clock)`,
    );
  const cutOff = stat.warnings.some((w) => /output cut off/.test(w));
  const reports = stat.reports.length;
  // No whole report at all is not a complete import, whatever else the text held.
  if (!reports) warnings.push(`${file}: no simpleperf stat report with counter rows was found`);
  return {
    context: {
      app: "unknown",
      scenario: `import ${file} (simpleperf stat, ${reports} report${reports === 1 ? "" : "s"})`,
    },
    tables: samples.ts.length ? { hpc_samples: hpcSamplesTable(runId, samples) } : {},
    warnings,
    complete: stat.errors.length === 0 && !cutOff && reports > 0,
    source: { kind: "simpleperf-stat", origin: file },
  };
}
