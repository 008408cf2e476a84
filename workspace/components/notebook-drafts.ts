// A notebook's unrun edits, by cell id (ids are content hashes, so a move keeps them; a run gives the cell a new
// id), and the notebook text with them applied: what autosave keeps and Save writes.
import { cells, serializeNotebook, type Cell, type Notebook } from "../notebook/format";

/** Same text, give or take the final newline a cell's source keeps in the file. */
const sameCode = (a: string, b: string) => a.replace(/\r?\n$/, "") === b.replace(/\r?\n$/, "");

export class NotebookDrafts extends Map<string, string> {
  /** Notes the editor's text for `cell`; returns whether the cell started or stopped differing from what ran. */
  edit(cell: Cell, text: string): boolean {
    const was = this.has(cell.id);
    if (sameCode(text, cell.source)) this.delete(cell.id);
    else this.set(cell.id, text);
    return was !== this.has(cell.id);
  }

  /** Forgets the drafts of cells `nb` no longer has. */
  keepOnly(nb: Notebook) {
    const ids = new Set(cells(nb).map((c) => c.id));
    for (const id of [...this.keys()]) if (!ids.has(id)) this.delete(id);
  }

  /** `nb` as text with every draft applied. */
  applied(nb: Notebook): string {
    const blocks = nb.blocks.map((b) => {
      const d = b.type === "cell" ? this.get(b.id) : undefined;
      if (d === undefined || b.type !== "cell") return b;
      return { ...b, source: d.endsWith("\n") || d === "" ? d : d + "\n", close: b.close || "```\n" };
    });
    return serializeNotebook({ ...nb, blocks });
  }
}
