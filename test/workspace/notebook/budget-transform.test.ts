import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshName, instrumentBudget } from "../../../workspace/notebook/budget-transform";

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<unknown>;

/** Runs `body` as the runtime does (an async function body), plain and instrumented; returns both results and
 * the lines the ticks reported. */
async function both(body: string) {
  const plain = await new AsyncFunction(body)();
  const lines: number[] = [];
  const instrumented = instrumentBudget(body, { tick: "$t" });
  const value = await new AsyncFunction("$t", instrumented)((line: number) => (lines.push(line), 1));
  return { plain, value, lines, instrumented };
}

describe("instrumentBudget", () => {
  // Each program computes a value that depends on every iteration; `ticks` is counted by hand.
  const cases: { name: string; body: string; ticks: number }[] = [
    { name: "while", body: "let i = 0, s = 0; while (i < 4) { s += i; i++; } return s;", ticks: 4 },
    { name: "while, single statement", body: "let i = 0; while (i < 3) i++; return i;", ticks: 3 },
    { name: "while, empty body", body: "let i = 0; while (i++ < 3); return i;", ticks: 3 },
    { name: "do-while, single statement", body: "let i = 0; do i += 2; while (i < 5) return i;", ticks: 3 },
    { name: "do-while", body: "let i = 0; do { i++; } while (i < 3); return i;", ticks: 3 },
    {
      name: "for with continue",
      body: "const a = []; for (let i = 0; i < 5; i++) { if (i === 2) continue; a.push(i); } return a;",
      ticks: 5,
    },
    {
      name: "for-in",
      body: "const o = {a: 1, b: 2}; let s = ''; for (const k in o) s += k + o[k]; return s;",
      ticks: 2,
    },
    { name: "for-of", body: "let s = 0; for (const x of [1, 2, 3]) s += x; return s;", ticks: 3 },
    {
      name: "labels: continue and break of an outer loop",
      body:
        "const a = []; outer: for (let i = 0; i < 3; i++) { inner: for (let j = 0; j < 3; j++) {" +
        " if (j === 1) continue outer; if (i === 2) break outer; a.push([i, j]); } } return a;",
      // outer bodies: i = 0, 1, 2 (3); inner bodies: (0,0) (0,1) (1,0) (1,1) (2,0) (5)
      ticks: 8,
    },
    {
      name: "nested loops without braces, in if/else",
      body: "let s = 0; if (s === 0) for (let i = 0; i < 2; i++) while (s < 10 * (i + 1)) s += 3; else s = -1; return s;",
      // for bodies: 2; while bodies: s 0,3,6,9 -> 12 (4), then 12,15,18 -> 21 (3)
      ticks: 9,
    },
    {
      name: "function declarations and expressions, recursion",
      body: "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); } const f = function (x) { return x + 1; }; return f(fact(4));",
      ticks: 5,
    },
    {
      name: "concise arrows, an object literal body, a sequence body",
      body: "const g = (x) => ({ y: x }); const h = (a, b) => (a, b); return [g(1), h(1, 2), [1, 2].map((x) => x * 2)];",
      ticks: 4,
    },
    {
      name: "arrow with a concise body in a loop without braces, no semicolon (ASI)",
      body: "let f; for (let i = 0; i < 2; i++) f = () => i\nreturn f();",
      ticks: 3,
    },
    {
      name: "directive prologue stays first",
      body: 'function f() { "use strict"; return this; } return f() === undefined;',
      ticks: 1,
    },
    {
      name: "class: constructor with super, methods, getters, static blocks",
      body:
        "class A { constructor(x) { this.x = x; } get twice() { return this.x * 2; } }" +
        " class B extends A { constructor() { super(3); } static { B.made = true; } }" +
        " const b = new B(); return [b.twice, b.x];",
      ticks: 3,
    },
    {
      name: "generators: each step's loop ticks when it runs",
      body: "function* nat() { let i = 0; while (true) yield i++; } const it = nat(); return [it.next().value, it.next().value, it.next().value];",
      // the generator's body starts at the first next() (1), then loop bodies for yields 0, 1, 2 (3)
      ticks: 4,
    },
    {
      name: "async functions and await",
      body: "async function f(n) { let s = 0; for (let i = 0; i < n; i++) s += await i; return s; } return await f(3);",
      ticks: 4,
    },
    {
      name: "a name in a template, a regex and a string is no code",
      body: "const s = `while (true) {}`; const r = /for (;;)/; return [s, r.source, 'function () {}'];",
      ticks: 0,
    },
  ];
  it.each(cases)("$name: same value, $ticks ticks", async ({ body, ticks }) => {
    const { plain, value, lines } = await both(body);
    expect(value).toEqual(plain);
    expect(lines.length).toBe(ticks);
  });

  it("ticks carry the line of their loop or function, plus lineOffset", async () => {
    const body =
      "let s = 0;\nfor (let i = 0; i < 2; i++) {\n  s += i;\n}\nconst f = () =>\n  s;\nreturn f();";
    const lines: number[] = [];
    const js = instrumentBudget(body, { tick: "$t", lineOffset: 10 });
    await new AsyncFunction("$t", js)((l: number) => (lines.push(l), 1));
    expect(lines).toEqual([12, 12, 15]);
    // nothing goes on a new line: every line of the body keeps its number
    expect(js.split("\n").length).toBe(body.split("\n").length);
  });

  it("a body that does not parse comes back unchanged", () => {
    expect(instrumentBudget("while (", { tick: "$t" })).toBe("while (");
  });

  it("freshName avoids every name in the text", () => {
    expect(freshName("$t", "let x = 1")).toBe("$t");
    expect(freshName("$t", "let $t = 1, $t_ = 2")).toBe("$t__");
  });

  // Random nests of loops (every kind, with and without braces, labelled break/continue): the instrumented
  // program logs the same sequence as the plain one, and ticks once per loop body run.
  const loopProgram = fc.letrec<{ stmt: string }>((tie) => ({
    stmt: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.nat(9).map((k) => `log.push(${k});`),
      fc
        .tuple(
          fc.constantFrom("while", "do", "for", "forof", "forin"),
          fc.nat(3),
          fc.boolean(),
          fc.constantFrom("", "if (n % 2) continue L;", "if (n > 1) break L;", "if (n === 1) continue;"),
          tie("stmt"),
        )
        .map(([kind, bound, braces, jump, inner]) => {
          // labels are unique along a nest (a label inside its own label is a syntax error): L<loops inside>
          const label = `L${braces ? (inner.match(/L\d+:/g)?.length ?? 0) : 0}`;
          const body = braces
            ? `{ n = c.n++; log.push("b" + n); ${jump.replace(" L;", ` ${label};`)} ${inner} }`
            : `log.push("b" + c.n++);`;
          const head = `${label}: `;
          // each loop has its own counter object, so nested loops terminate
          const pre = `{ const c = { i: 0, n: 0 }; let n = 0; `;
          if (kind === "while") return `${pre}${head}while (c.i++ < ${bound}) ${body} }`;
          if (kind === "do") return `${pre}${head}do ${body} while (c.i++ < ${bound}); }`;
          if (kind === "for") return `${pre}${head}for (let k = 0; k < ${bound}; k++) ${body} }`;
          if (kind === "forof") return `${pre}${head}for (const k of Array(${bound}).keys()) ${body} }`;
          return `${pre}${head}for (const k in Array(${bound}).fill(0)) ${body} }`;
        }),
    ),
  })).stmt;

  it("random loop nests log the same sequence (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(loopProgram, { minLength: 1, maxLength: 3 }), async (stmts) => {
        const body = `const log = []; ${stmts.join(" ")} return log;`;
        const { plain, value, lines } = await both(body);
        expect(value).toEqual(plain);
        // one tick per loop body run: every body starts by logging "b<n>"
        const bodies = (plain as unknown[]).filter((x) => typeof x === "string").length;
        expect(lines.length).toBe(bodies);
      }),
      { numRuns: 200 },
    );
  });
});
