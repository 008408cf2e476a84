// The SQL engine across a worker boundary (docs/architecture.md, "Decisions"): cells run in a worker the
// runner can terminate, the engine stays in the runner's thread with the loaded runs. Queries go over a
// MessagePort; results come back as Arrow IPC streams and are decoded with the ESM apache-arrow instance, the one
// the page's cells get too (the CommonJS one, which DuckDB-WASM's results use in process, costs a worker 60 ms or
// more to load: docs/scaling.md, "jankbook run's start").
import { createRequire } from "node:module";
import type { MessagePort } from "node:worker_threads";
import { Table, tableFromIPC, tableToIPC } from "apache-arrow";
import type { SqlEngine } from "../db/engine";

const require = createRequire(import.meta.url);

type Request = { type: "query"; id: number; sql: string; params: readonly unknown[] } | { type: "interrupt" };
type Reply = { id: number; ipc?: Uint8Array; error?: string };

/** Encodes a result table from either apache-arrow instance as an IPC stream. */
async function encode(table: Table): Promise<Uint8Array> {
  if (table instanceof Table) return tableToIPC(table, "stream");
  // DuckDB-WASM's in process: the dual-package hazard, docs/architecture.md
  const cjs = require("apache-arrow") as { tableToIPC(t: unknown, type: "stream"): Uint8Array };
  return cjs.tableToIPC(table, "stream");
}

/** The most one query may hand a cell: over either, the query fails (a cut result would make a wrong analysis). */
export interface ResultCaps {
  maxRows: number;
  /** bytes of the result as Arrow IPC */
  maxBytes: number;
}

/** 50M rows, 1 GiB: past these a cell is pulling a run's table whole into the JS heap instead of aggregating in SQL. */
export const DEFAULT_RESULT_CAPS: ResultCaps = { maxRows: 50_000_000, maxBytes: 1 << 30 };

/** Why a result is over the caps, or null. The message names the cap and the option that raises it. */
export function overResultCaps(rows: number, bytes: number, caps: ResultCaps): string | null {
  // small caps (a test's, a tight CI's) keep two significant digits instead of reading "0 MB"
  const n = (v: number) =>
    v.toLocaleString("en-US", v < 1 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 2 });
  if (rows > caps.maxRows)
    return `the result has ${n(rows)} rows, over the cap of ${n(caps.maxRows)} (--max-rows): aggregate in SQL, or raise the cap`;
  if (bytes > caps.maxBytes)
    return `the result is ${n(bytes / 2 ** 20)} MB of Arrow, over the cap of ${n(caps.maxBytes / 2 ** 20)} MB (--max-result-mb): aggregate in SQL, or raise the cap`;
  return null;
}

/**
 * Runner side: answers the worker's queries on `engine`, one at a time, in order, refusing a result over `caps`.
 * stop() skips the queries still queued, interrupts the one running and resolves once it has ended (the engine
 * may then be closed).
 */
export function serveEngine(
  port: MessagePort,
  engine: SqlEngine,
  caps: ResultCaps = DEFAULT_RESULT_CAPS,
): { stop(): Promise<void> } {
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  port.on("message", (m: Request) => {
    if (m.type === "interrupt") {
      void engine.interrupt();
      return;
    }
    queue = queue.then(async () => {
      if (stopped) return;
      let reply: Reply;
      try {
        // A streaming engine stops converting past the row cap; the message is the same either way.
        const table = await engine.query(m.sql, m.params, {
          maxRows: caps.maxRows,
          over: (rows) => new Error(overResultCaps(rows, 0, caps)!),
        });
        // Rows first: a result over the row cap is not encoded at all.
        const tooMany = overResultCaps(table.numRows, 0, caps);
        if (tooMany) throw new Error(tooMany);
        const ipc = await encode(table);
        const tooBig = overResultCaps(table.numRows, ipc.byteLength, caps);
        if (tooBig) throw new Error(tooBig);
        reply = { id: m.id, ipc };
        port.postMessage(reply, [ipc.buffer as ArrayBuffer]);
        return;
      } catch (e) {
        reply = { id: m.id, error: (e as Error).message };
      }
      port.postMessage(reply);
    });
  });
  return {
    async stop() {
      stopped = true;
      await engine.interrupt();
      await queue;
    },
  };
}

/** Worker side: a SqlEngine whose queries run in the runner's thread. Loading is the runner's job. `idle()`
 * resolves once no query is in flight. */
export function remoteEngine(port: MessagePort): SqlEngine & { idle(): Promise<void> } {
  let next = 0;
  const waiting = new Map<number, { resolve: (t: Table) => void; reject: (e: Error) => void }>();
  const idlers: (() => void)[] = [];
  port.on("message", (r: Reply) => {
    const w = waiting.get(r.id);
    if (!w) return;
    waiting.delete(r.id);
    if (r.error !== undefined) w.reject(new Error(r.error));
    else w.resolve(tableFromIPC(r.ipc!));
  });
  // Unreferenced while idle: a worker with nothing left to do may end.
  port.unref();
  return {
    query(sql, params = []) {
      const id = next++;
      port.ref();
      return new Promise<Table>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        port.postMessage({ type: "query", id, sql, params: [...params] } satisfies Request);
      }).finally(() => {
        if (waiting.size > 0) return;
        port.unref();
        for (const r of idlers.splice(0)) r();
      });
    },
    idle() {
      return waiting.size === 0 ? Promise.resolve() : new Promise<void>((r) => idlers.push(r));
    },
    async insertArrowStream() {
      throw new Error("the notebook worker does not load tables: the runner loads them before the cells run");
    },
    async interrupt() {
      port.postMessage({ type: "interrupt" } satisfies Request);
    },
    async close() {
      port.close();
    },
  };
}
