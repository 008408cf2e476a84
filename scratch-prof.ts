import { DuckDBInstance } from "@duckdb/node-api";
import { Utf8 } from "apache-arrow";
import { RESULT_SQL } from "./bench/native-results.bench";
import { resultToArrow } from "./workspace/db/node/native-arrow";
import { columnVector } from "./workspace/db/node/native-columns";
const inst = await DuckDBInstance.create(":memory:");
const c = await inst.connect();
await c.run(RESULT_SQL(1_000_000));
const t = () => performance.now();
for (let rep = 0; rep < 4; rep++) {
  let t0 = t();
  const reader = await c.runAndReadAll("SELECT * FROM frames_like");
  const tq = t() - t0;
  t0 = t();
  resultToArrow(reader);
  const tc = t() - t0;
  const chunks = (reader as any).chunks;
  const types = reader.columnTypes();
  const per = reader.columnNames().map((name, i) => {
    const s = t();
    columnVector(chunks, i, 1_000_000, types[i]!, new Utf8());
    return `${name} ${(t() - s).toFixed(0)}`;
  });
  console.log(`query ${tq.toFixed(0)} convert ${tc.toFixed(0)} | ${per.join(", ")}`);
}
