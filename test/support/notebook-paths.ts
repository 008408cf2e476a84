// Every notebook under notebooks/ (sub-folders too), sorted: what the parity tests run in two hosts each; and
// what must hold of each host's snapshot before two are compared.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { NotebookSnapshot } from "../../workspace/notebook/snapshot";

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

export const NOTEBOOKS = markdownFiles(join(import.meta.dirname, "../../notebooks")).sort();

/** A snapshot's cells that did not run to a value, as "name: status error": a real comparison has none. */
export function unfinishedCells(snapshot: NotebookSnapshot): string[] {
  return snapshot.cells
    .filter((c) => c.status !== "fulfilled")
    .map((c) => `${c.name ?? c.id}: ${c.status} ${c.error ?? ""}`);
}
