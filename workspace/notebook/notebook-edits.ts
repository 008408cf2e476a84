// The notebook edits the workspace offers besides moving a cell (move-cell.ts): pure Notebook -> Notebook
// functions, so <jb-notebook> only decides where and when (and the edits are tested without a DOM).
//
//   insertCells(nb, at, cells)        -> {nb, index}: the cells, in order, before block `at` (a palette entry, a
//                                        new cell), and the block index of the first
//   insertProse(nb, at, text)         -> {nb, index}: Markdown before block `at`, and the block that now holds it
//   replaceProse(nb, index, text)     -> the notebook re-read with that prose block's text (a fence typed into
//                                        prose becomes a cell), or null when nothing changed
//   freshName(base, taken)            base1, base2, ...: the first not taken (a new SQL cell's id=)
import { parseNotebook, serializeNotebook, type CellKind, type Notebook } from "./format";
import { closed } from "./move-cell";

/**
 * The notebook with `text` put before block `at` (set off by blank lines from what is around it), re-read, and
 * the index of the block that holds the text's first character.
 */
function splice(nb: Notebook, at: number, text: string): { nb: Notebook; index: number } {
  const before = nb.blocks.slice(0, at);
  const last = before[before.length - 1];
  // The cell above must close its fence on its own line, or the text would become its code.
  if (last?.type === "cell") before[before.length - 1] = closed(last);
  const prefix = serializeNotebook({ ...nb, blocks: before });
  const suffix = serializeNotebook({ frontMatter: null, blocks: nb.blocks.slice(at) });
  const lead = before.length === 0 || prefix.endsWith("\n\n") ? "" : "\n";
  const tail = suffix === "" || /^(\r\n|\r|\n)/.test(suffix) ? "" : "\n";
  const out = parseNotebook(prefix + lead + text + tail + suffix);
  let offset = out.frontMatter?.raw.length ?? 0;
  const start = prefix.length + lead.length;
  const index = out.blocks.findIndex((b) => {
    offset += b.type === "prose" ? b.text.length : b.open.length + b.source.length + b.close.length;
    return offset > start;
  });
  return { nb: out, index: index < 0 ? out.blocks.length - 1 : index };
}

export function insertCells(
  nb: Notebook,
  at: number,
  list: readonly { kind: CellKind; name?: string; source: string }[],
): { nb: Notebook; index: number } {
  const fence = (c: { kind: CellKind; name?: string; source: string }) =>
    "```" +
    c.kind +
    (c.name ? ` id=${c.name}` : "") +
    "\n" +
    (c.source === "" || c.source.endsWith("\n") ? c.source : c.source + "\n") +
    "```\n";
  return splice(nb, at, list.map(fence).join("\n"));
}

export function insertProse(nb: Notebook, at: number, text: string): { nb: Notebook; index: number } {
  return splice(nb, at, /(\r\n|\r|\n)$/.test(text) ? text : text + "\n");
}

export function replaceProse(nb: Notebook, index: number, text: string): Notebook | null {
  const block = nb.blocks[index];
  if (block?.type !== "prose" || block.text === text) return null;
  const blocks = nb.blocks.slice();
  const last = index === blocks.length - 1;
  blocks[index] = {
    type: "prose",
    text: last || text === "" || /(\r\n|\r|\n)$/.test(text) ? text : text + "\n",
  };
  return parseNotebook(serializeNotebook({ ...nb, blocks }));
}

export function freshName(base: string, taken: ReadonlySet<string>): string {
  let n = 1;
  while (taken.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}
