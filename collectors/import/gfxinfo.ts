// Importer for `dumpsys gfxinfo <pkg>` without framestats rows: there are no per-frame timestamps, so no
// frames table; the summary (frames, janky frames, percentiles, histogram) goes into the warnings-free
// `gfxinfo-summary` source record and the caller writes it beside the bundle.
import { parseGfxinfo, type GfxinfoResult } from "../sources/gfxinfo";
import type { TextImport } from "./framestats";

export function detectGfxinfo(text: string): boolean {
  return /\*\* Graphics info for pid \d+ \[/.test(text) && !text.includes("---PROFILEDATA---");
}

export function importGfxinfo(text: string, file: string): TextImport & { summary: GfxinfoResult } {
  const g = parseGfxinfo(text, file);
  const s = g.summaries[0];
  const warnings = [...g.warnings];
  warnings.push(
    s
      ? `${file}: gfxinfo summary only (${s.total_frames ?? "?"} frames, ${s.janky_frames ?? "?"} janky): no per-frame data; collect framestats for a frames table`
      : `${file}: no frame statistics in this dump (Android < 6 prints none)`,
  );
  return {
    context: { app: g.package ?? "unknown", scenario: `import ${file}` },
    tables: {},
    warnings,
    complete: true,
    source: { kind: "gfxinfo", origin: file },
    summary: g,
  };
}
