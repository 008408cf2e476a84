import { createNativeEngine } from "./workspace/db/node/duckdb-native";
import { RESULT_SQL } from "./bench/native-results.bench";
const e = await createNativeEngine();
await e.query(RESULT_SQL(1_000_000));
for (let rep = 0; rep < 10; rep++) {
  const s = performance.now();
  const n = (await e.query("SELECT * FROM frames_like")).numRows;
  console.log(n, (performance.now() - s).toFixed(0));
}
await e.close();
