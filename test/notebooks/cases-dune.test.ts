// The DUNE case-study notebooks headless, as `jankbook run` runs them (test/support/case-notebooks.ts): the
// other half of cases.test.ts, in a file of its own so that the two run side by side.
import { describe, expect, it } from "vitest";
import { CASE_NOTEBOOKS, describeCases } from "../support/case-notebooks";

const DUNE = CASE_NOTEBOOKS.filter((n) => n.startsWith("dune-"));

describe("notebooks/cases: DUNE", () => {
  it("holds the DUNE case notebooks", () => {
    expect(DUNE.length).toBeGreaterThanOrEqual(3);
  });

  describeCases(DUNE);
});
