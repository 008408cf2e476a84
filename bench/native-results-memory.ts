// Child of native-results.bench.ts: the peak RSS (MiB) of this process over three `SELECT *` of the frames-like
// table, on the native engine streaming its results ("stream") or materialising them first (its default).
import { RESULT_SQL, createStreamingEngine } from "./native-results.bench";
import { createNativeEngine } from "../workspace/db/node/duckdb-native";

const rows = Number(process.argv[3]);
const engine = await (process.argv[2] === "stream" ? createStreamingEngine() : createNativeEngine());
await engine.query(RESULT_SQL(rows));
for (let i = 0; i < 3; i++)
  if ((await engine.query("SELECT * FROM frames_like")).numRows !== rows) throw new Error("rows differ");
process.stdout.write(`${process.resourceUsage().maxRSS / 1024}\n`);
await engine.close();
