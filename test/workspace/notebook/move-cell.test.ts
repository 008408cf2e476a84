import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cells, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import { moveCell, proseSplit } from "../../../workspace/notebook/move-cell";

// A notebook in four pieces: the top (front matter, title, section heading), two cells with the paragraph that
// introduces each, and the rest (a conclusion, another section and its cell).
const TOP = ["---", "title: t", "---", "# Title", "", "Intro of the notebook.", "", "## One", ""];
const UNIT_A = ["About a.", "", "```ts", "const a = 1;", "```", ""];
const UNIT_B = ["About b,", "two lines.", "", "```sql id=b", "SELECT 2", "```", ""];
const REST = [
  "What we found in one.",
  "",
  "## Two",
  "",
  "About c.",
  "",
  "```ts",
  "const c = 3;",
  "```",
  "",
  "The end.",
  "",
];
const SMALL = [...TOP, ...UNIT_A, ...UNIT_B, ...REST].join("\n");

const idOf = (text: string, k: number) => cells(parseNotebook(text))[k]!.id;
const move = (text: string, k: number, delta: -1 | 1) => {
  const next = moveCell(parseNotebook(text), idOf(text, k), delta);
  return next && serializeNotebook(next);
};

describe("proseSplit", () => {
  it.each([
    ["no heading: all of it introduces the cell", "\nAbout b.\n\n", "", "\nAbout b.\n\n"],
    ["after the last ATX heading", "\nend.\n\n## 2\n\nc.\n\n", "\nend.\n\n## 2\n", "\nc.\n\n"],
    ["a heading right above the cell", "## Two\n", "## Two\n", ""],
    ["setext underline", "Two\n===\nAbout.\n", "Two\n===\n", "About.\n"],
    ["a thematic break is no heading", "text\n\n---\nAbout.\n", "text\n", "\n---\nAbout.\n"],
    ["only the last paragraph", "\nIntro.\nMore.\n\nFirst, a.\n\n", "\nIntro.\nMore.\n", "\nFirst, a.\n\n"],
    ["a list is a paragraph", "Para.\n\n- one\n- two\n", "Para.\n", "\n- one\n- two\n"],
    ["blank lines only", "\n\n", "", "\n\n"],
    ["# inside a fence is code", "## H\n```text\n# not\n```\nc.\n", "## H\n", "```text\n# not\n```\nc.\n"],
    ["#hashtag is no heading", "#tag\nAbout.\n", "", "#tag\nAbout.\n"],
  ])("%s", (_name, text, lead, intro) => {
    expect(proseSplit(text)).toEqual({ lead, intro });
  });
});

describe("moveCell", () => {
  it("moves a cell down past exactly one cell, with its intro; headings stay", () => {
    expect(move(SMALL, 0, 1)).toBe([...TOP, ...UNIT_B, ...UNIT_A, ...REST].join("\n"));
  });

  it("swaps across a heading: each cell enters the other's section, the heading and the text above it stay", () => {
    const out = move(SMALL, 1, 1)!;
    expect(out).toContain(
      "About a.\n\n```ts\nconst a = 1;\n```\n\nAbout c.\n\n```ts\nconst c = 3;\n```\n\nWhat we found in one.\n\n## Two\n\nAbout b,",
    );
    expect(out.endsWith("```sql id=b\nSELECT 2\n```\n\nThe end.\n")).toBe(true);
  });

  it("never lets prose moved to the top of a notebook without front matter read as front matter", () => {
    const text = "```ts\nconst a = 1;\n```\n---\n```ts\nconst b = 2;\n```\n---\n";
    const out = move(text, 1, -1)!;
    expect(out).toBe("\n---\n```ts\nconst b = 2;\n```\n```ts\nconst a = 1;\n```\n---\n");
    expect(parseNotebook(out).frontMatter).toBeNull();
  });

  it("refuses to move the first cell up or the last one down", () => {
    expect(move(SMALL, 0, -1)).toBeNull();
    expect(move(SMALL, 2, 1)).toBeNull();
  });

  it("closes an unclosed last cell that moves up, so the cell after it stays a cell", () => {
    const text = "```ts\nconst a = 1;\n```\n\n```ts\nconst b = 2;";
    const out = move(text, 1, -1)!;
    expect(out).toBe("\n```ts\nconst b = 2;\n```\n```ts\nconst a = 1;\n```\n");
    expect(cells(parseNotebook(out)).map((c) => c.source)).toEqual(["const b = 2;\n", "const a = 1;\n"]);
  });

  // A cell's prose is what is directly above it now, so a swap is undone by the opposite swap only when both
  // cells have a paragraph of their own, set off by a blank line (else a cell takes the paragraph it lands under,
  // or its paragraph runs on from the one it lands under).
  const ownParagraphs = (text: string, k: number) => {
    const nb = parseNotebook(text);
    const separate = (cell: number) => {
      const b = nb.blocks[nb.blocks.indexOf(cells(nb)[cell]!) - 1];
      const intro = b?.type === "prose" ? proseSplit(b.text).intro : "";
      return intro.trim() !== "" && /^(\r\n|\r|\n)/.test(intro);
    };
    return separate(k) && separate(k + 1);
  };

  it("on the triage notebook, ↓ then ↑ gives the file back byte for byte when both cells have their paragraph", () => {
    const text = readFileSync(join(import.meta.dirname, "../../../notebooks/triage.md"), "utf8");
    const n = cells(parseNotebook(text)).length;
    let tried = 0;
    for (let k = 0; k < n - 1; k++) {
      const down = move(text, k, 1)!;
      expect(cells(parseNotebook(down)).length).toBe(n);
      if (!ownParagraphs(text, k)) continue;
      tried++;
      expect(move(down, k + 1, -1)).toBe(text);
    }
    expect(tried).toBeGreaterThan(10);
  });

  it("a cell without a paragraph of its own takes the one it lands under", () => {
    const text = "Intro.\n\nAbout a.\n\n```ts\nconst a = 1;\n```\n\n```ts\nconst b = 2;\n```\n";
    const down = move(text, 0, 1)!;
    expect(down).toBe("Intro.\n\n```ts\nconst b = 2;\n```\n\nAbout a.\n\n```ts\nconst a = 1;\n```\n");
    expect(move(down, 1, -1)).toBe(
      "\nAbout a.\n\n```ts\nconst a = 1;\n```\nIntro.\n\n```ts\nconst b = 2;\n```\n",
    );
  });

  // Well-formed notebooks: prose lines (headings among them) and closed cells, every line ending in \n.
  const proseLine = fc.constantFrom(
    "",
    "# H1",
    "## H2",
    "Some text.",
    "Title",
    "===",
    "---",
    "- item",
    "```text",
    "# in a fence?",
  );
  const cell = fc
    .tuple(
      fc.constantFrom("```ts", "```sql id=q", "~~~ts", "````sql"),
      fc.constantFrom("const x = 1;", "SELECT 1", "", "# not prose"),
    )
    .map(([open, body]) => `${open}\n${body ? body + "\n" : ""}${open.replace(/[^`~]/g, "")}\n`);
  const notebook = fc
    .array(
      fc.oneof(
        proseLine.map((l) => l + "\n"),
        cell,
      ),
      { maxLength: 25 },
    )
    .map((parts) => parts.join(""));

  it("a swap is its own inverse, keeps every cell and every prose line (property)", () => {
    fc.assert(
      fc.property(notebook, fc.nat(), fc.boolean(), (text, pick, down) => {
        const nb = parseNotebook(text);
        const list = cells(nb);
        if (list.length < 2) return true;
        const k = down ? pick % (list.length - 1) : 1 + (pick % (list.length - 1));
        const delta = down ? 1 : -1;
        const moved = moveCell(nb, list[k]!.id, delta)!;
        const after = cells(moved);
        const expected = list.map((c) => c.source);
        [expected[k], expected[k + delta]] = [expected[k + delta]!, expected[k]!];
        expect(after.map((c) => c.source)).toEqual(expected);
        const proseLines = (n: typeof nb) =>
          n.blocks
            .flatMap((b) => (b.type === "prose" ? b.text.split("\n") : []))
            .filter((l) => l !== "")
            .sort();
        expect(proseLines(moved)).toEqual(proseLines(nb));
        const back = moveCell(moved, after[k + delta]!.id, delta === 1 ? -1 : 1)!;
        if (!ownParagraphs(text, Math.min(k, k + delta))) return true;
        // A `---` that would have opened the file was pushed down by a blank line (see the test above).
        const pushed = serializeNotebook(moved).startsWith("\n---") && !text.startsWith("\n---");
        return pushed || serializeNotebook(back) === text;
      }),
      { numRuns: 1500 },
    );
  });
});
