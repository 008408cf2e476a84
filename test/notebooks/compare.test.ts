// notebooks/compare.md headless on its bundled pair (one run a side): the assumed run-to-run variation is a live
// input, and moving it moves the ranked list's intervals and p-values exactly as compareRuns' runCv and runRateSd
// options do (docs/compare.md, "What one run a side assumes"), while rows that assume nothing stay as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompareRow } from "../../cells/compare/compare-metric";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";
import { join } from "node:path";

const NOTEBOOK = join(import.meta.dirname, "../../notebooks/compare.md");

describe("compare.md's assumed run-to-run variation", () => {
  let r: HeadlessResult;
  beforeAll(async () => {
    r = await runNotebookFile(NOTEBOOK);
  }, 120_000);
  afterAll(() => r?.close());

  const rows = async () =>
    new Map(((await r.runtime.value("changes")) as CompareRow[]).map((x) => [x.key, x] as const));
  const change = async (name: string, value: number) => {
    r.runtime.setInput(name, value);
    await r.runtime.settled(120_000);
    return rows();
  };
  /** rows the assumption applies to: one run a side, a time or amount on both sides, or a rate */
  const assumes = (x: CompareRow) =>
    x.method === "blocks" && (x.scale === "difference" || (x.a > 0 && x.b > 0));

  it("declares both as inputs, at the defaults of compareRuns", async () => {
    expect(r.failedCells.map((c) => c.error)).toEqual([]);
    const inputs = new Map(r.runtime.inputs().map((i) => [i.name, i.value]));
    expect(inputs.get("runCv")).toBe(0.4);
    expect(inputs.get("runRateSd")).toBe(0.2);
  });

  it("widens a time's interval and raises its p when the coefficient of variation grows", async () => {
    const before = await rows();
    const after = await change("runCv", 1);
    const ratios = [...before.values()].filter((x) => assumes(x) && x.scale === "ratio");
    expect(ratios.length).toBeGreaterThan(5);
    for (const x of ratios) {
      const y = after.get(x.key)!;
      // on the log scale each half-width h becomes √(h² + z² ln(1 + cv²) · 2): wider for cv 1 than 0.4
      expect(y.ci[0], x.key).toBeLessThan(x.ci[0]);
      expect(y.ci[1], x.key).toBeGreaterThan(x.ci[1]);
      expect(y.p, x.key).toBeGreaterThanOrEqual(x.p);
      expect(y.change, x.key).toBe(x.change);
    }
    // rates do not take the time's assumption, nor rows of a subject missing on one side
    for (const x of before.values())
      if (!(assumes(x) && x.scale === "ratio")) expect(after.get(x.key)!.ci, x.key).toEqual(x.ci);
    await change("runCv", 0.4);
  }, 120_000);

  it("moves a rate's interval with the rate's assumption, to the bootstrap's own at zero", async () => {
    const before = await rows();
    const after = await change("runRateSd", 0);
    const rates = [...before.values()].filter((x) => assumes(x) && x.scale === "difference");
    expect(rates.length).toBeGreaterThan(0);
    for (const x of rates) {
      const y = after.get(x.key)!;
      expect(y.ci[1] - y.ci[0], x.key).toBeLessThan(x.ci[1] - x.ci[0]);
      // nothing assumed: the interval lies within the observed sides' bootstrap, around the change
      expect(y.ci[0], x.key).toBeLessThanOrEqual(y.change);
      expect(y.ci[1], x.key).toBeGreaterThanOrEqual(y.change);
    }
  }, 120_000);
});
