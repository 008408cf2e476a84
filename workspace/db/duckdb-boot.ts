// DuckDB-WASM's worker and its 34 MB wasm, started by the page's entry before the rest of the workspace is
// evaluated, so the download and the (streaming) compile overlap the page's own start (docs/scaling.md, "Start-up").
import * as duckdb from "@duckdb/duckdb-wasm";
import ehWasm from "@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url";
import ehWorker from "@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url";
import mvpWasm from "@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url";
import mvpWorker from "@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url";

let booted: Promise<duckdb.AsyncDuckDB> | undefined;

/** Starts an instance now; the next `takeDuckdb()` gets it. */
export function bootDuckdb(): void {
  booted ??= startDuckdb();
  booted.catch(() => undefined); // reported by whoever takes it
}

/** The instance `bootDuckdb()` started, or a new one: each engine owns its instance. */
export function takeDuckdb(): Promise<duckdb.AsyncDuckDB> {
  const db = booted ?? startDuckdb();
  booted = undefined;
  return db;
}

async function startDuckdb(): Promise<duckdb.AsyncDuckDB> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
    eh: { mainModule: ehWasm, mainWorker: ehWorker },
  });
  const worker = new Worker(bundle.mainWorker!);
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule);
  // Attached run.duckdb files are read by HTTP range requests (docs/scaling.md); left to itself DuckDB-WASM
  // 1.32 downloaded the whole file in one GET (seen in the attach browser test).
  await db.open({
    filesystem: { reliableHeadRequests: true, allowFullHTTPReads: true, forceFullHTTPReads: false },
  });
  return db;
}
