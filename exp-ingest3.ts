import { createRequire } from "node:module";
import { dirname, join } from "node:path";
const require = createRequire(import.meta.url);
const arrow = require("apache-arrow");
const duckdb = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
const dist = dirname(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"));
const bundles = { mvp: { mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: join(dist, "duckdb-node-mvp.worker.cjs") },
  eh: { mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: join(dist, "duckdb-node-eh.worker.cjs") } };
const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
await db.instantiate();
const conn = db.connect();
const M = Number(process.env.M ?? 1), rows = M * 1_000_000;
const o: Record<string, any> = {};
for (let c = 0; c < 24; c++) { const a = new BigInt64Array(rows); for (let i = 0; i < rows; i++) a[i] = BigInt(i * 16666667 + c + (i * 7919) % 9000); o["c" + c] = a; }
const ipc = arrow.tableToIPC(arrow.tableFromArrays(o), "stream");
const RES = Number(process.env.RESERVE ?? 0);
if (RES) {
  const s = performance.now();
  db.registerFileBuffer("__reserve", new Uint8Array(RES * 1e6));
  db.dropFile("__reserve");
  console.log("reserve", RES, "MB", Math.round(performance.now() - s), "ms");
}
for (let k = 0; k < 2; k++) {
  const s = performance.now();
  conn.insertArrowFromIPCStream(ipc, { name: "t" + k, create: true });
  const ms = performance.now() - s;
  console.log("insert", k, Math.round(ms), "ms", (ms * 1e6 / (rows * 24)).toFixed(1), "ns/value");
}
