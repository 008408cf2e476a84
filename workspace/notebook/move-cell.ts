// Moving a cell by one, with the prose that belongs to it, so a move never strands a cell's explanation.
//
//   moveCell(nb, id, delta: -1 | 1) -> Notebook | null   (null: no neighbour that way)
//   proseSplit(text) -> {lead, intro}                     where a prose block splits between two cells
//
// The rule: a cell's prose is the paragraph directly above it (its "intro": the last run of non-blank lines between
// the previous cell and it, with the blank lines before it), unless a heading is directly above it. Headings and
// the paragraphs above the intro belong to the document's structure and stay where they are. Moving a cell down
// swaps it and its intro with the next cell and that cell's intro; moving up swaps with the previous cell; prose
// after the last cell stays last. The rule reads the notebook as it is, so ↓ then ↑ gives the file back byte for
// byte when both cells have a paragraph of their own set off by a blank line (a cell without one takes the
// paragraph it lands under), no fence had to be closed and no `---` line would have opened the file.
// Headings are ATX (`# x`, CommonMark 4.2) or setext (a `===`/`---` underline, 4.3) outside fenced blocks.
import { parseNotebook, serializeNotebook, type Block, type Cell, type Notebook } from "./format";

const ATX = /^ {0,3}#{1,6}(\s|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits prose into what stays and the intro of the cell below it: the last paragraph (a run of non-blank lines,
 * with the blank lines before it), unless a heading ends the prose, which then has no intro.
 */
export function proseSplit(text: string): { lead: string; intro: string } {
  const lines = text.match(/[^\r\n]*(\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  let fence: string | null = null;
  let start = 0;
  let offset = 0;
  let blankFrom = 0;
  let previous: "blank" | "text" | "heading" = "blank";
  for (const line of lines) {
    const bare = line.replace(/(\r\n|\r|\n)$/, "");
    const at = offset;
    offset += line.length;
    if (fence !== null) {
      // A fenced block inside prose (```text, ```js) is part of its paragraph: a `#` line in it is code.
      const f = FENCE.exec(bare);
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && bare.trim() === f[1]) fence = null;
      continue;
    }
    if (bare.trim() === "") {
      if (previous !== "blank") blankFrom = at;
      previous = "blank";
      continue;
    }
    const heading: boolean = ATX.test(bare) || (previous === "text" && SETEXT.test(bare));
    if (heading) start = offset;
    else if (previous === "blank") start = blankFrom;
    else if (previous === "heading") start = at;
    fence = FENCE.exec(bare)?.[1] ?? null;
    previous = heading ? "heading" : "text";
  }
  return { lead: text.slice(0, start), intro: text.slice(start) };
}

interface Slot {
  /** prose that stays in this place (headings and what is above them) */
  lead: string;
  intro: string;
  cell: Cell;
}

/** A cell taken out of its place must close its fence on its own line, or what follows would become its code. */
export function closed(cell: Cell): Cell {
  if (cell.close === "") {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(cell.open)?.[1] ?? "```";
    const source = cell.source === "" || /(\r\n|\r|\n)$/.test(cell.source) ? cell.source : cell.source + "\n";
    return { ...cell, source, close: fence + "\n" };
  }
  return /(\r\n|\r|\n)$/.test(cell.close) ? cell : { ...cell, close: cell.close + "\n" };
}

export function moveCell(nb: Notebook, id: string, delta: -1 | 1): Notebook | null {
  const slots: Slot[] = [];
  let pending = "";
  for (const b of nb.blocks) {
    if (b.type === "prose") pending += b.text;
    else {
      const { lead, intro } = proseSplit(pending);
      slots.push({ lead, intro, cell: b });
      pending = "";
    }
  }
  const trailing = pending;
  const k = slots.findIndex((s) => s.cell.id === id);
  const j = k + delta;
  if (k < 0 || j < 0 || j >= slots.length) return null;
  const a = slots[k]!;
  const b = slots[j]!;
  slots[k] = { lead: a.lead, intro: b.intro, cell: b.cell };
  slots[j] = { lead: b.lead, intro: a.intro, cell: a.cell };
  const blocks: Block[] = [];
  slots.forEach((s, i) => {
    const prose = s.lead + s.intro;
    if (prose) blocks.push({ type: "prose", text: prose });
    // Only the last cell of the file may stay unclosed (an unclosed fence runs to the end of the file).
    blocks.push(i === slots.length - 1 && trailing === "" ? s.cell : closed(s.cell));
  });
  if (trailing) blocks.push({ type: "prose", text: trailing });
  // Re-parse: ids are derived from content and order (occurrence), and a fence must still parse as one.
  const text = serializeNotebook({ ...nb, blocks });
  const next = parseNotebook(text);
  // Without front matter, prose that now opens the file with a `---` line could read as front matter.
  return next.frontMatter && !nb.frontMatter ? parseNotebook("\n" + text) : next;
}
