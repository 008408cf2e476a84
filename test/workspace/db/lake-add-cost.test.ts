// What one `lake add` costs in operations, counted (not timed): the folders it lists and the run_summary bytes it
// writes are the same in a lake of 2 runs and of 34, and a lake without a run index gets one and stays right.
import { readdirSync, statSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newManifest } from "../../../bundle/manifest";
import { writeBundleFolder } from "../../../bundle/node-io";
import { makeBundleTable } from "../../../bundle/table-builder";
import { lakeAdd, RUN_SUMMARY } from "../../../workspace/db/node/lake-add";
import { hiveFolderValue } from "../../../workspace/db/node/lake-index";

// Every listing lake add makes goes through node:fs/promises (DuckDB writes the Parquet but lists nothing here).
const listed = { calls: 0, entries: 0 };
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof fsp>();
  const readdir = async (...args: Parameters<typeof real.readdir>) => {
    listed.calls++;
    const entries = await (real.readdir as (...a: unknown[]) => Promise<unknown[]>)(...args);
    listed.entries += entries.length;
    return entries;
  };
  return { ...real, readdir, default: { ...real, readdir } };
});

const PER_FILE = 4;
let root = "";
let lake = "";

async function bundle(i: number, device = "Pixel 7", under = root): Promise<string> {
  const dir = join(under, "bundles", `r${i}-${device.replace(/\W/g, "")}`);
  const n = 5;
  await writeBundleFolder(
    dir,
    newManifest(`r${String(i).padStart(3, "0")}`, {
      app: "com.example",
      device_model: device,
      api_level: 34,
    }),
    {
      frames: makeBundleTable("frames", `r${String(i).padStart(3, "0")}`, {
        intended_vsync: BigInt64Array.from({ length: n }, (_, k) => BigInt(k * 16_666_667)),
        duration: BigInt64Array.from({ length: n }, (_, k) => BigInt(5_000_000 + k * 1000 + i)),
        deadline: BigInt64Array.from({ length: n }, () => 16_666_667n),
        jank: Uint8Array.from({ length: n }, () => 0),
      }),
    },
  );
  return dir;
}

/** Every file under the lake's run_summary as path -> inode and size (a rewrite renames a new inode in). */
function summaryFiles(): Map<string, { key: string; size: number }> {
  const out = new Map<string, { key: string; size: number }>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else {
        const s = statSync(path);
        out.set(relative(lake, path), { key: `${s.ino}:${s.size}`, size: s.size });
      }
    }
  };
  walk(join(lake, RUN_SUMMARY));
  return out;
}

/** Listings and run_summary bytes written by adding the bundles in one `lake add`. */
async function costOf(dirs: string[]) {
  const before = summaryFiles();
  listed.calls = listed.entries = 0;
  await lakeAdd(lake, dirs, { summaryRunsPerFile: PER_FILE });
  const cost = { listings: listed.calls, entriesListed: listed.entries, summaryBytes: 0 };
  for (const [path, now] of summaryFiles())
    if (before.get(path)?.key !== now.key) cost.summaryBytes += now.size;
  return cost;
}

async function lakeRows(sql: string) {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

describe("lake add's cost does not grow with the lake", () => {
  const bundles: string[] = [];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "jb-lake-cost-"));
    lake = join(root, "lake");
    for (let i = 0; i < 36; i++) bundles.push(await bundle(i));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("lists the same folders and rewrites the same summary bytes at 2 runs and at 34", async () => {
    await lakeAdd(lake, bundles.slice(0, 2), { summaryRunsPerFile: PER_FILE });
    // the third run and the 35th land at the same place in a summary file of 4 runs
    const small = await costOf([bundles[2]!]);
    await lakeAdd(lake, bundles.slice(3, 34), { summaryRunsPerFile: PER_FILE });
    const big = await costOf([bundles[34]!]);
    expect(big.listings).toBe(small.listings);
    expect(big.entriesListed).toBe(small.entriesListed);
    expect(big.summaryBytes).toBeGreaterThan(0);
    // the same three rows, other run ids and durations: the same size within Parquet's compression
    expect(Math.abs(big.summaryBytes - small.summaryBytes) / small.summaryBytes).toBeLessThan(0.03);
    // 35 runs in files of at most 4
    const files = await lakeRows(
      `SELECT filename, count(*)::INTEGER AS n FROM read_parquet('${lake}/${RUN_SUMMARY}/**/*.parquet', filename = true) GROUP BY 1`,
    );
    expect(files.length).toBe(Math.ceil(35 / PER_FILE));
    expect(Math.max(...files.map((f) => Number(f.n)))).toBeLessThanOrEqual(PER_FILE);
  });

  it("re-adds a run from an early summary file in the same cost, leaving one row for it", async () => {
    const again = await costOf([bundles[1]!]);
    expect(again.listings).toBe(1); // the lake's own folder (is it a lake?), whatever its size
    const rows = await lakeRows(
      `SELECT run_id, count(*)::INTEGER AS n FROM read_parquet('${lake}/${RUN_SUMMARY}/**/*.parquet') GROUP BY 1 HAVING n > 1`,
    );
    expect(rows).toEqual([]);
  });

  it("builds a missing run index once from the folders, and a re-add under another device then leaves no trace of the old one", async () => {
    await rm(join(lake, ".jankbook-lake-index"), { recursive: true });
    await lakeAdd(lake, [await bundle(5, "Pixel 8")], { summaryRunsPerFile: PER_FILE });
    const frames = await lakeRows(
      `SELECT device_model, count(DISTINCT run_id)::INTEGER AS runs FROM read_parquet('${lake}/frames/**/*.parquet', hive_partitioning = true, hive_types = {'run_id': 'VARCHAR', 'api_level': 'INTEGER'}) WHERE run_id = 'r005' GROUP BY 1`,
    );
    expect(frames).toEqual([{ device_model: "Pixel 8", runs: 1 }]);
    const summary = await lakeRows(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT run_id)::INTEGER AS runs, max(device_model) FILTER (WHERE run_id = 'r005') AS device FROM read_parquet('${lake}/${RUN_SUMMARY}/**/*.parquet')`,
    );
    expect(summary).toEqual([{ n: 35, runs: 35, device: "Pixel 8" }]);
    // and the index is back: the next add lists no run folders again
    const next = await costOf([bundles[35]!]);
    expect(next.listings).toBe(1);
  });
});

describe("an add cut short", () => {
  it("is cleaned up by the run's next add: no partition of it left, one summary row", async () => {
    const dir = await mkdtemp(join(tmpdir(), "jb-lake-cut-"));
    const cut = join(dir, "lake");
    await lakeAdd(cut, [await bundle(1, "Pixel 7", dir)]);
    // a folder where the summary's temporary file goes: the add fails after writing the run's partitions
    const obstruction = join(cut, RUN_SUMMARY, "app=com.example", "part-000000.parquet.tmp");
    await fsp.mkdir(join(obstruction, "x"), { recursive: true });
    await expect(lakeAdd(cut, [await bundle(1, "Pixel 8", dir)])).rejects.toThrow();
    await rm(obstruction, { recursive: true });
    await lakeAdd(cut, [await bundle(1, "Pixel 9", dir)]);
    const frames = await lakeRows(
      `SELECT device_model, count(*)::INTEGER AS n FROM read_parquet('${cut}/frames/**/*.parquet', hive_partitioning = true) GROUP BY 1`,
    );
    expect(frames).toEqual([{ device_model: "Pixel 9", n: 5 }]);
    const summary = await lakeRows(
      `SELECT run_id, device_model FROM read_parquet('${cut}/${RUN_SUMMARY}/**/*.parquet')`,
    );
    expect(summary).toEqual([{ run_id: "r001", device_model: "Pixel 9" }]);
    await rm(dir, { recursive: true, force: true });
  });
});

describe("hiveFolderValue", () => {
  it.each(["Pixel 7", "a!'()*:@+,;$&#?~-_.b", "ü/=%", "-1", "run.42"])(
    "names %j's partition folder as DuckDB's COPY ... PARTITION_BY does",
    async (value) => {
      const dir = await mkdtemp(join(tmpdir(), "jb-hive-"));
      const [row] = await lakeRows(
        `COPY (SELECT 1 AS x, '${value.replace(/'/g, "''")}' AS v) TO '${dir}' (FORMAT parquet, PARTITION_BY (v), RETURN_FILES)`,
      );
      const file = String((row!.Files as unknown[])[0]);
      expect(relative(dir, file).split("/")[0]).toBe(`v=${hiveFolderValue(value)}`);
      await rm(dir, { recursive: true, force: true });
    },
  );
});
