// The headless runner on the sample run, and the headless half of the browser/headless parity check.
import { mkdirSync, mkdtempSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { cleanNotebookRun } from "../../support/clean-notebook-run";
import { suiteEngine } from "../../support/suite-engine";
import { parseNotebook } from "../../../workspace/notebook/format";
import { headlessSnapshot, resolveRunDirs, SAMPLES_DIR } from "../../../workspace/node/headless";
import { matchRunNames } from "../../../workspace/notebook/runs";

const ROOT = join(import.meta.dirname, "../../..");
const EXAMPLE = join(ROOT, "notebooks/examples/frames-overview.md");

const engine = suiteEngine(createNodeEngine);

describe("runNotebookFile", () => {
  it("runs the example on the sample run: tables bound, input default, check recorded", async () => {
    await cleanNotebookRun(EXAMPLE, { engine }, async (r) => {
      expect(r.provenance.runs.map((x) => [x.run_id, x.device_model, x.started_at])).toEqual([
        ["synthetic-feed-scroll", "Pixel 4a", "2026-11-01T10:00:00.000Z"],
      ]);
      expect(r.provenance.inputs).toEqual([
        { name: "budgetMs", value: 16.7, label: "slow-frame budget (ms)" },
      ]);
      const frames = (await r.runtime.value("frame_times")) as { numRows: number };
      expect(frames.numRows).toBe(1800);
      // Independent truth: the same count straight from DuckDB.
      const slow = await engine.query(
        "SELECT count(*)::INTEGER AS n FROM frames WHERE duration / 1e6 > 16.7",
      );
      expect(await r.runtime.value("slowShare")).toBeCloseTo(
        (slow.getChild("n")!.get(0) as number) / 1800,
        12,
      );
      expect(r.checks.map((c) => c.name)).toEqual(["most frames are smooth"]);
    });
  });

  it("snapshots are plain JSON and identical run to run (the parity baseline)", async () => {
    const a = await headlessSnapshot(EXAMPLE, { engine });
    const b = await headlessSnapshot(EXAMPLE, { engine, set: { budgetMs: "16.7" } });
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(b).toEqual(a);
    const c = await headlessSnapshot(EXAMPLE, { engine, set: { budgetMs: 30 } });
    expect(c.inputs).toEqual([{ name: "budgetMs", value: 30 }]);
    expect(c).not.toEqual(a);
    const frameTimes = a.cells.find((x) => x.name === "frame_times")!;
    expect(frameTimes.value).toMatchObject({
      table: {
        numRows: 1800,
        columns: [
          ["run_id", "Utf8"],
          ["intended_vsync", "Int64"],
          ["t_s", "Float64"],
          ["ms", "Float64"],
          ["jank", "Bool"],
          ["slow", "Bool"],
        ],
      },
    });
  });
});

describe("resolveRunDirs", () => {
  const dir = mkdtempSync(join(tmpdir(), "jankbook-runs-"));
  beforeAll(() => {
    for (const name of ["pixel-a", "pixel-b", "other"]) {
      mkdirSync(join(dir, "runs", name), { recursive: true });
      writeFileSync(join(dir, "runs", name, "manifest.json"), "{}");
    }
    cpSync(join(SAMPLES_DIR, "synthetic-feed-scroll"), join(dir, "local-run"), { recursive: true });
  });
  const nb = (runs: string) => parseNotebook(`---\nruns: ${runs}\n---\n`);

  it("resolves next to the notebook first, then in the samples, globs included", async () => {
    const path = join(dir, "nb.md");
    expect(await resolveRunDirs(nb("[runs/pixel-*, local-run]"), path)).toEqual([
      join(dir, "runs/pixel-a"),
      join(dir, "runs/pixel-b"),
      join(dir, "local-run"),
    ]);
    expect(await resolveRunDirs(nb("[synthetic-*]"), path)).toEqual([
      join(SAMPLES_DIR, "synthetic-feed-scroll"),
    ]);
    await expect(resolveRunDirs(nb("[nowhere]"), path)).rejects.toThrow(
      /runs: nowhere matches no run folder/,
    );
  });

  it("--runs replaces the list: a run folder, or a folder of runs", async () => {
    expect(await resolveRunDirs(nb("[nowhere]"), join(dir, "nb.md"), { runs: [join(dir, "runs")] })).toEqual(
      ["other", "pixel-a", "pixel-b"].map((n) => join(dir, "runs", n)),
    );
    expect(await resolveRunDirs(nb("[]"), join(dir, "nb.md"), { runs: [join(dir, "local-run")] })).toEqual([
      join(dir, "local-run"),
    ]);
  });

  it("matchRunNames (the browser's rule on samples/index.json)", () => {
    expect(matchRunNames("a-*", ["a-1", "a-2", "b-1", "a-1/x"])).toEqual(["a-1", "a-2"]);
    expect(matchRunNames("b-?", ["b-1", "b-10"])).toEqual(["b-1"]);
    expect(matchRunNames("exact", ["exact", "exactly"])).toEqual(["exact"]);
  });
});
