import { DuckDBInstance } from "@duckdb/node-api";
import { Utf8 } from "apache-arrow";
import { RESULT_SQL } from "./bench/native-results.bench";
import { columnVector } from "./workspace/db/node/native-columns";
const inst = await DuckDBInstance.create(":memory:");
const c = await inst.connect();
await c.run(RESULT_SQL(1_000_000));
const reader = await c.runAndReadAll("SELECT view, run_id FROM frames_like");
const chunks = (reader as any).chunks;
const types = reader.columnTypes();
for (let rep = 0; rep < 10; rep++) {
  const s = performance.now();
  columnVector(chunks, 0, 1_000_000, types[0]!, new Utf8());
  const m = performance.now();
  columnVector(chunks, 1, 1_000_000, types[1]!, new Utf8());
  console.log(`view ${(m - s).toFixed(0)} run_id ${(performance.now() - m).toFixed(0)}`);
}
