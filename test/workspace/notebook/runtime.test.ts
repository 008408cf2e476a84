import { tableFromArrays, type Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { SqlEngine } from "../../../workspace/db/engine";
import { cells, parseNotebook } from "../../../workspace/notebook/format";
import { isPlotSpec } from "../../../charts/plot-spec";
import { NotebookRuntime, isMarkdown, type CellState } from "../../../workspace/notebook/runtime";

/** Waits until the runtime has reacted as `cond` says (no fixed sleep: a state that never comes fails by the
 * test's timeout). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

const nbOf = (...sources: string[]) =>
  parseNotebook(
    sources
      .map((s) =>
        s.startsWith("sql ")
          ? "```sql id=" + s.slice(4).split("\n")[0] + "\n" + s.split("\n").slice(1).join("\n") + "\n```\n"
          : "```ts\n" + s + "\n```\n",
      )
      .join("\n"),
  );

/** An engine whose queries resolve when the test says so; with `interruptible`, interrupt() rejects those in flight. */
function fakeEngine(interruptible = false) {
  const calls: {
    sql: string;
    params: unknown[];
    resolve(t: Table): void;
    reject(e: Error): void;
    done: boolean;
  }[] = [];
  let interrupts = 0;
  const engine: SqlEngine = {
    query: (sql, params = []) =>
      new Promise<Table>((resolve, reject) => {
        const call = {
          sql,
          params: [...params],
          done: false,
          resolve: (t: Table) => ((call.done = true), resolve(t)),
          reject: (e: Error) => ((call.done = true), reject(e)),
        };
        calls.push(call);
      }),
    insertArrowStream: async () => "created" as const,
    interrupt: async () => {
      interrupts++;
      if (interruptible) for (const c of calls) if (!c.done) c.reject(new Error("INTERRUPT"));
    },
    close: async () => {},
  };
  return { engine, calls, interrupts: () => interrupts };
}

async function start(nbText: ReturnType<typeof nbOf>, engine: SqlEngine | null = null) {
  const log: CellState[] = [];
  const rt = new NotebookRuntime({ engine, onCell: (s) => log.push(s) });
  rt.load(nbText);
  return { rt, log, byDefine: (name: string) => rt.states().find((s) => s.defines.includes(name))! };
}

describe("NotebookRuntime", () => {
  it("re-runs exactly the dependents of an edited cell", async () => {
    const { rt, byDefine } = await start(
      nbOf("const a = 1;", "const b = a + 1;", "const c = 10;", "const d = c * 2;", "const e = b + d;"),
    );
    await rt.settled();
    expect(await rt.value("e")).toBe(22);
    const runs = () => ["a", "b", "c", "d", "e"].map((n) => byDefine(n).runs);
    expect(runs()).toEqual([1, 1, 1, 1, 1]);
    const newId = rt.setCellSource(byDefine("a").id, "const a = 5;");
    await rt.settled();
    expect(runs()).toEqual([2, 2, 1, 1, 2]);
    expect(await rt.value("e")).toBe(26);
    expect(rt.state(newId)?.defines).toEqual(["a"]);
    expect(cells(rt.notebook)[0]!.source).toBe("const a = 5;\n");
    rt.dispose();
  });

  it("a cell that stops defining a name breaks only its dependents, and fixing it heals them", async () => {
    const { rt, byDefine } = await start(nbOf("const a = 1;", "const b = a * 2;", "const c = 3;"));
    await rt.settled();
    const id = byDefine("a").id;
    const id2 = rt.setCellSource(id, "const renamed = 1;");
    await rt.settled();
    expect(byDefine("b")).toMatchObject({ status: "rejected", error: "a is not defined" });
    expect(byDefine("c")).toMatchObject({ status: "fulfilled", runs: 1 });
    rt.setCellSource(id2, "const a = 4;");
    await rt.settled();
    expect(await rt.value("b")).toBe(8);
    rt.dispose();
  });

  it("shows a thrown exception in place; the rest keeps working", async () => {
    const boom: Partial<CellState> = { status: "rejected", error: "boom at 1" };
    // each cell beside the state it settles in
    const notebook: [string, Partial<CellState>][] = [
      ["const a = 1;", { status: "fulfilled" }],
      ["const b = (() => { throw new Error('boom at ' + a); })();", boom],
      ["const c = b + 1;", boom],
      ["const d = a + 1;", { status: "fulfilled", value: { d: 2 } }],
    ];
    const { rt } = await start(nbOf(...notebook.map(([source]) => source)));
    await rt.settled();
    notebook.forEach(([source, state], i) => expect(rt.states()[i], source).toMatchObject(state));
    rt.dispose();
  });

  it("reports cycles, duplicates and undefined names on those cells and their dependents only", async () => {
    const { rt, byDefine } = await start(
      nbOf(
        "const p = q + 1;",
        "const q = p + 1;",
        "const dep = p;",
        "const x = 1;",
        "const x = 2;",
        "const usesX = x;",
        "const u = nope;",
        "const fine = 7;",
      ),
    );
    await rt.settled();
    expect(byDefine("p").error).toMatch(/^circular definition: /);
    expect(byDefine("q").error).toMatch(/^circular definition: /);
    expect(byDefine("dep").status).toBe("rejected");
    const xs = rt.states().filter((s) => s.defines.includes("x"));
    expect(xs.map((s) => s.error)).toEqual([
      "x is defined more than once (2 cells)",
      "x is defined more than once (2 cells)",
    ]);
    expect(byDefine("usesX")).toMatchObject({ status: "rejected", error: "x is defined more than once" });
    expect(byDefine("u")).toMatchObject({
      status: "rejected",
      error: "nope is not defined",
      undefinedReferences: ["nope"],
    });
    expect(byDefine("fine")).toMatchObject({ status: "fulfilled" });
    // Removing the duplicate heals both the remaining definer and its dependent.
    rt.setCellSource(xs[1]!.id, "const y = 2;");
    await rt.settled();
    expect(byDefine("usesX")).toMatchObject({ status: "fulfilled", value: { usesX: 1 } });
    rt.dispose();
  });

  it("displays: one-expression cells show their value; display() and md; plot specs", async () => {
    const { rt } = await start(
      nbOf(
        "1 + 2",
        "display('x'); display(md`# ${3}`)",
        "plot({mark: 'dot', data: [{a: 1}], x: 'a'})",
        "const hidden = 4;",
      ),
    );
    await rt.settled();
    const [a, b, c, d] = rt.states();
    expect(a!.displays).toEqual([3]);
    expect(b!.displays[0]).toBe("x");
    expect(isMarkdown(b!.displays[1]) && (b!.displays[1] as { text: string }).text).toBe("# 3");
    expect(isPlotSpec(c!.displays[0])).toBe(true);
    expect(d!.displays).toEqual([]);
    rt.dispose();
  });

  it("a cell ending in check(...) lists the check and shows no true or false; other last expressions still show", async () => {
    const { rt } = await start(
      nbOf(
        "check('one is one', 1 === 1)",
        "const n = 2;\ncheck('n is two', n === 2, `n = ${n}`)",
        "const m = 3;\ncheck('m is four', m === 4);\nm * 2",
      ),
    );
    await rt.settled();
    const [a, b, c] = rt.states();
    expect([a!.displays, b!.displays, c!.displays]).toEqual([[], [], [6]]);
    expect(rt.checks().map((k) => [k.name, k.ok])).toEqual([
      ["one is one", true],
      ["n is two", true],
      ["m is four", false],
    ]);
    rt.dispose();
  });

  it("inputs() lists inputs in notebook order, not in the order their cells happened to run", async () => {
    const { engine, calls } = fakeEngine();
    const nb = nbOf(
      "sql slow\nSELECT 1",
      "const late = view(Inputs.range([0, 9], {label: 'late', value: slow.numRows}));",
      "const early = view(Inputs.select(['a', 'b'], {label: 'early'}));",
    );
    const { rt } = await start(nb, engine);
    await until(() => calls.length > 0 && rt.inputs().length > 0);
    expect(rt.inputs().map((i) => i.name)).toEqual(["early"]); // the first input waits on its query
    calls[0]!.resolve(tableFromArrays({ x: Int32Array.from([1, 2, 3]) }));
    await rt.settled();
    expect(rt.inputs().map((i) => [i.name, i.value, i.label])).toEqual([
      ["late", 3, "late"],
      ["early", "a", "early"],
    ]);
    rt.dispose();
  });

  it("inputs: view() yields the default, setInput re-runs the dependents, --set-style text is coerced", async () => {
    const nb = nbOf(
      "const tauMs = view(Inputs.range([50, 2000], {label: 'τ (ms)', value: 500, step: 10}));",
      "const doubled = tauMs * 2;",
      "const other = 1;",
    );
    const { rt, byDefine } = await start(nb);
    await rt.settled();
    expect(await rt.value("doubled")).toBe(1000);
    expect(rt.inputs()).toMatchObject([{ name: "tauMs", value: 500, label: "τ (ms)", kind: "range" }]);
    rt.setInput("tauMs", "300");
    await rt.settled();
    expect(await rt.value("doubled")).toBe(600);
    expect(byDefine("doubled").runs).toBe(2);
    expect(byDefine("other").runs).toBe(1);
    expect(byDefine("tauMs").runs).toBe(1); // the input cell itself does not re-run
    rt.dispose();

    // Set before load (the CLI's --set): the first value is already the override.
    const rt2 = new NotebookRuntime({ engine: null });
    rt2.setInput("tauMs", "120");
    rt2.load(nb);
    await rt2.settled();
    expect(await rt2.value("doubled")).toBe(240);
    rt2.dispose();
  });

  it("headless Inputs defaults match @observablehq/inputs", async () => {
    // each input beside its default, the value its cell's name takes
    const defaults: [string, string, unknown][] = [
      ["r", "Inputs.range([0, 10])", 5],
      ["s", "Inputs.select(['a', 'b'])", "a"],
      ["c", "Inputs.checkbox(['a', 'b'])", []],
      ["t", "Inputs.toggle({value: true})", true],
      ["q", "Inputs.radio(['x', 'y'], {value: 'y'})", "y"],
    ];
    const { rt } = await start(nbOf(...defaults.map(([name, input]) => `const ${name} = view(${input});`)));
    await rt.settled();
    for (const [name, input, value] of defaults) expect(await rt.value(name), input).toEqual(value);
    rt.dispose();
  });

  it("checks are recorded per run and cleared when an upstream cell fails", async () => {
    const { rt, byDefine } = await start(
      nbOf("const v = 3;", "check('v small', v < 5, 'v=' + v); check('v odd', v % 2 === 1);"),
    );
    await rt.settled();
    expect(rt.checks().map((c) => [c.name, c.ok, c.detail])).toEqual([
      ["v small", true, "v=3"],
      ["v odd", true, undefined],
    ]);
    rt.setCellSource(byDefine("v").id, "const v = 8;");
    await rt.settled();
    expect(rt.checks().map((c) => c.ok)).toEqual([false, false]);
    rt.setCellSource(byDefine("v").id, "const v = (() => { throw new Error('no v'); })();");
    await rt.settled();
    expect(rt.checks()).toEqual([]);
    rt.dispose();
  });

  it("SQL cells bind ${} as parameters, bind their table to their id, and display it", async () => {
    const f = fakeEngine();
    const { rt, byDefine } = await start(
      nbOf(
        "const lo = 3;",
        "sql big\nSELECT * FROM t WHERE x > ${lo * 2} AND y = ${'a'}",
        "const n = big.numRows;",
      ),
      f.engine,
    );
    await until(() => f.calls.length > 0);
    expect(f.calls.map((c) => [c.sql, c.params])).toEqual([
      ["SELECT * FROM t WHERE x > ? AND y = ?\n", [6, "a"]],
    ]);
    const table = tableFromArrays({ x: Int32Array.from([7, 8]) });
    f.calls[0]!.resolve(table);
    await rt.settled();
    expect(await rt.value("n")).toBe(2);
    expect(byDefine("big").displays).toEqual([table]);
    rt.dispose();
  });

  const staleNb = () =>
    nbOf(
      "const k = view(Inputs.range([0, 10], {value: 1}));",
      "sql q\nSELECT ${k} AS k",
      "const got = q.getChild('k').get(0);",
      "sql other\nSELECT 42",
    );
  const qCalls = (f: ReturnType<typeof fakeEngine>) => f.calls.filter((c) => c.sql.includes("AS k"));
  const otherCalls = (f: ReturnType<typeof fakeEngine>) => f.calls.filter((c) => c.sql.includes("42"));
  const seenK = (log: CellState[]) =>
    log
      .filter((s) => s.name === "q" && s.status === "fulfilled")
      .map((s) => (s.value as Table).getChild("k")!.get(0));

  it("a re-run interrupts the stale query; a query interrupted as collateral runs again", async () => {
    const f = fakeEngine(true);
    const { rt, log, byDefine } = await start(staleNb(), f.engine);
    await until(() => qCalls(f).length > 0 && otherCalls(f).length > 0);
    expect(qCalls(f).map((c) => c.params)).toEqual([[1]]);
    expect(otherCalls(f).length).toBe(1);
    rt.setInput("k", 2);
    await until(() => f.interrupts() > 0 && qCalls(f).length > 1 && otherCalls(f).length > 1);
    expect(f.interrupts()).toBe(1);
    // q's stale query and `other` (same connection) were interrupted; q re-ran with k = 2, other retried.
    expect(qCalls(f).map((c) => c.params)).toEqual([[1], [2]]);
    expect(otherCalls(f).length).toBe(2);
    qCalls(f)[1]!.resolve(tableFromArrays({ k: Int32Array.from([2]) }));
    otherCalls(f)[1]!.resolve(tableFromArrays({ v: Int32Array.from([42]) }));
    await rt.settled();
    expect(await rt.value("got")).toBe(2);
    expect(byDefine("other").status).toBe("fulfilled");
    expect(seenK(log)).toEqual([2]);
    rt.dispose();
  });

  it("a ts cell's sql`...` interrupted as collateral runs again, as a SQL cell's query does", async () => {
    const f = fakeEngine(true);
    const { rt, byDefine } = await start(
      nbOf(
        "const k = view(Inputs.range([0, 10], {value: 1}));",
        "sql q\nSELECT ${k} AS k",
        "const other = (await sql`SELECT 42 AS v`).getChild('v').get(0);",
      ),
      f.engine,
    );
    await until(() => qCalls(f).length > 0 && otherCalls(f).length > 0);
    expect(otherCalls(f).length).toBe(1);
    rt.setInput("k", 2);
    await until(() => f.interrupts() > 0 && qCalls(f).length > 1 && otherCalls(f).length > 1);
    expect(f.interrupts()).toBe(1);
    expect(otherCalls(f).length).toBe(2); // retried, not failed with INTERRUPT
    otherCalls(f)[1]!.resolve(tableFromArrays({ v: Int32Array.from([42]) }));
    qCalls(f)[1]!.resolve(tableFromArrays({ k: Int32Array.from([2]) }));
    await rt.settled();
    expect(byDefine("other").status).toBe("fulfilled");
    expect(await rt.value("other")).toBe(42);
    rt.dispose();
  });

  it("a stale query's late result is ignored when the engine cannot interrupt it", async () => {
    const f = fakeEngine(false);
    const { rt, log, byDefine } = await start(staleNb(), f.engine);
    await until(() => qCalls(f).length > 0 && otherCalls(f).length > 0);
    otherCalls(f)[0]!.resolve(tableFromArrays({ v: Int32Array.from([42]) }));
    rt.setInput("k", 2);
    await until(() => f.interrupts() > 0);
    expect(f.interrupts()).toBe(1);
    qCalls(f)[0]!.resolve(tableFromArrays({ k: Int32Array.from([1]) })); // late, stale
    await until(() => qCalls(f).length > 1);
    expect(qCalls(f).map((c) => c.params)).toEqual([[1], [2]]);
    qCalls(f)[1]!.resolve(tableFromArrays({ k: Int32Array.from([2]) }));
    await rt.settled();
    expect(await rt.value("got")).toBe(2);
    expect(seenK(log)).toEqual([2]);
    expect(byDefine("got").runs).toBe(1);
    rt.dispose();
  });

  it("a SQL error rejects that cell and its dependents only", async () => {
    const f = fakeEngine();
    const { rt, byDefine } = await start(
      nbOf("sql bad\nSELEC 1", "const n = bad.numRows;", "const ok = 1;"),
      f.engine,
    );
    await until(() => f.calls.length > 0);
    f.calls[0]!.reject(new Error('Parser Error: syntax error at or near "SELEC"'));
    await rt.settled();
    expect(byDefine("bad")).toMatchObject({
      status: "rejected",
      error: 'Parser Error: syntax error at or near "SELEC"',
    });
    expect(byDefine("n").status).toBe("rejected");
    expect(byDefine("ok").status).toBe("fulfilled");
    rt.dispose();
  });

  it("load() of an edited notebook reconciles: unchanged cells keep their state, removed ones go", async () => {
    const { rt, byDefine } = await start(nbOf("const a = 1;", "const b = 2;", "const c = a + b;"));
    await rt.settled();
    rt.load(nbOf("const a = 1;", "const b = 5;", "const c = a + b;", "const d = c;"));
    await rt.settled();
    expect(["a", "b", "c", "d"].map((n) => byDefine(n).runs)).toEqual([1, 1, 2, 1]);
    expect(await rt.value("d")).toBe(6);
    rt.load(nbOf("const a = 1;"));
    await rt.settled();
    expect(rt.states().length).toBe(1);
    await expect(rt.value("d")).rejects.toThrow(/d is not defined/);
    rt.dispose();
  });
});
