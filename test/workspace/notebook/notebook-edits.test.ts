import { describe, expect, it } from "vitest";
import { cells, parseNotebook, serializeNotebook } from "../../../workspace/notebook/format";
import {
  freshName,
  insertCells,
  insertProse,
  replaceProse,
} from "../../../workspace/notebook/notebook-edits";

const NB = "# T\n\nAbout a.\n\n```ts\nconst a = 1;\n```\n\nAbout b.\n\n```ts\nconst b = 2;\n```\n";
const afterA = () => parseNotebook(NB).blocks.findIndex((b) => b.type === "cell") + 1;

describe("insertCells", () => {
  it("puts several cells, in order, right after the cell above, before the next cell's paragraph", () => {
    const { nb: out, index } = insertCells(parseNotebook(NB), afterA(), [
      { kind: "ts", source: "const x = 1;" },
      { kind: "sql", name: "q", source: "SELECT 1" },
      { kind: "ts", source: "const y = 2;" },
    ]);
    expect(serializeNotebook(out)).toBe(
      "# T\n\nAbout a.\n\n```ts\nconst a = 1;\n```\n\n```ts\nconst x = 1;\n```\n\n```sql id=q\nSELECT 1\n```\n\n```ts\nconst y = 2;\n```\n\nAbout b.\n\n```ts\nconst b = 2;\n```\n",
    );
    expect(out.blocks[index]).toMatchObject({ type: "cell", source: "const x = 1;\n" });
  });
});

describe("insertProse", () => {
  it("adds a paragraph after a cell, in the prose that follows it, and says which block holds it", () => {
    const { nb, index } = insertProse(parseNotebook(NB), afterA(), "New.\n");
    expect(serializeNotebook(nb)).toBe(NB.replace("```\n\nAbout b.", "```\n\nNew.\n\nAbout b."));
    expect(nb.blocks[index]).toEqual({ type: "prose", text: "\nNew.\n\nAbout b.\n\n" });
  });

  it("closes an unclosed last cell first, so the paragraph stays prose", () => {
    const { nb, index } = insertProse(parseNotebook("```ts\nconst a = 1;"), 1, "New.");
    expect(serializeNotebook(nb)).toBe("```ts\nconst a = 1;\n```\n\nNew.\n");
    expect(cells(nb).length).toBe(1);
    expect(nb.blocks[index]).toEqual({ type: "prose", text: "\nNew.\n" });
  });
});

describe("replaceProse", () => {
  it("re-reads the notebook: a fence typed into prose becomes a cell", () => {
    const nb = parseNotebook(NB);
    const out = replaceProse(nb, 0, "# T\n\n```sql id=s\nSELECT 3\n```\n\nAbout a.\n\n")!;
    expect(cells(out).map((c) => c.name ?? c.source)).toEqual(["s", "const a = 1;\n", "const b = 2;\n"]);
  });

  it("adds the line end a prose block needs before a cell, and says when nothing changed", () => {
    const nb = parseNotebook(NB);
    expect(serializeNotebook(replaceProse(nb, 0, "# Title")!)).toBe(
      NB.replace("# T\n\nAbout a.\n\n", "# Title\n"),
    );
    expect(replaceProse(nb, 0, (nb.blocks[0] as { text: string }).text)).toBeNull();
    expect(replaceProse(nb, 1, "x")).toBeNull(); // a cell, not prose
  });
});

describe("freshName", () => {
  it("takes the first number not taken", () => {
    expect(freshName("query", new Set())).toBe("query1");
    expect(freshName("query", new Set(["query1", "query2", "query4"]))).toBe("query3");
  });
});
