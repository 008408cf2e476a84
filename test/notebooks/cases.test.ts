// Every case-study notebook but the DUNE ones (those are cases-dune.test.ts, so that the two halves run side by
// side) headless, as `jankbook run` runs it (test/support/case-notebooks.ts); the first notebook also goes
// through the CLI both ways for its exit codes, 0 and 1.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CASE_NOTEBOOKS, CASES_DIR, cli, describeCases, healthyRuns } from "../support/case-notebooks";

describe("notebooks/cases", () => {
  it("holds the case notebooks, each naming healthy runs that exist", () => {
    expect(CASE_NOTEBOOKS.length).toBeGreaterThanOrEqual(5);
    for (const name of CASE_NOTEBOOKS) {
      const healthy = healthyRuns(join(CASES_DIR, name));
      expect(healthy, `${name}: healthy:`).not.toEqual([]);
      for (const dir of healthy) expect(existsSync(join(dir, "manifest.json")), dir).toBe(true);
    }
  });

  it("jankbook run exits 0 on the first notebook's runs and 1 on its healthy runs, naming the check", async () => {
    const nb = join(CASES_DIR, CASE_NOTEBOOKS[0]!);
    expect(await cli(nb)).toEqual({ code: 0, failed: [] });
    const healthy = await cli(nb, ...healthyRuns(nb).flatMap((d) => ["--runs", d]));
    expect(healthy.code).toBe(1);
    expect(healthy.failed.length).toBeGreaterThan(0);
    // the report names checks the notebook states, each a finding of the case
    const source = readFileSync(nb, "utf8");
    for (const name of healthy.failed) expect(source).toContain(`check(${JSON.stringify(name)}`);
  }, 300_000); // a hang guard: two runs, each starting its engine and notebook worker (120 s was not enough at load 27)

  describeCases(CASE_NOTEBOOKS.filter((n) => !n.startsWith("dune-")));
});
