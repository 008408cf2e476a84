// The sides as `jankbook compare` loads them: run folders through the run loader into the native engine give the
// same ranked list as the same folders read in process (the path the tests and bench use); globs pick run
// folders; a lake's slices are compared by their runs' summaries, filtered as written.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareRuns } from "../../../cells/compare/compare-runs";
import { readSides } from "../../../bench/compare/read-sides";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { lakeAdd } from "../../../workspace/db/node/lake-add";
import { compareSides, resolveSide } from "../../../workspace/node/compare-load";
import { ROOT } from "../../support/cli";

const CASES = join(ROOT, "notebooks/cases/runs");
const tmp = await mkdtemp(join(tmpdir(), "jb-compare-load-"));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("compareSides", () => {
  it("gives the list the in-process reader gives, through the run loader and native DuckDB", async () => {
    const a = [join(CASES, "draw-1-faceq-pixel-4a-fixed")];
    const b = [join(CASES, "draw-1-faceq-pixel-4a")];
    const engine = await createNativeEngine();
    try {
      const native = await compareSides({ dirs: a }, { dirs: b }, engine);
      const { sides, tables } = await readSides(a, b);
      const local = compareRuns(tables, sides);
      expect(native.errors).toEqual([]);
      const view = (rows: typeof local.rows) => rows.map((r) => [r.key, r.significant, r.p.toPrecision(8)]);
      expect(view(native.rows)).toEqual(view(local.rows));
      expect(native.rows[0]!.subject).toBe("android.widget.GridView #gridview");
    } finally {
      await engine.close();
    }
  }, 120_000);

  it("reads a glob as the run folders it matches", async () => {
    const side = await resolveSide(join(CASES, "dune-k9-pixel-4a-r*"));
    expect("dirs" in side && side.dirs.map((d) => d.split("/").pop())).toEqual([
      "dune-k9-pixel-4a-r1",
      "dune-k9-pixel-4a-r2",
    ]);
  });

  it("compares two lake slices by their runs' summaries, each slice as its filter says", async () => {
    const lake = join(tmp, "lake");
    const runs = ["pixel-4a-r1", "pixel-4a-r2", "nexus-5x-r1", "nexus-5x-r2"].map((r) =>
      join(CASES, `dune-k9-${r}`),
    );
    await lakeAdd(lake, runs);
    const engine = await createNativeEngine();
    try {
      const c = await compareSides(
        await resolveSide(`lake:${lake}?device_model="Nexus 5X"`),
        await resolveSide(`lake:${lake}?device_model="Pixel 4a"`),
        engine,
      );
      expect(c.sides).toEqual({
        a: ["dune-k9-nexus-5x-r1", "dune-k9-nexus-5x-r2"],
        b: ["dune-k9-pixel-4a-r1", "dune-k9-pixel-4a-r2"],
      });
      expect(c.rows.map((r) => r.measure).sort()).toEqual([
        "frame duration p50",
        "frame duration p90",
        "frame duration p95",
        "frame duration p99",
        "jank rate",
      ]);
      // two runs a side: too few for a rank test, and one value per run: said, not hidden
      for (const r of c.rows) expect(r.note).toMatch(/too few runs for a rank test over runs: 2 vs 2/);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
