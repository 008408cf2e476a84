// A bundle written before a nullable column existed (a frames table with no vsync) loads with the column null,
// on the decoding path and on the streaming DuckDB path (old bundles stay readable: docs/architecture.md).
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newManifest } from "../../bundle/manifest";
import { folderSource, readBundleFolder, writeBundleFolder } from "../../bundle/node-io";
import { prepareBundle } from "../../bundle/prepare-bundle";
import { makeBundleTable } from "../../bundle/table-builder";
import { createNodeEngine } from "../../workspace/db/node/duckdb-node";
import { loadPreparedBundle } from "../../workspace/db/load-prepared";
import { suiteEngine } from "../support/suite-engine";

const N = 30;

async function framesWithoutVsync(): Promise<string> {
  const ts = Array.from({ length: N }, (_, i) => BigInt(i) * 16_666_667n);
  const full = makeBundleTable("frames", "old-run", {
    intended_vsync: ts,
    frame_completed: ts.map((t) => t + 8_000_000n),
    duration: ts.map(() => 8_000_000),
    deadline: ts.map(() => 16_666_667),
    jank: ts.map(() => false),
  });
  const old = full.select(full.schema.fields.map((f) => f.name).filter((n) => n !== "vsync"));
  expect(old.schema.fields.some((f) => f.name === "vsync")).toBe(false);
  const dir = await mkdtemp(join(tmpdir(), "jb-nullable-"));
  await writeBundleFolder(dir, newManifest("old-run", { app: "a" }), { frames: old });
  return dir;
}

describe("a frames table without its nullable vsync column", () => {
  const engine = suiteEngine(createNodeEngine);

  it("decodes with vsync present and null in every row", async () => {
    const b = await readBundleFolder(await framesWithoutVsync());
    expect(b.errors).toEqual([]);
    const frames = b.tables.get("frames")!;
    expect(frames.numRows).toBe(N);
    const vsync = frames.getChild("vsync")!;
    expect(vsync).not.toBeNull();
    expect(vsync.nullCount).toBe(N);
    expect(frames.getChild("intended_vsync")!.get(2)).toBe(2n * 16_666_667n);
  });

  it("streams into DuckDB with a vsync column that is null in every row", async () => {
    const report = await loadPreparedBundle(
      engine,
      await prepareBundle(folderSource(await framesWithoutVsync())),
    );
    expect(report.errors).toEqual([]);
    expect(report.tables).toContainEqual({ name: "frames", rows: N });
    const t = await engine.query(
      "SELECT count(*)::INTEGER AS n, count(vsync)::INTEGER AS set_vsync FROM frames WHERE run_id = 'old-run'",
    );
    expect(t.toArray().map((r) => r.toJSON())).toEqual([{ n: N, set_vsync: 0 }]);
  });
});
