import { describe, expect, it } from "vitest";
import { failUnsettledCells } from "../../../workspace/node/unsettled-cells";
import { reportOk } from "../../../workspace/node/headless-report";

describe("failUnsettledCells", () => {
  it("fails only the cells still pending, keeping the others' status and error", () => {
    const cells = [
      { id: "a", status: "fulfilled" as const },
      { id: "checks", status: "pending" as const },
      { id: "b", status: "rejected" as const, error: "x is not defined" },
      { id: "c", status: "pending" as const },
    ];
    const marked = failUnsettledCells(cells, "never settled");
    expect(marked).toBe(2);
    expect(cells.map((c) => [c.id, c.status, "error" in c ? c.error : undefined])).toEqual([
      ["a", "fulfilled", undefined],
      ["checks", "rejected", "never settled"],
      ["b", "rejected", "x is not defined"],
      ["c", "rejected", "never settled"],
    ]);
  });

  it("marks nothing when every cell settled", () => {
    const cells = [{ status: "fulfilled" as const }, { status: "rejected" as const, error: "boom" }];
    expect(failUnsettledCells(cells, "never settled")).toBe(0);
    expect(cells.map((c) => c.status)).toEqual(["fulfilled", "rejected"]);
  });

  it("turns a run whose check cell was lost from a silent pass into a failure", () => {
    // What a runner holds when the check cell's result never arrived: no checks recorded, no failed cell.
    const states = [
      {
        id: "frames",
        status: "fulfilled" as "pending" | "fulfilled" | "rejected",
        error: undefined as string | undefined,
      },
      {
        id: "verdict",
        status: "pending" as "pending" | "fulfilled" | "rejected",
        error: undefined as string | undefined,
      },
    ];
    const result = () => ({
      failedCells: states.filter((s) => s.status === "rejected"),
      failedChecks: [],
      loadErrors: [],
      setErrors: [],
      stopped: null,
    });
    expect(reportOk(result() as never)).toBe(true);
    failUnsettledCells(states, "never settled");
    expect(reportOk(result() as never)).toBe(false);
    expect(result().failedCells.map((s) => s.id)).toEqual(["verdict"]);
  });
});
