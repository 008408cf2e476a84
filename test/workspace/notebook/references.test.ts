import { describe, expect, it } from "vitest";
import {
  analyzeNotebook,
  analyzeSql,
  analyzeTs,
  type CellAnalysis,
} from "../../../workspace/notebook/references";

const sorted = (xs: string[]) => [...xs].sort();

describe("analyzeTs", () => {
  it.each([
    ["const a = b + 1;", ["a"], ["b"]],
    ["let {x, y: [z, ...rest], ...o} = src;", ["o", "rest", "x", "z"], ["src"]],
    ["function f(p, q = dflt) { const local = p + q + outer; return local; }", ["f"], ["dflt", "outer"]],
    ["class C extends Base { m() { return this.k + g; } static s = h; }", ["C"], ["Base", "g", "h"]],
    ["const t: number = (u as number) + 1; type T = {a: V};", ["t"], ["u"]],
    ["obj.prop + obj2[key] + ({k: v, [ck]: 1, sh}).k", [], ["ck", "key", "obj", "obj2", "sh", "v"]],
    [
      "for (const r of rows) { total += r.x; } try { f(); } catch (err) { log(err); }",
      [],
      ["f", "log", "rows", "total"],
    ],
    ["const h = (a, {b}) => a + b + c; label: for (;;) { break label; }", ["h"], ["c"]],
    ["const m = await sql`SELECT ${tau}`; display(m);", ["m"], ["display", "sql", "tau"]],
    ["var hoisted = 1; { let inner = hoisted; } inner", ["hoisted"], ["inner"]],
    ["const f = function g() { return g; };", ["f"], []],
  ])("%s", (src, defines, refs) => {
    const a = analyzeTs(src);
    expect(a.error).toBeUndefined();
    expect(sorted(a.defines)).toEqual(sorted(defines));
    expect(sorted(a.references)).toEqual(sorted(refs));
  });

  it("finds one-expression cells and named views", () => {
    expect(analyzeTs("plot({mark: 'dot', data: d})").expression).toBe("plot({mark: 'dot', data: d})");
    expect(analyzeTs("const a = 1; a").expression).toBeUndefined();
    const v = analyzeTs("const tauMs = view(Inputs.range([50, 2000], {value: 500}));");
    expect(v.views.map((x) => x.name)).toEqual(["tauMs"]);
    expect(v.js.slice(v.views[0]!.start, v.views[0]!.end)).toBe("view");
  });

  it("reports syntax errors, imports and exports", () => {
    expect(analyzeTs("const = 1").error).toMatch(/syntax error|TypeScript/);
    expect(analyzeTs("import x from 'y';").error).toMatch(/import is not supported/);
    expect(analyzeTs("export const a = 1;").error).toMatch(/export is not supported/);
  });
});

describe("analyzeSql", () => {
  it("references the free variables of each ${} and defines its id", () => {
    const a = analyzeSql("SELECT * FROM t WHERE a > ${lo + pad} AND b = ${opts.kind} -- ${ignored}\n", "q");
    expect(a.defines).toEqual(["q"]);
    expect(sorted(a.references)).toEqual(["lo", "opts", "pad"]);
  });
  it("rejects an invalid id", () => {
    expect(analyzeSql("SELECT 1", "not-valid").error).toMatch(/not a valid name/);
  });
});

describe("analyzeNotebook", () => {
  const cell = (id: string, kind: "ts" | "sql", source: string, name?: string) => ({
    id,
    kind,
    source,
    name,
  });
  const opts = {
    builtins: ["jb", "Plot", "plot", "sql", "Inputs", "md", "invalidation"],
    locals: ["display", "view", "check"],
  };

  it("reports duplicates, cycles and undefined references on the cells concerned only", () => {
    const twice = ["x is defined more than once (2 cells)"];
    const cycle = [expect.stringMatching(/circular definition: /)];
    // each cell of one notebook beside what the analysis reports on it
    const notebook: [ReturnType<typeof cell>, Partial<CellAnalysis>][] = [
      [cell("a", "ts", "const x = 1;"), { errors: twice }],
      [cell("b", "ts", "const x = 2;"), { errors: twice }],
      [cell("c", "ts", "const p = q + 1;"), { errors: cycle }],
      [cell("d", "ts", "const q = p + 1;"), { errors: cycle }],
      [
        cell("e", "ts", "const self = 1; const r = nope + self + Math.max(1, 2);"),
        { errors: [], undefinedReferences: ["nope"] },
      ],
      [cell("f", "sql", "SELECT ${r}", "rows"), { errors: [], references: ["r"] }],
      [cell("g", "ts", "display(rows); check('ok', true)"), { errors: [], references: ["rows"] }],
      [cell("h", "ts", "const jb = 3;"), { errors: ["jb is a builtin and cannot be redefined"] }],
    ];
    const r = analyzeNotebook(
      notebook.map(([c]) => c),
      opts,
    );
    for (const [c, expected] of notebook) expect(r.get(c.id), c.id).toMatchObject(expected);
  });

  it("finds a self-cycle through two names of one cell as no cycle, and a three-cell cycle", () => {
    const r = analyzeNotebook(
      [
        cell("a", "ts", "const a1 = 1; const a2 = a1;"),
        cell("x", "ts", "const x = z;"),
        cell("y", "ts", "const y = x;"),
        cell("z", "ts", "const z = y;"),
      ],
      opts,
    );
    expect(r.get("a")!.errors).toEqual([]);
    for (const id of ["x", "y", "z"]) expect(r.get(id)!.errors[0]).toMatch(/circular definition/);
  });
});
