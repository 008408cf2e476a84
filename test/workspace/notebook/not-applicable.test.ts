import { tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { TABLE_NAMES } from "../../../bundle/schema";
import { TABLE_SOURCES, isBundleTable, tableSource } from "../../../bundle/table-sources";
import type { SqlEngine } from "../../../workspace/db/engine";
import { cellFailed, cellStatusName } from "../../../workspace/notebook/cell-state";
import { parseNotebook } from "../../../workspace/notebook/format";
import {
  NotApplicableError,
  explainLoadFailures,
  notApplicableReason,
  queryFailure,
} from "../../../workspace/notebook/load-failures";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";

// DuckDB's own message for a table that is not there (DuckDB 1.4/1.5 Catalog Error).
const missing = (table: string, guess = "threads") =>
  new Error(`Catalog Error: Table with name ${table} does not exist!\nDid you mean "${guess}"?`);

describe("what a run would need, per table", () => {
  it("every table of the bundle contract says how a run gets it", () => {
    expect(TABLE_NAMES.filter((t) => !(t in TABLE_SOURCES))).toEqual([]);
    for (const t of TABLE_NAMES) expect(tableSource(t)).toMatch(/^no [^:]+: .{12,}/);
  });

  it("sched data names the ftrace events to record", () => {
    expect(tableSource("thread_states")).toBe(
      "no sched data: record with linux.ftrace sched/sched_switch and sched/sched_waking",
    );
  });

  it("only the contract's tables count as lacking; anything else is a typo", () => {
    expect(isBundleTable("methods")).toBe(true);
    expect(isBundleTable("metods")).toBe(false);
  });
});

describe("queryFailure", () => {
  const loaded = [{ run_id: "a", dir: "/runs/a", errors: [] }];

  it("a contract table no run has is not applicable, with what the run would need", () => {
    const e = queryFailure(missing("methods"), loaded);
    expect(e).toBeInstanceOf(NotApplicableError);
    expect(notApplicableReason(e)).toBe(tableSource("methods"));
    expect((e as Error).message).toBe(`not applicable: ${tableSource("methods")}`);
  });

  it("a misspelt table stays DuckDB's error, the very same object", () => {
    const original = missing("metods", "methods");
    expect(queryFailure(original, loaded)).toBe(original);
    expect(notApplicableReason(original)).toBeUndefined();
  });

  it("a table that failed to load is a load failure, not a lack", () => {
    const e = queryFailure(missing("frames"), [
      { run_id: "a", dir: "/runs/a", errors: ["/runs/a/frames.arrows: table frames: not Arrow IPC"] },
    ]);
    expect(notApplicableReason(e)).toBeUndefined();
    expect((e as Error).message).toMatch(/^table frames is missing because loading failed/);
  });

  it("other errors pass through", () => {
    const e = new Error('Binder Error: Referenced column "durr" not found');
    expect(queryFailure(e, loaded)).toBe(e);
  });
});

describe("not-applicable cells in the runtime", () => {
  // An engine with one table, `frames`; DuckDB's catalog error for any other FROM.
  const engine: SqlEngine = {
    query: async (sql) => {
      const table = /FROM (\w+)/i.exec(sql)?.[1];
      if (table !== "frames") throw missing(table ?? "?");
      return tableFromArrays({ n: Int32Array.from([3]) });
    },
    insertArrowStream: async () => "created" as const,
    interrupt: async () => {},
    close: async () => {},
  };
  const notebook = parseNotebook(
    [
      "```sql id=frames_n\nSELECT count(*) AS n FROM frames\n```",
      "```sql id=calls_n\nSELECT count(*) AS n FROM calls\n```",
      "```ts\nconst perCall = calls_n.numRows + frames_n.numRows;\n```",
      '```ts\ncheck("calls were traced", perCall > 0);\n```',
      "```sql id=typo\nSELECT * FROM frams\n```",
      "```ts\nconst broken = (() => { throw new Error('boom'); })();\n```",
    ].join("\n\n"),
  );

  it("a cell reading a table the runs lack, and its dependents, are not applicable; real failures stay failures", async () => {
    const rt = new NotebookRuntime({ engine: explainLoadFailures(engine, []) });
    rt.load(notebook);
    await rt.settled();
    const byName = (n: string) => rt.states().find((s) => s.name === n || s.defines.includes(n))!;
    const calls = tableSource("calls");
    expect(byName("frames_n")).toMatchObject({ status: "fulfilled" });
    expect(byName("calls_n")).toMatchObject({ status: "rejected", notApplicable: calls });
    // the dependent gets a new error from the runtime (same message), and still counts as not applicable
    expect(byName("perCall")).toMatchObject({ status: "rejected", notApplicable: calls });
    expect(rt.checks()).toEqual([]);
    expect(cellStatusName(byName("perCall"))).toBe("not-applicable");
    expect(cellFailed(byName("perCall"))).toBe(false);
    expect(byName("typo")).toMatchObject({ status: "rejected", notApplicable: undefined });
    expect(byName("typo").error).toMatch(/Table with name frams does not exist/);
    expect(cellFailed(byName("typo"))).toBe(true);
    expect(byName("broken")).toMatchObject({ status: "rejected", error: "boom", notApplicable: undefined });
    rt.dispose();
  });

  it("without the wrapper (no knowledge of the contract) the same cells simply fail", async () => {
    const rt = new NotebookRuntime({ engine });
    rt.load(notebook);
    await rt.settled();
    // the check cell (it defines nothing) fails with its input
    expect(
      rt
        .states()
        .filter(cellFailed)
        .map((s) => s.name ?? s.defines.join(",")),
    ).toEqual(["calls_n", "perCall", "", "typo", "broken"]);
    rt.dispose();
  });
});
