import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANALYSES } from "../../../workspace/app/analysis-palette";
import { cells, insertCell, parseNotebook, type Notebook } from "../../../workspace/notebook/format";
import { freshenCells, type NewCell } from "../../../workspace/notebook/fresh-names";
import { analyzeNotebook } from "../../../workspace/notebook/references";
import { CELL_LOCALS } from "../../../workspace/notebook/runtime";

const NOTEBOOKS = join(import.meta.dirname, "../../../notebooks");
const BUILTINS = ["jb", "Plot", "plot", "Inputs", "md", "sql", "invalidation", "visibility"];
const analyze = (nb: Notebook) =>
  analyzeNotebook(cells(nb), { builtins: BUILTINS, locals: CELL_LOCALS, isGlobal: (n) => n in globalThis });
const definedIn = (nb: Notebook) => new Set([...analyze(nb).values()].flatMap((a) => a.defines));

const ts = (source: string): NewCell => ({ kind: "ts", source });

describe("freshenCells", () => {
  it.each([
    ["a declaration and its reads", "const a = 1;\nconst b = a + 1;", "const a2 = 1;\nconst b = a2 + 1;"],
    ["a shorthand property", "const a = 1;\nf({a});", "const a2 = 1;\nf({a: a2});"],
    ["a shorthand in a destructuring pattern", "const {a} = o;\ng(a);", "const {a: a2} = o;\ng(a2);"],
    ["a destructuring default", "const {a = 3} = o;", "const {a: a2 = 3} = o;"],
    ["a function declaration", "function a() { return a; }", "function a2() { return a2; }"],
    [
      "a local that shadows it is left alone",
      "const a = 1;\nconst f = (a) => a + 1;",
      "const a2 = 1;\nconst f = (a) => a + 1;",
    ],
    [
      "members, keys and strings are left alone",
      'const a = 1;\no.a({a: "a"}, a);',
      'const a2 = 1;\no.a({a: "a"}, a2);',
    ],
  ])("renames %s", (_name, source, expected) => {
    const { cells: out, renamed } = freshenCells([ts(source)], new Set(["a"]));
    expect(renamed).toEqual(new Map([["a", "a2"]]));
    expect(out[0]!.source).toBe(expected);
  });

  it("renames a sql cell's id and the names inside ${...}, leaving the SQL text alone", () => {
    const { cells: out } = freshenCells(
      [
        ts("const limit = 3;"),
        { kind: "sql", name: "q", source: "SELECT 'limit' AS limit FROM q WHERE n < ${limit * 2}" },
      ],
      new Set(["limit", "q"]),
    );
    expect(out[0]!.source).toBe("const limit2 = 3;");
    expect(out[1]).toEqual({
      kind: "sql",
      name: "q2",
      source: "SELECT 'limit' AS limit FROM q WHERE n < ${limit2 * 2}",
    });
  });

  it("skips numbers already taken and names the new cells define themselves", () => {
    const { renamed } = freshenCells([ts("const a = 1;\nconst a2 = 2;")], new Set(["a", "a3"]));
    expect(renamed).toEqual(new Map([["a", "a4"]]));
  });

  it("leaves references to the notebook's own names alone", () => {
    const { cells: out, renamed } = freshenCells([ts("const b = tauMs * 2;")], new Set(["tauMs"]));
    expect(renamed.size).toBe(0);
    expect(out[0]!.source).toBe("const b = tauMs * 2;");
  });

  it("types in a TypeScript cell are dropped, the rename still holds", () => {
    const { cells: out } = freshenCells([ts("const a: number = 1;\nconst b = a;")], new Set(["a"]));
    expect(out[0]!.source.replace(/\s+/g, " ").trim()).toBe("const a2 = 1; const b = a2;");
  });

  it('"DUNE: IQR flags" into triage: outlierFactor becomes outlierFactor2 and no cell breaks', () => {
    const nb = parseNotebook(readFileSync(join(NOTEBOOKS, "triage.md"), "utf8"));
    const entry = ANALYSES.find((a) => a.label.startsWith("DUNE: IQR flags"))!;
    const { cells: fresh, renamed } = freshenCells(entry.cells, definedIn(nb));
    expect(renamed.get("outlierFactor")).toBe("outlierFactor2");
    expect(fresh[2]!.source).toContain("{outlierFactor: outlierFactor2}");
  });

  it.each(
    readdirSync(NOTEBOOKS, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .flatMap((f) => ANALYSES.map((a) => [f, a.label] as const)),
  )("%s + %s: the inserted cells add no error to any cell", (file, label) => {
    const nb = parseNotebook(readFileSync(join(NOTEBOOKS, file), "utf8"));
    const entry = ANALYSES.find((a) => a.label === label)!;
    const before = new Map([...analyze(nb)].map(([id, a]) => [id, [...a.errors, ...a.undefinedReferences]]));
    let next = nb;
    let at = Math.min(3, nb.blocks.length);
    for (const c of freshenCells(entry.cells, definedIn(nb)).cells) {
      next = insertCell(next, at, c.kind, c.source, c.name);
      at += 2;
    }
    const after = analyze(next);
    for (const [id, a] of after) {
      const problems = [...a.errors, ...a.undefinedReferences];
      expect(problems, `${id}`).toEqual(before.get(id) ?? []);
    }
  });
});
