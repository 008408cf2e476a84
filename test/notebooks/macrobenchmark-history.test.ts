// notebooks/examples/macrobenchmark-history.md headless on a real Macrobenchmark result imported as a folder of
// runs, its values against an independent reading of the JSON; and on a copy where one iteration regressed.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { runNotebookFile, type HeadlessResult } from "../../workspace/node/headless";

const ROOT = join(import.meta.dirname, "../..");
const NOTEBOOK = join(ROOT, "notebooks/examples/macrobenchmark-history.md");
const FIXTURE = join(
  ROOT,
  "test/fixtures/macrobenchmark/measure-sh_view-click-09-12-2024-msr-disabled-benchmarkData.json",
);
const json = JSON.parse(readFileSync(FIXTURE, "utf8"));
const overruns: number[][] = json.benchmarks[0].sampledMetrics.frameOverrunMs.runs;

/** Hyndman-Fan type 6 quantile, written out: h = (n + 1)p on the sorted values, clamped, interpolated. */
function hf6(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = Math.min(Math.max((s.length + 1) * p, 1), s.length);
  const lo = Math.floor(h);
  return s[lo - 1]! + (h - lo) * ((s[Math.min(lo, s.length - 1)] ?? s[lo - 1]!) - s[lo - 1]!);
}
/** DuckDB quantile_cont: linear interpolation at (n - 1)p on the sorted values. */
function cont(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
}

async function importInto(doc: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "jb-macro-nb-"));
  const file = join(dir, "app-benchmarkData.json");
  writeFileSync(file, JSON.stringify(doc));
  await importFiles([file], join(dir, "runs"), { runId: "run", context: ["app=sh.measure.sample"] });
  return join(dir, "runs");
}

describe("macrobenchmark-history.md on the measure-sh result (30 iterations, Pixel 4a)", () => {
  let r: HeadlessResult;
  beforeAll(async () => {
    r = await runNotebookFile(NOTEBOOK, { runs: [await importInto(json)] });
  }, 120_000);
  afterAll(() => r?.close());

  it("runs every cell on 30 runs; the check names the iterations beyond the fence (19 and 28 here)", () => {
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    expect(r.provenance.runs).toHaveLength(30);
    const p90 = overruns.map((o) => cont(o, 0.9));
    const fence = hf6(p90, 0.75) + 1.5 * (hf6(p90, 0.75) - hf6(p90, 0.25));
    const beyond = p90.flatMap((v, i) => (v > fence ? [i] : []));
    expect(beyond).toEqual([19, 28]);
    const id = (i: number) => `run-clickWithSnapshot-i${String(i).padStart(3, "0")}`;
    expect(r.checks.map((c) => [c.name, c.ok, c.detail])).toEqual([
      [
        "no iteration regressed against its history (Outlier+ on p90 overrun)",
        false,
        `Outlier+: ${beyond.map(id).join(", ")}`,
      ],
    ]);
  });

  it("per-iteration frames and overrun percentiles match the JSON", async () => {
    const t = (await r.runtime.value("per_iteration")) as import("apache-arrow").Table;
    expect(t.numRows).toBe(30);
    for (const i of [0, 13, 29]) {
      expect(t.getChild("frames")!.get(i)).toBe(overruns[i]!.length);
      expect(t.getChild("janky")!.get(i)).toBe(0);
      expect(t.getChild("p90_overrun_ms")!.get(i)).toBeCloseTo(cont(overruns[i]!, 0.9), 5);
    }
  });
});

describe("macrobenchmark-history.md when one more iteration regressed", () => {
  let r: HeadlessResult;
  // the first 12 iterations (a shorter history keeps the test quick); iteration 7 every frame 30 ms later
  const changed = overruns.slice(0, 12).map((o, i) => (i === 7 ? o.map((x) => x + 30) : o));
  beforeAll(async () => {
    const doc = structuredClone(json);
    const b = doc.benchmarks[0];
    for (const group of [b.metrics, b.sampledMetrics])
      for (const m of Object.values(group) as { runs: unknown[] }[]) m.runs = m.runs.slice(0, 12);
    b.sampledMetrics.frameOverrunMs.runs = changed;
    r = await runNotebookFile(NOTEBOOK, { runs: [await importInto(doc)] });
  }, 120_000);
  afterAll(() => r?.close());

  it("names it as an Outlier+, with whatever else the new fence puts beyond it", () => {
    const p90 = changed.map((o) => cont(o, 0.9));
    const fence = hf6(p90, 0.75) + 1.5 * (hf6(p90, 0.75) - hf6(p90, 0.25));
    const beyond = p90.flatMap((v, i) => (v > fence ? [i] : []));
    expect(beyond).toContain(7);
    expect(r.failedChecks.map((c) => c.detail)).toEqual([
      `Outlier+: ${beyond.map((i) => `run-clickWithSnapshot-i${String(i).padStart(3, "0")}`).join(", ")}`,
    ]);
  });
});
