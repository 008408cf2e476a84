// `npm run bench -- native-results`: a query's rows handed to the cells as Arrow, native DuckDB against
// DuckDB-WASM in the same run (docs/scaling.md, "Which engine"): `SELECT *` of a frames-like table of 100k and
// 1M rows (integers, doubles, text with nulls, booleans, timestamps), median of 5, the table made once per engine.
// Then its long text column alone, converted from the same chunks as now (a span of memory a read) and as before
// (one binding call a string over 12 bytes, bench/native-strings-before.ts). The native engine with its `stream`
// option (each result converted as it is fetched) runs beside it, in time and in peak memory.
import { execFileSync } from "node:child_process";
import { DuckDBInstance, type DuckDBDataChunk, type DuckDBResultReader } from "@duckdb/node-api";
import { Utf8 } from "apache-arrow";
import type { SqlEngine } from "../workspace/db/engine";
import { createNodeEngine } from "../workspace/db/node/duckdb-node";
import { createNativeEngine } from "../workspace/db/node/duckdb-native";
import { columnVector } from "../workspace/db/node/native-columns";
import { varcharVectorBefore } from "./native-strings-before";
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

/** The native engine streaming its results, converted as they are fetched (its `stream` option). */
export const createStreamingEngine = () => createNativeEngine({ stream: true });

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

/** The view column (909,090 strings over 12 bytes a million rows), now against before, on the same chunks. */
function viewColumnBenchmark(rows: number): Benchmark {
  let instance: DuckDBInstance | undefined;
  let reader: DuckDBResultReader | undefined;
  let chunks: DuckDBDataChunk[] = [];
  const check = (n: number) => {
    if (n !== rows) throw new Error(`view column: ${n} rows, expected ${rows}`);
  };
  return {
    name: `native-results/view column of ${rows.toLocaleString("en")} rows, native, a span a read (ms)`,
    unit: "ms",
    runs: 5,
    async setup() {
      instance = await DuckDBInstance.create(":memory:");
      const conn = await instance.connect();
      await conn.run(RESULT_SQL(rows));
      reader = await conn.runAndReadAll("SELECT view FROM frames_like");
      chunks = (reader as unknown as { chunks: DuckDBDataChunk[] }).chunks;
      // the same bytes both ways, before anything is timed
      const now = columnVector(chunks, 0, rows, reader.columnTypes()[0]!, new Utf8())!;
      const before = varcharVectorBefore(chunks, 0, rows);
      for (let r = 0; r < rows; r += 997)
        if (now.get(r) !== before.get(r)) throw new Error(`view column: row ${r} differs`);
    },
    measure: () =>
      timeMs(() => check(columnVector(chunks, 0, rows, reader!.columnTypes()[0]!, new Utf8())!.length)),
    peer: {
      name: "one binding call a string (before)",
      measure: () => timeMs(() => check(varcharVectorBefore(chunks, 0, rows).length)),
    },
    teardown() {
      instance?.closeSync();
      instance = undefined;
    },
  };
}

/** Peak RSS over three queries in a child process, streamed against materialised first (the engine's default). */
function memoryBenchmark(rows: number): Benchmark {
  const child = (way: string) =>
    Number(
      execFileSync(
        process.execPath,
        ["--import", "tsx", "bench/native-results-memory.ts", way, String(rows)],
        {
          encoding: "utf8",
        },
      ),
    );
  return {
    name: `native-results/peak RSS over 3 SELECT * of ${rows.toLocaleString("en")} rows, native, streamed (MiB)`,
    unit: "MiB",
    runs: 3,
    measure: () => child("stream"),
    peer: { name: "materialised first (the default)", measure: () => child("materialise") },
  };
}

// NATIVE_RESULTS_ORDER=stream-first times the streamed engine first, so rounds can alternate which one warms the JIT.
const native = (rows: number) => {
  const both = [
    engineBenchmarks("native DuckDB", createNativeEngine, rows),
    engineBenchmarks("native DuckDB, streamed", createStreamingEngine, rows),
  ];
  return process.env.NATIVE_RESULTS_ORDER === "stream-first" ? both.reverse() : both;
};

export const benchmarks: Benchmark[] = [
  ...[100_000, 1_000_000].flatMap((rows) => [
    ...native(rows),
    engineBenchmarks("DuckDB-WASM", createNodeEngine, rows),
  ]),
  viewColumnBenchmark(1_000_000),
  memoryBenchmark(1_000_000),
];
