import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cells,
  insertCell,
  parseNotebook,
  removeCell,
  serializeNotebook,
  withCellSource,
} from "../../../workspace/notebook/format";

const NOTEBOOKS = join(import.meta.dirname, "../../../notebooks");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

// Lines a notebook is made of, including the awkward ones: fences of every kind and length, front matter
// markers, CRLF and lone CR, indented fences, unclosed fences.
const line = fc.oneof(
  fc.constantFrom(
    "```sql id=frames",
    "```sql",
    "```ts",
    "```",
    "````",
    "````ts",
    "~~~ts",
    "~~~",
    "   ```ts",
    "    ```ts",
    "```js",
    "```ts echo",
    "```sql id=x `bad`",
    "---",
    "...",
    "title: A",
    "runs: [a, b]",
    "runs:",
    "  - run-1",
    "# Heading",
    "",
    "SELECT 1",
    "const x = 1;",
    'plot({mark: "dot"})',
    "${x}",
    "text with `code`",
  ),
  fc.string({ maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)),
);
const eol = fc.constantFrom("\n", "\r\n", "\r", "\n");
const notebookText = fc.array(fc.tuple(line, eol), { maxLength: 40 }).chain((ls) =>
  fc.boolean().map((dropLast) => {
    const text = ls.map(([l, e]) => l + e).join("");
    return dropLast && ls.length ? text.replace(/(\r\n|\r|\n)$/, "") : text;
  }),
);

describe("parseNotebook / serializeNotebook", () => {
  it("round-trips every generated notebook exactly", () => {
    fc.assert(
      fc.property(notebookText, (text) => serializeNotebook(parseNotebook(text)) === text),
      { numRuns: 2000 },
    );
  });

  it("round-trips arbitrary strings exactly", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme-composite", maxLength: 300 }),
        (text) => serializeNotebook(parseNotebook(text)) === text,
      ),
      { numRuns: 1000 },
    );
  });

  it("round-trips every notebook in notebooks/", () => {
    const files = markdownFiles(NOTEBOOKS);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      expect(serializeNotebook(parseNotebook(text)), f).toBe(text);
    }
  });

  it("reads front matter, cells and prose", () => {
    const text = [
      "---",
      'title: "Scroll jank"',
      "runs:",
      "  - pixel4a-*",
      "  - ../data/run-17",
      "owner: perf-team",
      "---",
      "Intro.",
      "",
      "```sql id=frames",
      "SELECT * FROM frames WHERE dur > ${tau}",
      "```",
      "",
      "````md",
      "```sql id=not_a_cell",
      "```",
      "````",
      "```ts",
      "const a = 1;",
      "```",
      "",
    ].join("\n");
    const nb = parseNotebook(text);
    expect(nb.frontMatter?.title).toBe("Scroll jank");
    expect(nb.frontMatter?.runs).toEqual(["pixel4a-*", "../data/run-17"]);
    expect(nb.frontMatter?.fields.map(([k]) => k)).toEqual(["title", "runs", "owner"]);
    const cs = cells(nb);
    expect(cs.map((c) => [c.kind, c.name, c.source])).toEqual([
      ["sql", "frames", "SELECT * FROM frames WHERE dur > ${tau}\n"],
      ["ts", undefined, "const a = 1;\n"],
    ]);
    expect(nb.blocks.map((b) => b.type)).toEqual(["prose", "cell", "prose", "cell"]);
    expect((nb.blocks[2] as { text: string }).text).toContain("not_a_cell");
  });

  it.each([
    ["runs: [a, 'b c', \"d\"]", ["a", "b c", "d"]],
    ["runs: single-run", ["single-run"]],
    ["runs:", []],
  ])("front matter %s", (entry, runs) => {
    expect(parseNotebook(`---\n${entry}\n---\n`).frontMatter?.runs).toEqual(runs);
  });

  it("keeps an unclosed front matter and an unclosed fence as they are", () => {
    expect(parseNotebook("---\ntitle: x\n").frontMatter).toBeNull();
    const nb = parseNotebook("```ts\nconst a = 1;\n");
    expect(cells(nb)[0]).toMatchObject({ source: "const a = 1;\n", close: "" });
  });

  it("derives ids from content: equal cells differ by occurrence, edits change only the edited id", () => {
    const text = "```ts\n1\n```\n\n```ts\n1\n```\n\n```ts\n2\n```\n";
    const nb = parseNotebook(text);
    const [a, b, c] = cells(nb).map((x) => x.id);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(cells(parseNotebook(text)).map((x) => x.id)).toEqual([a, b, c]);
    const edited = withCellSource(nb, c!, "3");
    expect(
      cells(edited)
        .map((x) => x.id)
        .slice(0, 2),
    ).toEqual([a, b]);
    expect(cells(edited)[2]!.id).not.toBe(c);
    expect(serializeNotebook(edited)).toBe("```ts\n1\n```\n\n```ts\n1\n```\n\n```ts\n3\n```\n");
  });

  it("inserts and removes cells, leaving the rest byte for byte", () => {
    const text = "# T\nprose\n```ts\nconst a = 1;\n```\ntail\n";
    const nb = parseNotebook(text);
    const inserted = insertCell(nb, 1, "sql", "SELECT 1", "one");
    const out = serializeNotebook(inserted);
    expect(out).toBe("# T\nprose\n```sql id=one\nSELECT 1\n```\n\n```ts\nconst a = 1;\n```\ntail\n");
    expect(serializeNotebook(parseNotebook(out))).toBe(out);
    const sqlId = cells(inserted).find((c) => c.kind === "sql")!.id;
    expect(cells(removeCell(inserted, sqlId)).map((c) => c.source)).toEqual(["const a = 1;\n"]);
  });

  it("serializes a parsed-then-edited notebook that re-parses to the same cells", () => {
    fc.assert(
      fc.property(
        notebookText,
        fc.string({ maxLength: 40 }).filter((s) => !s.includes("`") && !s.includes("~")),
        (text, src) => {
          const nb = parseNotebook(text);
          const first = cells(nb)[0];
          if (!first || first.close === "") return true;
          const edited = withCellSource(nb, first.id, src);
          const again = parseNotebook(serializeNotebook(edited));
          return (
            cells(again).length === cells(edited).length &&
            cells(again)[0]!.source === cells(edited)[0]!.source
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
