// The cooperative budget through the runtime (cell-budget.ts, budget-transform.ts). Every runaway loop here has
// its own guard (it throws "NOT STOPPED" after GUARD_MS), so a budget that fails to stop it fails the test
// instead of freezing the thread, which no outer timer could interrupt.
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";

const GUARD_MS = 4000;
const guard = `if (Date.now() - t0 > ${GUARD_MS}) throw new Error("NOT STOPPED");`;

const notebook = (cells: string[], frontMatter = "") =>
  parseNotebook(frontMatter + cells.map((c) => "```ts\n" + c + "\n```\n").join("\n"));

async function run(cells: string[], options: { cellBudgetMs?: number; frontMatter?: string } = {}) {
  const rt = new NotebookRuntime({ engine: null, cellBudgetMs: options.cellBudgetMs });
  rt.load(notebook(cells, options.frontMatter));
  await rt.settled(60_000);
  const byName = (name: string) => rt.states().find((s) => s.defines.includes(name))!;
  return { rt, byName };
}

const stopped = (cell: string, ms: number) =>
  new RegExp(
    `^cell ${cell} ran for more than ${ms} ms without yielding \\(its loops were stopped\\) at line \\d+`,
  );

describe("cell budget", () => {
  it("stops `while (true) {}` with an error naming the cell and its line; the other cells run", async () => {
    const { rt, byName } = await run(
      [
        "const before = 20 + 1",
        `const spin: number = (() => {\n  const t0: number = Date.now();\n  while (true) { ${guard} }\n})()`,
        "const after = before * 2",
      ],
      { cellBudgetMs: 150 },
    );
    expect(byName("spin").status).toBe("rejected");
    expect(byName("spin").error).toMatch(stopped("spin", 150));
    // sucrase keeps lines: the loop is on line 3 of the cell's TypeScript
    expect(byName("spin").error).toMatch(/at line 3$/);
    expect(await rt.value("after")).toBe(42);
    rt.dispose();
  });

  it("a catch inside the runaway loop cannot keep it going; nor can a finally, a do-while or a recursion", async () => {
    const { rt, byName } = await run(
      [
        `const a = (() => { const t0 = Date.now(); for (;;) { try { while (true) { ${guard} } } catch {} } })()`,
        `const b = (() => { const t0 = Date.now(); do { try { for (const x of [1]) { ${guard} } } finally { continue; } } while (true) })()`,
        // no loop at all: 2^40 calls, stopped by the ticks at function entry
        `const c = (() => { const t0 = Date.now(); const f = (d: number): number => { ${guard} return d === 0 ? 1 : f(d - 1) + f(d - 1); }; return f(40); })()`,
      ],
      { cellBudgetMs: 100 },
    );
    expect(byName("a").error).toMatch(stopped("a", 100));
    expect(byName("b").error).toMatch(stopped("b", 100));
    expect(byName("c").error).toMatch(stopped("c", 100));
    rt.dispose();
  });

  it("an async loop that only awaits resolved promises starves the page too: stopped", async () => {
    const { rt, byName } = await run(
      [
        `const t0 = Date.now()`,
        `const spinning = await (async () => { while (true) { await 0; ${guard} } })()`,
      ],
      { cellBudgetMs: 150 },
    );
    expect(byName("spinning").error).toMatch(stopped("spinning", 150));
    rt.dispose();
  });

  it("code that yields to the event loop is never stopped, however long it runs in total", async () => {
    const { rt, byName } = await run(
      [
        // 14 slices of 60 ms of busy work, each after a macrotask: 840 ms in all, budget 600 ms (the margin is
        // for a loaded machine descheduling the thread between a macrotask's start and its slice)
        "const sliced = await (async () => { let n = 0; for (let s = 0; s < 14; s++) { await new Promise((r) => setTimeout(r, 0)); const t = Date.now(); while (Date.now() - t < 60) n++; } return n > 0; })()",
      ],
      { cellBudgetMs: 600 },
    );
    expect(byName("sliced").status).toBe("fulfilled");
    expect(await rt.value("sliced")).toBe(true);
    rt.dispose();
  });

  it("a generator yielding forever is not stopped, nor hit by the error of a cell stopped just before it", async () => {
    const rt = new NotebookRuntime({ engine: null, cellBudgetMs: 100 });
    rt.load(
      notebook([
        // stopped in the same task in which the generator starts: the generator must not inherit its error
        `const spin = (() => { const t0 = Date.now(); while (true) { ${guard} } })()`,
        "const ticks = (function* () { let i = 0; while (true) yield i++; })()",
        "const plusOne = ticks + 1",
      ]),
    );
    // One value per macrotask (Node's frame): it keeps changing. Wait for 6 distinct values (a stopped generator
    // never gives them, and the test's timeout fails it). Its steps do no work of their own, so a loaded machine
    // that pauses the thread mid-step cannot push one past the 100 ms budget.
    const seen = new Set<unknown>();
    while (seen.size <= 5) {
      seen.add(await rt.value("plusOne"));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(rt.states().map((s) => [s.defines[0], s.status])).toEqual([
      ["spin", "rejected"],
      ["ticks", "fulfilled"],
      ["plusOne", "fulfilled"],
    ]);
    rt.dispose();
  });

  it("names the cell whose run overran when it loops over another cell's function", async () => {
    const { rt, byName } = await run(
      [
        "function step(t0: number) { let k = 0; for (let i = 0; i < 10; i++) k += i; return k; }",
        `const caller = (() => { const t0 = Date.now(); while (true) { step(t0); ${guard} } })()`,
      ],
      { cellBudgetMs: 100 },
    );
    expect(byName("caller").error).toMatch(stopped("caller", 100));
    rt.dispose();
  });

  it("front matter cell_budget_ms sets the budget", async () => {
    const { rt, byName } = await run(
      [`const slow = (() => { const t0 = Date.now(); while (true) { ${guard} } })()`],
      {
        frontMatter: "---\ntitle: t\ncell_budget_ms: 120\n---\n",
      },
    );
    expect(byName("slow").error).toMatch(stopped("slow", 120));
    rt.dispose();
  });

  it("in Node, by default, code is not instrumented and a long synchronous cell runs to its end", async () => {
    const { rt, byName } = await run([
      "const busy = (() => { const t = Date.now(); let n = 0; while (Date.now() - t < 300) n++; return n > 0; })()",
      "function shown() { for (;;) return 1; }",
      "const text = shown.toString()",
    ]);
    expect(byName("busy").status).toBe("fulfilled");
    expect(await rt.value("text")).toBe("function shown() { for (;;) return 1; }");
    rt.dispose();
  });

  it("with a budget, values are the same as without one", async () => {
    const cells = [
      "const xs = Array.from({ length: 50 }, (_, i) => (i * 37) % 11)",
      "function* pairs(a: number[]) { for (let i = 0; i + 1 < a.length; i += 2) yield [a[i], a[i + 1]]; }",
      "const summed = [...pairs(xs)].map(([p, q]) => ({ s: p + q })).filter(({ s }) => s % 2)",
      "const labelled = (() => { const out: number[] = []; o: for (const x of xs) { for (const y of [1, 2, 3]) { if (y === x) continue o; if (y > x) break; out.push(x * y); } } return out; })()",
      "const later = await Promise.all(xs.slice(0, 3).map(async (x) => { await null; return x; }))",
    ];
    const values = async (budget?: number) => {
      const { rt } = await run(cells, { cellBudgetMs: budget });
      const out = await Promise.all(["summed", "labelled", "later"].map((n) => rt.value(n)));
      rt.dispose();
      return out;
    };
    expect(await values(10_000)).toEqual(await values());
  });
});
