// The acceptance of the comparison on the simulator's cases (bench/compare/sim-pairs.ts): for one case of each
// family, 8 runs of the healthy scenario against 8 of the buggy one (other seeds) put the planted change (the
// task group, view, UI event or method the case is about, from the scenario's ground truth) first in "what
// changed most", significant; 8 healthy runs against 8 more at other seeds (A/A) show no significant change.
// The bench (`npm run bench -- compare`) runs every case over many seeds and noise levels.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareRuns, judgeRuns, measureRuns } from "../../../cells/compare/compare-runs";
import { readSides } from "../../../bench/compare/read-sides";
import { SIM_CASES, writeSimRun } from "../../../bench/compare/sim-pairs";

const RUNS = 8;
const root = await mkdtemp(join(tmpdir(), "jb-compare-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe.each(["openlaw", "faceq", "k9", "context-switch"])("the %s case", (name) => {
  const c = SIM_CASES.find((x) => x.name === name)!;

  it(`puts its planted change (${c.family}) first and significant, ${RUNS} runs against ${RUNS}`, async () => {
    const healthy = [];
    const buggy = [];
    for (let s = 1; s <= RUNS; s++) {
      healthy.push(await writeSimRun(root, c, false, s));
      buggy.push(await writeSimRun(root, c, true, 100 + s));
    }
    const { sides, tables } = await readSides(
      healthy.map((r) => r.dir),
      buggy.map((r) => r.dir),
    );
    const { rows } = compareRuns(tables, sides);
    const top = rows[0]!;
    expect(buggy[0]!.planted!(top), `${top.analysis}: ${top.subject}: ${top.measure}`).toBe(true);
    expect(top.significant).toBe(true);
    expect(top.direction).toBe("regression");
    expect(top.method).toBe("runs");
  }, 120_000);

  it(`shows no significant change between ${RUNS} healthy runs and ${RUNS} more (A/A)`, async () => {
    const a = [];
    const b = [];
    for (let s = 1; s <= RUNS; s++) {
      a.push(await writeSimRun(root, c, false, s));
      b.push(await writeSimRun(root, c, false, 200 + s));
    }
    const { sides, tables } = await readSides(
      a.map((r) => r.dir),
      b.map((r) => r.dir),
    );
    const { rows } = compareRuns(tables, sides);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => r.significant).map((r) => `${r.subject}: ${r.measure}`)).toEqual([]);
  }, 120_000);
});

describe("measured once, judged at many thresholds (the compare notebook's sliders)", () => {
  it("gives at each α and minimum effect the rows a whole comparison gives, whatever was judged before", async () => {
    const c = SIM_CASES.find((x) => x.name === "openlaw")!;
    const healthy = [];
    const buggy = [];
    for (let s = 1; s <= 3; s++) {
      healthy.push(await writeSimRun(root, c, false, 300 + s));
      buggy.push(await writeSimRun(root, c, true, 400 + s));
    }
    const { sides, tables } = await readSides(
      healthy.map((r) => r.dir),
      buggy.map((r) => r.dir),
    );
    const measured = measureRuns(tables, sides);
    const thresholds = [
      { alpha: 0.2, minEffect: 0 },
      { alpha: 0.01, minEffect: 0.5 },
      { alpha: 0.05, minEffect: 0.1 },
    ];
    const significant = new Set<number>();
    for (const t of thresholds) {
      const judged = judgeRuns(measured, t);
      expect(judged.rows).toEqual(compareRuns(tables, sides, t).rows);
      significant.add(judged.rows.filter((r) => r.significant).length);
    }
    // the thresholds matter here: not every setting finds the same number of significant rows
    expect(significant.size).toBeGreaterThan(1);
  }, 120_000);
});
