// The worker side of threaded-engine.ts: DuckDB-WASM's blocking Node build in a thread of its own, so that a
// query that never ends blocks this thread, not the runner's (which must stop it at --timeout and write the
// report). Answers {id, method, args} with {id, value} or {id, error}; tables travel as Arrow IPC streams.
import { parentPort } from "node:worker_threads";
import { createRequire } from "node:module";
import { createNodeEngine } from "../db/node/duckdb-node";

const arrow = createRequire(import.meta.url)("apache-arrow") as {
  tableToIPC(t: unknown, type: "stream"): Uint8Array;
};

export type EngineCall =
  | { id: number; method: "query"; args: [string, unknown[]] }
  | { id: number; method: "insertArrowStream"; args: [string, Uint8Array, { append?: boolean } | undefined] }
  | { id: number; method: "registerDatabaseFile"; args: [string, { path: string } | { blob: Blob }] }
  | { id: number; method: "close"; args: [] };
export type EngineReply = { id: number; value?: unknown; error?: string };

const port = parentPort!;
const engine = await createNodeEngine();
port.on("message", async (m: EngineCall) => {
  try {
    let value: unknown;
    if (m.method === "query") {
      const ipc = arrow.tableToIPC(await engine.query(...m.args), "stream");
      port.postMessage({ id: m.id, value: ipc } satisfies EngineReply, [ipc.buffer as ArrayBuffer]);
      return;
    }
    if (m.method === "insertArrowStream") value = await engine.insertArrowStream(...m.args);
    else if (m.method === "registerDatabaseFile") value = await engine.registerDatabaseFile!(...m.args);
    else value = await engine.close();
    port.postMessage({ id: m.id, value } satisfies EngineReply);
  } catch (e) {
    port.postMessage({ id: m.id, error: (e as Error).message } satisfies EngineReply);
  }
});
port.postMessage({ id: -1, value: "ready" } satisfies EngineReply);
