// The compare bench's lake: a run_summary of 10,000 runs (two app versions of 5,000 runs each), written by native
// DuckDB in the lake's layout (workspace/db/node/lake-add.ts: run_summary/app=<app>/summary.parquet); measured is
// comparing the two slices (one grouped query), against reading each run's summary with a query of its own.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNativeEngine, type NativeEngine } from "../../workspace/db/node/duckdb-native";
import { attachLake } from "../../workspace/db/node/lake-views";
import { compareLakeSlices, SUMMARY_MEASURES } from "../../workspace/node/compare-load";
import type { Benchmark } from "../harness";

/** CPU milliseconds of this process since `since`, every thread (DuckDB's too). */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

export const LAKE_RUNS = Number(process.env.JB_BENCH_LAKE_RUNS ?? 10_000);

let lake: { root: string; engine: NativeEngine } | undefined;

async function makeLake(): Promise<{ root: string; engine: NativeEngine }> {
  const root = await mkdtemp(join(tmpdir(), "jb-compare-lake-"));
  const dir = join(root, "run_summary", "app=com.example.app");
  await mkdir(dir, { recursive: true });
  const engine = await createNativeEngine();
  // per run: p50..p99 and jank share; version 2.1.0 about 3 % slower (a run-to-run spread of 10 %)
  await engine.query(
    `COPY (SELECT 'run-' || i AS run_id, CASE WHEN i % 2 = 0 THEN '2.0.0' ELSE '2.1.0' END AS app_version,
       'feed' AS scenario, 'Google' AS manufacturer, 'Pixel 7' AS device_model, 34 AS api_level,
       (8 + 0.8 * random()) * CASE WHEN i % 2 = 0 THEN 1 ELSE 1.03 END AS p50_ms,
       (12 + 1.2 * random()) * CASE WHEN i % 2 = 0 THEN 1 ELSE 1.03 END AS p90_ms,
       (14 + 1.4 * random()) * CASE WHEN i % 2 = 0 THEN 1 ELSE 1.03 END AS p95_ms,
       (20 + 2 * random()) * CASE WHEN i % 2 = 0 THEN 1 ELSE 1.03 END AS p99_ms,
       0.02 + 0.01 * random() AS jank_share
     FROM range(${LAKE_RUNS}) t(i)) TO '${join(dir, "summary.parquet")}' (FORMAT parquet)`,
  );
  await attachLake(engine, root);
  return { root, engine };
}

export const lakeBenchmarks: Benchmark[] = [
  {
    name: `compare/two lake slices of ${LAKE_RUNS / 2} runs each, native`,
    unit: "ms",
    budget: 5000,
    runs: 2,
    async setup() {
      lake = await makeLake();
    },
    async measure() {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const c = await compareLakeSlices(lake!.engine, lake!.root, "app_version=2.0.0", "app_version=2.1.0");
      if (c.sides.a.length !== LAKE_RUNS / 2) throw new Error(`slice A has ${c.sides.a.length} runs`);
      const ms = performance.now() - t0;
      await (
        await import("../compare.bench")
      ).recordSpeed(`two lake slices of ${LAKE_RUNS / 2} runs each, native`, ms, cpuMs(cpu));
      return ms;
    },
    peer: {
      name: "one query per run",
      runs: 1,
      async measure() {
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        const ids = await lake!.engine.query("SELECT run_id FROM lake.run_summary ORDER BY run_id");
        const list = (ids.getChild("run_id")!.toArray() as unknown[]).map(String);
        for (const id of list)
          await lake!.engine.query(
            `SELECT ${SUMMARY_MEASURES.map(([c]) => c).join(", ")} FROM lake.run_summary WHERE run_id = ?`,
            [id],
          );
        const ms = performance.now() - t0;
        await (
          await import("../compare.bench")
        ).recordSpeed(`the same ${LAKE_RUNS} runs, one query per run`, ms, cpuMs(cpu));
        return ms;
      },
    },
    async teardown() {
      await lake?.engine.close();
      if (lake) await rm(lake.root, { recursive: true, force: true });
    },
  },
];
