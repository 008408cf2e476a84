import { DuckDBInstance, DuckDBResultReader } from "@duckdb/node-api";
import duckdb from "@duckdb/node-bindings";
import { RESULT_SQL } from "./bench/native-results.bench";
const inst = await DuckDBInstance.create(":memory:");
const c = await inst.connect();
await c.run(RESULT_SQL(1_000_000));
const t = () => performance.now();
for (let rep = 0; rep < 5; rep++) {
  let t0 = t();
  const result = await c.run("SELECT * FROM frames_like");
  const trun = t() - t0;
  t0 = t();
  const reader = new DuckDBResultReader(result);
  await reader.readAll();
  const tread = t() - t0;
  t0 = t();
  const result2 = await c.run("SELECT * FROM frames_like");
  const trun2 = t() - t0;
  t0 = t();
  const raw = (result2 as any).result;
  const n = duckdb.result_chunk_count(raw);
  let rows = 0;
  for (let i = 0; i < n; i++) rows += duckdb.data_chunk_get_size(duckdb.result_get_chunk(raw, i));
  const tsync = t() - t0;
  console.log(`run ${trun.toFixed(0)} readAll ${tread.toFixed(0)} | run ${trun2.toFixed(0)} sync get_chunk ${tsync.toFixed(0)} (${n} chunks, ${rows} rows)`);
}
