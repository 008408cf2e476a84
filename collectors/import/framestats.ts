// Importer for saved `dumpsys gfxinfo <pkg> framestats` text: frames table plus what the summary says.
// Shape: detect + read, ready for issue 6's importer registry (collectors/import/registry.ts).
import type { Table } from "apache-arrow";
import type { RunContext } from "../../bundle/manifest";
import type { TableName } from "../../bundle/schema";
import { framesTable, FrameDeduper } from "../bundle-tables";
import { parseFramestats } from "../sources/framestats";
import { parseGfxinfo } from "../sources/gfxinfo";

export interface TextImport {
  context: RunContext;
  tables: Partial<Record<TableName, Table>>;
  warnings: string[];
  /** false when the file ended early or held rows that could not be read */
  complete: boolean;
  source: { kind: string; origin: string };
}

export function detectFramestats(text: string): boolean {
  return text.includes("---PROFILEDATA---") && /IntendedVsync/.test(text);
}

export function importFramestats(text: string, file: string, runId: string): TextImport {
  const r = parseFramestats(text, file);
  const g = parseGfxinfo(text, file);
  const warnings = [...r.warnings];
  if (r.failure) warnings.push(r.failure);
  // Several dumps concatenated (a saved polling session) overlap: keep each frame once.
  const d = new FrameDeduper();
  d.add(
    r.sections.flatMap((s) => s.frames),
    file,
  );
  const frames = framesTable(runId, d.frames(), null);
  if (frames.unknownColumns.length)
    warnings.push(`${file}: columns not in the schema, not kept: ${frames.unknownColumns.join(", ")}`);
  if (frames.skipped) warnings.push(`${file}: ${frames.skipped} rows without FrameCompleted left out`);
  return {
    context: { app: g.package ?? "unknown", scenario: `import ${file}` },
    tables: frames.table.numRows ? { frames: frames.table } : {},
    warnings,
    complete: r.warnings.length === 0 && !r.failure,
    source: { kind: "framestats", origin: file },
  };
}
