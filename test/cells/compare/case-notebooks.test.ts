// The acceptance of the comparison on the bundled case runs: for every case notebook (notebooks/cases/*.md,
// listed from the folder), its healthy runs (front matter `healthy:`) against its buggy ones (`runs:` less those)
// put the planted change first in "what changed most" and mark it significant. The planted change is read from
// each buggy run's ground_truth.json (bench/compare/case-pairs.ts). A case whose finding rests on a few tasks, calls
// or UI-event buckets a recording has 8 recordings a side (samples/cases-dune-draw.ts, RECORDINGS), so its pair is
// a test over runs. In process, through the bench's reader, not a spawned CLI per case:
// test/workspace/node/compare-load.test.ts checks that the CLI's loader gives the same list.
import { describe, expect, it } from "vitest";
import { casePairs, casePlanted } from "../../../bench/compare/case-pairs";
import { readSides } from "../../../bench/compare/read-sides";
import { compareRuns } from "../../../cells/compare/compare-runs";

const PAIRS = casePairs();

describe("every case notebook's buggy runs against its healthy runs", () => {
  it("lists every case notebook, each with both sides", () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(15);
    for (const p of PAIRS) {
      expect(p.healthy.length, p.notebook).toBeGreaterThan(0);
      expect(p.buggy.length, p.notebook).toBeGreaterThan(0);
    }
  });

  const check = async (pair: (typeof PAIRS)[number]) => {
    const planted = await casePlanted(pair);
    const { sides, tables } = await readSides(pair.healthy, pair.buggy);
    const { rows } = compareRuns(tables, sides);
    const top = rows[0]!;
    const where = rows.findIndex(planted);
    const said = `first: ${top.analysis}: ${top.subject}: ${top.measure} (q ${top.q}); planted at ${where + 1}`;
    expect(planted(top), said).toBe(true);
    expect(top.significant, said).toBe(true);
    expect(top.direction, said).toBe("regression");
  };

  it.each(PAIRS.map((p) => [p.notebook, p] as const))(
    "%s: the planted change is first and significant",
    (_, pair) => check(pair),
    60_000,
  );
});
