// A ts cell's last expression is its value (Observable's rule), and rerun() re-executes cells whose code
// did not change ("Run all", a cell's run button, runs added or removed).
import { tableFromArrays, type Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { SqlEngine } from "../../../workspace/db/engine";
import { parseNotebook } from "../../../workspace/notebook/format";
import { analyzeTs } from "../../../workspace/notebook/references";
import { NotebookRuntime, isMarkdown, readsTables } from "../../../workspace/notebook/runtime";

/** A notebook of fenced cells: "sql NAME\n<query>" is a SQL cell bound to NAME, anything else a ts cell. */
function nbOf(...cells: string[]) {
  const fence = (c: string) => {
    const sql = /^sql (\w+)\n([\s\S]*)$/.exec(c);
    return sql ? `\`\`\`sql id=${sql[1]}\n${sql[2]}\n\`\`\`\n` : `\`\`\`ts\n${c}\n\`\`\`\n`;
  };
  return parseNotebook(cells.map(fence).join("\n"));
}

/** Counts queries; each answers with one row {n: the query's ordinal}. */
function countingEngine() {
  let queries = 0;
  const engine: SqlEngine = {
    query: async () => tableFromArrays({ n: Int32Array.from([++queries]) }) as Table,
    insertArrowStream: async () => "created" as const,
    interrupt: async () => {},
    close: async () => {},
  };
  return { engine, queries: () => queries };
}

async function run(engine: SqlEngine | null, cellBudgetMs: number, ...sources: string[]) {
  const rt = new NotebookRuntime({ engine, cellBudgetMs });
  rt.load(nbOf(...sources));
  await rt.settled(10_000);
  return rt;
}

describe("a ts cell's last expression", () => {
  it("analyzeTs marks the final expression statement after other statements, not a lone expression", () => {
    const js = "const a = 1;\na + 1";
    const last = analyzeTs(js).last!;
    // offsets read off the text by hand: `a + 1` starts on line 2 at offset 13 and runs to the end (18)
    expect([last.start, last.end, last.exprStart, last.exprEnd]).toEqual([13, 18, 13, 18]);
    expect(analyzeTs("const a = 1; a + 1;").last).toEqual({ start: 13, end: 19, exprStart: 13, exprEnd: 18 });
    expect(analyzeTs("a + 1").last).toBeUndefined();
    expect(analyzeTs("a + 1;\nconst b = 2;").last).toBeUndefined();
    expect(analyzeTs("const a = 1; a + 1").defines).toEqual(["a"]);
  });

  // [cell, what it displays], budget on and off (the instrumented body must keep the value too)
  const cases: [string, unknown[]][] = [
    ["const a = 1; a + 1", [2]],
    ["const a = 1;\nconst b = a * 10;\nb + a", [11]],
    ["let s = 0;\nfor (const x of [1, 2, 3]) s += x;\ns", [6]],
    ["function f(x: number): number { return x * 3; }\nf(4)", [12]],
    ["const a = 1;\n// a note\n({a, twice: a * 2})", [{ a: 1, twice: 2 }]],
    ["const v = await Promise.resolve(7); v", [7]],
    ["const a = 1; undefined", []],
    ["const a = 1; display(a * 5); a + 100", [5]],
    ["const a = 2;", []],
  ];
  for (const budget of [Infinity, 10_000])
    for (const [source, shown] of cases)
      it(`${JSON.stringify(source)} displays ${JSON.stringify(shown)} (budget ${budget})`, async () => {
        const rt = await run(null, budget, source);
        const [state] = rt.states();
        expect(state!.status).toBe("fulfilled");
        expect(state!.displays).toEqual(shown);
        rt.dispose();
      });

  it("keeps the cell's declarations as its defined names, for other cells", async () => {
    const rt = await run(null, Infinity, "const a = 1;\nconst b = a + 1;\nb * 100", "a + b");
    const [first, second] = rt.states();
    expect(first!.defines).toEqual(["a", "b"]);
    expect(first!.displays).toEqual([200]);
    expect(second!.displays).toEqual([3]);
    expect(await rt.value("b")).toBe(2);
    rt.dispose();
  });

  it("shows a markdown table made after statements (DRAW's top views in triage)", async () => {
    const rt = await run(
      null,
      Infinity,
      "const rows = [{view: 'ImageView', xmlId: 'photo'}];\nmd(`| view | xmlId |\\n|---|---|\\n${rows.map((r) => `| ${r.view} | ${r.xmlId} |`).join('\\n')}`)",
    );
    const shown = rt.states()[0]!.displays[0];
    expect(isMarkdown(shown) && (shown as { text: string }).text).toContain("| ImageView | photo |");
    rt.dispose();
  });

  it("an error in the statements before it rejects the cell, which shows nothing", async () => {
    const rt = await run(null, 10_000, "const a = 1;\nconst b = (null as any).x;\na + b");
    const [state] = rt.states();
    expect(state!.status).toBe("rejected");
    expect(state!.error).toMatch(/reading 'x'/);
    expect(state!.displays).toEqual([]);
    rt.dispose();
  });
});

describe("rerun", () => {
  it("re-executes every cell, or those reading tables, though nothing was edited; dependents follow", async () => {
    const { engine, queries } = countingEngine();
    const rt = await run(
      engine,
      Infinity,
      "sql t\nSELECT 1",
      "const fromTable = t.getChild('n').get(0);",
      "const plain = 5;",
      "const later = await sql`SELECT 2`;",
    );
    expect(queries()).toBe(2);
    const runsOf = () => rt.states().map((s) => s.runs);
    expect(runsOf()).toEqual([1, 1, 1, 1]);
    rt.rerun(readsTables);
    await rt.settled(10_000);
    expect(queries()).toBe(4);
    // the SQL cell and the sql`` cell re-ran; fromTable depends on t and followed; plain did not
    expect(runsOf()).toEqual([2, 2, 1, 2]);
    expect(await rt.value("fromTable")).toBeGreaterThan(2);
    rt.rerun();
    await rt.settled(10_000);
    expect(runsOf()).toEqual([3, 3, 2, 3]);
    rt.dispose();
  });

  it("readsTables: SQL cells and ts cells calling sql, not others", () => {
    const rt = new NotebookRuntime({ engine: null });
    rt.load(nbOf("sql q\nSELECT 1", "const x = await sql`SELECT 1`;", "const y = q.numRows;"));
    expect(rt.states().map((s) => s.id).length).toBe(3);
    const picked: string[] = [];
    rt.rerun((a) => {
      if (readsTables(a)) picked.push(a.defines.join());
      return false;
    });
    expect(picked).toEqual(["q", "x"]);
    rt.dispose();
  });
});
