// DuckDB-WASM for `jankbook run` in a thread of its own (engine-thread.ts). Its Node build is blocking and has no
// interrupt: in the runner's thread a query that never ends (a recursive CTE) froze the --timeout timer with it,
// so no report was written. Here the runner's thread stays free, and stop() ends the thread and its query.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Table } from "apache-arrow";
import type { InsertOutcome, SqlEngine } from "../db/engine";
import type { EngineCall, EngineReply } from "./engine-thread";

const arrow = createRequire(import.meta.url)("apache-arrow") as { tableFromIPC(b: Uint8Array): Table };

/** the compiled engine thread, relative to this source file: defined by cli/build-cli.mjs; undeclared from sources */
declare const JANKBOOK_COMPILED_ENGINE_THREAD: string | undefined;
const BOOT =
  typeof JANKBOOK_COMPILED_ENGINE_THREAD === "string"
    ? new URL(JANKBOOK_COMPILED_ENGINE_THREAD, import.meta.url)
    : new URL("./engine-thread-boot.mjs", import.meta.url);

export interface ThreadedEngine extends SqlEngine {
  /** Ends the engine and any query in it; every call after (and in flight) fails with `reason`. */
  stop(reason: string): Promise<void>;
}

type Call = EngineCall extends infer C
  ? C extends { method: infer M; args: infer A }
    ? [M, A]
    : never
  : never;

export async function createThreadedNodeEngine(): Promise<ThreadedEngine> {
  const worker = new Worker(BOOT, { stdout: false, stderr: false });
  const waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  let next = 0;
  let ended: string | null = null;
  const end = (reason: string) => {
    ended ??= reason;
    for (const w of waiting.values()) w.fail(new Error(ended));
    waiting.clear();
  };
  await new Promise<void>((ok, fail) => {
    worker.once("message", () => ok());
    worker.once("error", fail);
    worker.once("exit", (code) => fail(new Error(`the DuckDB-WASM thread exited (code ${code}) on start`)));
  });
  worker.on("message", (r: EngineReply) => {
    const w = waiting.get(r.id);
    waiting.delete(r.id);
    if (r.error !== undefined) w?.fail(new Error(r.error));
    else w?.ok(r.value);
  });
  worker.on("error", (e) => end(`the DuckDB-WASM thread failed: ${e.message}`));
  worker.on("exit", (code) => end(`the DuckDB-WASM thread exited (code ${code})`));
  // A thread busy in a wasm query may never get to its exit: ask it to end, unreferenced, and do not wait (the
  // process's exit ends it).
  const terminate = () => {
    worker.unref();
    void worker.terminate();
  };

  // Unreferenced while idle: an engine nobody closed does not keep the process alive.
  worker.unref();

  function call(...[method, args]: Call): Promise<unknown> {
    if (ended) return Promise.reject(new Error(ended));
    const id = next++;
    worker.ref();
    return new Promise((ok, fail) => {
      waiting.set(id, { ok, fail });
      worker.postMessage({ id, method, args } as EngineCall);
    }).finally(() => {
      if (waiting.size === 0) worker.unref();
    });
  }

  return {
    async query(sql, params = []) {
      return arrow.tableFromIPC((await call("query", [sql, [...params]])) as Uint8Array);
    },
    async insertArrowStream(table, ipc, options) {
      return (await call("insertArrowStream", [table, ipc, options])) as InsertOutcome;
    },
    async registerDatabaseFile(name, file) {
      if ("url" in file) throw new Error(`${name}: the Node DuckDB-WASM engine reads no URLs (${file.url})`);
      return (await call("registerDatabaseFile", [name, file])) as string;
    },
    async interrupt() {
      // The blocking build cannot interrupt a query; stop() ends the thread it runs in.
    },
    async stop(reason) {
      end(reason);
      terminate();
    },
    async close() {
      if (!ended) await call("close", []).catch(() => undefined);
      end("the engine is closed");
      terminate();
    },
  };
}
