// `npm run bench -- native-results`: a query's rows handed to the cells as Arrow, native DuckDB against
// DuckDB-WASM in the same run (docs/scaling.md, "Which engine"): `SELECT *` of a frames-like table of 100k and
// 1M rows (integers, doubles, text with nulls, booleans, timestamps), median of 5, the table made once per engine.
import type { SqlEngine } from "../workspace/db/engine";
import { createNodeEngine } from "../workspace/db/node/duckdb-node";
import { createNativeEngine } from "../workspace/db/node/duckdb-native";
import { timeMs, type Benchmark } from "./harness";

export const RESULT_SQL = (rows: number) => `CREATE TABLE frames_like AS SELECT
    range AS seq,
    'run-' || (range % 3) AS run_id,
    range * 16666667 AS ts,
    (range % 50) / 3.0 AS duration_ms,
    range % 7 = 0 AS jank,
    CASE WHEN range % 11 = 0 THEN NULL ELSE 'com.example.feed.ItemView#' || range END AS view,
    TIMESTAMP '2026-01-01' + to_microseconds(range * 16667) AS at
  FROM range(${rows})`;

function engineBenchmarks(label: string, make: () => Promise<SqlEngine>, rows: number): Benchmark {
  let engine: SqlEngine | undefined;
  return {
    name: `native-results/SELECT * of ${rows.toLocaleString("en")} rows, ${label} (ms)`,
    unit: "ms",
    runs: 5,
    async setup() {
      engine = await make();
      await engine.query(RESULT_SQL(rows));
    },
    async measure() {
      let n = 0;
      const ms = await timeMs(async () => (n = (await engine!.query("SELECT * FROM frames_like")).numRows));
      if (n !== rows) throw new Error(`${label}: ${n} rows, expected ${rows}`);
      return ms;
    },
    async teardown() {
      await engine?.close();
      engine = undefined;
    },
  };
}

export const benchmarks: Benchmark[] = [100_000, 1_000_000].flatMap((rows) => [
  engineBenchmarks("native DuckDB", createNativeEngine, rows),
  engineBenchmarks("DuckDB-WASM", createNodeEngine, rows),
]);
