// Frames whose times are impossible or unfinished carry a reason in frames.suspect (set on import); analyses
// leave them out by default and say how many, so they are never silently mixed in (bundle/schema.ts, frames).
import type { Table } from "apache-arrow";
import { checkColumns, utf8 } from "../../bundle/read-columns";

/** SQL condition that keeps plausible frames, for notebooks and the workspace: `... FROM frames WHERE ${x}`. */
export const PLAUSIBLE_FRAMES_SQL = "suspect IS NULL";

/** 1 where the row's `suspect` is set, else 0; null when the table has no `suspect` column (nothing flagged). */
export function suspectRows(table: Table): Uint8Array | null {
  if (!table.schema.fields.some((f) => f.name === "suspect")) return null;
  checkColumns(table, "frames", { suspect: utf8() });
  const v = table.getChild("suspect")!;
  const out = new Uint8Array(table.numRows);
  if (v.nullCount === table.numRows) return out;
  for (let i = 0; i < table.numRows; i++) if (v.isValid(i)) out[i] = 1;
  return out;
}
