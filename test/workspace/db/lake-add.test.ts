import { cp, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_SUMMARY, lakeAdd } from "../../../workspace/db/node/lake-add";
import { readBundleFolder } from "../../../bundle/node-io";
import { packBundle } from "../../../workspace/db/node/pack-bundle";
import { createNativeEngine } from "../../../workspace/db/node/duckdb-native";
import { createNodeEngine } from "../../../workspace/db/node/duckdb-node";
import { runNotebookFile } from "../../../workspace/node/headless";

const SAMPLES = "workspace/public/samples";
const A = "k9-pixel-2-android9-r1";
const B = "k9-galaxy-s21-android12-r1";

/** Type-7 quantile (linear between closest ranks), DuckDB's quantile_cont, by hand. */
function quantile(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
}

describe("lakeAdd", () => {
  let lake: string;
  let packed: string;
  let instance: DuckDBInstance;
  beforeAll(async () => {
    lake = await mkdtemp(join(tmpdir(), "jb-lake-"));
    packed = await mkdtemp(join(tmpdir(), "jb-lake-run-"));
    await cp(join(SAMPLES, A), packed, { recursive: true });
    expect((await packBundle(packed)).errors).toEqual([]);
    instance = await DuckDBInstance.create(":memory:");
  });
  afterAll(() => instance.closeSync());

  async function read(sql: string) {
    const c = await instance.connect();
    try {
      return (await c.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
    } finally {
      c.closeSync();
    }
  }
  const table = (name: string) =>
    `read_parquet('${lake}/${name}/**/*.parquet', hive_partitioning = true, hive_types = ${name === RUN_SUMMARY ? "{'app': 'VARCHAR'}" : "{'run_id': 'VARCHAR', 'api_level': 'INTEGER'}"})`;

  it("writes every table of a packed and an unpacked run as Hive-partitioned Parquet, and each run's summary", async () => {
    const results = await lakeAdd(lake, [packed, join(SAMPLES, B)]);
    expect(results.map((r) => r.errors)).toEqual([[], []]);
    expect((await readdir(join(lake, "frames", "app=com.fsck.k9"))).sort()).toEqual([
      "device_model=Pixel%202",
      "device_model=SM-G991B",
    ]);
    for (const run of [A, B]) {
      const bundle = await readBundleFolder(join(SAMPLES, run));
      for (const [name, t] of bundle.tables) {
        const [r] = await read(`SELECT count(*)::INTEGER AS n FROM ${table(name)} WHERE run_id = '${run}'`);
        expect(r!.n, `${run} ${name}`).toBe(t.numRows);
      }
      // the summary against figures computed here from the Arrow frames
      const frames = bundle.tables.get("frames")!;
      const durations = [...frames.getChild("duration")!.toArray()].map(Number).sort((a, b) => a - b);
      const janky = [...frames.getChild("jank")!].filter(Boolean).length;
      const m = bundle.manifest.context;
      const [s] = await read(`SELECT * FROM ${table(RUN_SUMMARY)} WHERE run_id = '${run}'`);
      expect(s).toMatchObject({
        app: m.app,
        device_model: m.device_model,
        api_level: m.api_level,
        app_version: m.app_version,
        frames: BigInt(durations.length),
        janky_frames: BigInt(janky),
      });
      expect(s!.jank_share).toBeCloseTo(janky / durations.length, 12);
      for (const [col, p] of [
        ["p50_ms", 0.5],
        ["p90_ms", 0.9],
        ["p99_ms", 0.99],
      ] as const)
        expect(s![col], col).toBeCloseTo(quantile(durations, p) / 1e6, 9);
    }
  });

  it("replaces a run added again and leaves the other runs alone", async () => {
    const before = await read(
      `SELECT run_id, count(*)::INTEGER AS n FROM ${table("frames")} GROUP BY 1 ORDER BY 1`,
    );
    await lakeAdd(lake, [packed]);
    await lakeAdd(lake, [packed]);
    const after = await read(
      `SELECT run_id, count(*)::INTEGER AS n FROM ${table("frames")} GROUP BY 1 ORDER BY 1`,
    );
    expect(after).toEqual(before);
    expect(await read(`SELECT count(*)::INTEGER AS n FROM ${table(RUN_SUMMARY)}`)).toEqual([{ n: 2 }]);
  });

  it("a notebook naming the lake reads its tables as views on the native engine, and DuckDB-WASM says it cannot", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-lake-nb-"));
    const nb = join(dir, "lab.md");
    await writeFile(
      nb,
      `---\ntitle: lab\nlake: ${lake}\n---\n\n\`\`\`sql id=byDevice\nSELECT device_model, sum(frames)::INTEGER AS frames FROM lake.run_summary GROUP BY 1 ORDER BY 1\n\`\`\`\n`,
    );
    const r = await runNotebookFile(nb, { engine: await createNativeEngine() });
    try {
      expect(r.failedCells).toEqual([]);
      const value = r.states[0]!.value as { toArray(): { toJSON(): unknown }[] };
      expect(value.toArray().map((row) => row.toJSON())).toEqual([
        { device_model: "Pixel 2", frames: 216 },
        { device_model: "SM-G991B", frames: 216 },
      ]);
    } finally {
      await r.close();
      await r.engine.close();
    }
    const wasm = await createNodeEngine();
    await expect(runNotebookFile(nb, { engine: wasm })).rejects.toThrow(/run with --engine native/);
    await wasm.close();
  });
});
