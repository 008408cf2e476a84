// Importer for saved `dumpsys gfxinfo <pkg> framestats` text: the frames table plus the dump's own summaries
// (gfxinfo_summaries, gfxinfo_histogram). A file of several dumps (a saved polling session) keeps each frame once;
// one dump keeps every row. Suspect rows are kept, flagged in frames.suspect and counted in the warnings.
import type { Table } from "apache-arrow";
import type { RunContext } from "../../bundle/manifest";
import type { TableName } from "../../bundle/schema";
import { framesTable, FrameDeduper } from "../bundle-tables";
import { parseFramestats } from "../sources/framestats";
import { parseGfxinfo } from "../sources/gfxinfo";
import { cutInsideLastLine, cutMakesPartial, gfxinfoTables } from "./gfxinfo";

export interface TextImport {
  context: RunContext;
  tables: Partial<Record<TableName, Table>>;
  warnings: string[];
  /** false when the file ended early or held rows that could not be read */
  complete: boolean;
  source: { kind: string; origin: string };
  /** agent lines lost per type (logcat with the agent's lines), for the manifest */
  lost_lines?: Record<string, number>;
}

/** framestats rows, or a framestats dump that failed on the device ("Failure while dumping", "No process found"). */
export function detectFramestats(text: string): boolean {
  if (text.includes("---PROFILEDATA---") && text.includes("IntendedVsync")) return true;
  return (
    /^\s*Failure while dumping the app/m.test(text) ||
    (/^\s*No process found for: /m.test(text) && text.includes("Graphics"))
  );
}

export function importFramestats(text: string, file: string, runId: string): TextImport {
  const r = parseFramestats(text, file);
  const g = parseGfxinfo(text, file);
  const warnings = [...r.warnings, ...g.warnings, ...r.notices];
  if (r.failure) warnings.push(`the dump failed on the device: ${r.failure}`);
  else if (g.truncated) warnings.push(g.truncated);
  const cut = r.failure || g.truncated ? null : cutInsideLastLine(text, file);
  if (cut) warnings.push(cut);
  warnings.push(...g.inconsistent.map((w) => `${w}: figures that cannot all be true`));
  const d = new FrameDeduper();
  const dumps = [...new Set(r.sections.map((s) => s.dump))];
  for (const k of dumps)
    d.add(
      r.sections.filter((s) => s.dump === k).flatMap((s) => s.frames),
      `${file} dump ${k + 1}`,
    );
  warnings.push(...d.warnings);
  if (d.duplicates)
    warnings.push(`${file}: ${dumps.length} dumps overlap; ${d.duplicates} repeated frames kept once`);
  const tables: Partial<Record<TableName, Table>> = gfxinfoTables(runId, g);
  if (d.size) {
    const frames = framesTable(runId, d.frames(), null);
    if (frames.unknownColumns.length)
      warnings.push(`${file}: columns not in the schema, not kept: ${frames.unknownColumns.join(", ")}`);
    if (frames.skipped) warnings.push(`${file}: ${frames.skipped} rows without IntendedVsync left out`);
    tables.frames = frames.table;
  }
  return {
    context: { app: g.package ?? "unknown", scenario: `import ${file}` },
    tables,
    warnings,
    complete:
      r.warnings.length === 0 &&
      g.warnings.length === 0 &&
      !r.failure &&
      !g.truncated &&
      !cutMakesPartial(cut),
    source: { kind: "framestats", origin: file },
  };
}
