import { describe, expect, it } from "vitest";
import { CellGate } from "../../../workspace/notebook/cell-gate";
import { explainQueryError, loadErrorsFor } from "../../../workspace/notebook/load-failures";

describe("CellGate", () => {
  it("lets waiting cells start in notebook order, whatever order they asked in", async () => {
    const gate = new CellGate();
    const started: number[] = [];
    await Promise.all([3, 0, 2, 1].map((p) => gate.wait(p).then(() => started.push(p))));
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("waits for `ready` before each start", async () => {
    let open = false;
    const gate = new CellGate(() => new Promise((r) => setTimeout(() => ((open = true), r()), 20)));
    await gate.wait(0);
    expect(open).toBe(true);
  });
});

describe("load failures in query errors", () => {
  const runs = [
    { run_id: "a", dir: "/runs/a", errors: ["/runs/a/frames.arrows: table frames: not Arrow IPC"] },
    { run_id: "b", dir: "/runs/b", errors: ["tables.x: unknown table"], failed: true },
  ];

  it("a missing table that failed to load gets the load error instead of DuckDB's guess", () => {
    expect(
      explainQueryError(
        'Catalog Error: Table with name frames does not exist!\nDid you mean "pg_namespace"?',
        runs,
      ),
    ).toBe(
      "table frames is missing because loading failed: /runs/a/frames.arrows: table frames: not Arrow IPC; run /runs/b did not load: tables.x: unknown table",
    );
  });

  it("other errors, and tables nothing says failed, keep DuckDB's message", () => {
    expect(explainQueryError("Binder Error: no column x", runs)).toBe("Binder Error: no column x");
    expect(loadErrorsFor("ui_events", [runs[0]!])).toEqual([]);
  });
});
