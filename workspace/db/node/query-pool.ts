// jankbook serve's queries, each bounded: a few run at once, each on its own native connection (DuckDB executes
// off the JS thread, so static files and other clients keep answering), each stopped by connection.interrupt()
// at its timeout, when its client cancels it by id, or when its client goes away; results are cut at a row and
// a byte cap, and the cut is named in the result (docs/scaling.md, "jankbook serve").
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import * as arrow from "apache-arrow";
import type { NativeEngine } from "./duckdb-native";
import { resultToArrow, streamEndedInError } from "./native-arrow";
import { checkSql } from "../sql-guard";

// the instance native-arrow.ts builds its tables with

export interface QueryLimits {
  /** rows per result; more are cut off */
  maxRows: number;
  /** bytes of Arrow IPC per result; more rows are cut off */
  maxBytes: number;
  /** a query's time when the request names none */
  timeoutMs: number;
  /** the longest a request may ask for */
  maxTimeoutMs: number;
  /** queries running at once (each holds a connection and one of libuv's four pool threads) */
  slots: number;
}

export const DEFAULT_LIMITS: QueryLimits = {
  maxRows: 500_000,
  maxBytes: 128 << 20,
  timeoutMs: 30_000,
  maxTimeoutMs: 600_000,
  slots: 2,
};

/** Key of the Arrow schema metadata that says a result was cut, and where. */
export const TRUNCATED_KEY = "jankbook.truncated";

/** A query stopped before its end: its timeout, its client's cancel, or its client gone. */
export class QueryStopped extends Error {}

export interface QueryAnswer {
  ipc: Uint8Array;
  rows: number;
  /** why rows are missing (the cap that cut them), or null when the result is whole */
  truncated: string | null;
}

interface Running {
  stop(reason: string): void;
}

function seconds(ms: number): string {
  return `${+(ms / 1000).toFixed(3)} s`;
}

export function createQueryPool(engine: NativeEngine, limits: QueryLimits = DEFAULT_LIMITS) {
  const idle: DuckDBConnection[] = [];
  let open = 0;
  const waiting: ((c: DuckDBConnection) => void)[] = [];
  const running = new Map<string, Running>();

  async function acquire(): Promise<DuckDBConnection> {
    const c = idle.pop();
    if (c) return c;
    if (open < limits.slots) {
      open++;
      return engine.connect().catch((e: unknown) => {
        open--;
        throw e;
      });
    }
    return new Promise((ok) => waiting.push(ok));
  }

  function release(c: DuckDBConnection): void {
    const next = waiting.shift();
    if (next) next(c);
    else idle.push(c);
  }

  /** The result as Arrow IPC, cut to the caps; the cut is written in the schema's metadata. */
  function encode(table: arrow.Table, more: boolean): QueryAnswer {
    let rows = Math.min(table.numRows, limits.maxRows);
    let truncated =
      more || table.numRows > limits.maxRows
        ? `cut at ${rows} rows (the cap is ${limits.maxRows} rows)`
        : null;
    let ipc = arrow.tableToIPC(rows < table.numRows ? table.slice(0, rows) : table, "stream");
    while (ipc.byteLength > limits.maxBytes && rows > 0) {
      rows = Math.floor((rows * limits.maxBytes * 0.95) / ipc.byteLength);
      truncated = `cut at ${rows} rows (the cap is ${limits.maxBytes} bytes of Arrow)`;
      ipc = arrow.tableToIPC(table.slice(0, rows), "stream");
    }
    if (truncated) {
      const t = table.slice(0, rows);
      t.schema.metadata.set(TRUNCATED_KEY, truncated);
      ipc = arrow.tableToIPC(t, "stream");
    }
    return { ipc, rows, truncated };
  }

  return {
    limits,
    /**
     * Runs one query under `id` (a client's own unguessable name for it, so that only it can cancel it).
     * `signal` aborts it when the client goes away; `timeoutMs` replaces the default, up to the maximum.
     */
    async run(
      sql: string,
      params: readonly unknown[],
      opts: { id?: string; timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<QueryAnswer> {
      const timeoutMs = Math.min(opts.timeoutMs ?? limits.timeoutMs, limits.maxTimeoutMs);
      if (opts.id !== undefined && running.has(opts.id))
        throw new Error(`a query named ${opts.id} is already running`);
      let stopped: string | null = null;
      let conn: DuckDBConnection | null = null;
      const entry: Running = {
        stop(reason) {
          stopped ??= reason;
          conn?.interrupt();
        },
      };
      if (opts.id !== undefined) running.set(opts.id, entry);
      const onAbort = () => entry.stop("its client went away");
      opts.signal?.addEventListener("abort", onAbort);
      let timer: NodeJS.Timeout | undefined;
      let nag: NodeJS.Timeout | undefined;
      try {
        if (opts.signal?.aborted) throw new QueryStopped("query stopped: its client went away");
        const c = await acquire();
        try {
          if (stopped) throw new QueryStopped(`query stopped before it started: ${stopped}`);
          conn = c;
          timer = setTimeout(() => entry.stop(`its timeout of ${seconds(timeoutMs)}`), timeoutMs);
          // An interrupt that lands between two statements (the check and the query) is lost: repeat it.
          nag = setInterval(() => stopped && c.interrupt(), 100);
          const session = {
            query: async (text: string, values: readonly unknown[] = []) =>
              resultToArrow(await c.runAndReadAll(text, values as DuckDBValue[])) as never,
          };
          await checkSql(session, sql);
          if (stopped) throw new QueryStopped(`query stopped: ${stopped}`);
          const values = params.length ? (params as DuckDBValue[]) : undefined;
          const reader = await c.streamAndReadUntil(sql, limits.maxRows + 1, values);
          if (stopped) throw new QueryStopped(`query stopped: ${stopped}`);
          // The streamed fetch ends quietly on an error, as at the end: run again, materialised, for DuckDB's message.
          if (streamEndedInError(reader)) {
            const whole = await c.runAndReadAll(sql, values);
            if (stopped) throw new QueryStopped(`query stopped: ${stopped}`);
            return encode(resultToArrow(whole), whole.currentRowCount > limits.maxRows);
          }
          return encode(resultToArrow(reader), !reader.done && reader.currentRowCount > limits.maxRows);
        } catch (e) {
          // DuckDB answers an interrupt with "INTERRUPT Error: Interrupted!": say which stop it was.
          if (stopped && !(e instanceof QueryStopped)) throw new QueryStopped(`query stopped: ${stopped}`);
          throw e;
        } finally {
          clearTimeout(timer);
          clearInterval(nag);
          conn = null;
          release(c);
        }
      } finally {
        opts.signal?.removeEventListener("abort", onAbort);
        if (opts.id !== undefined && running.get(opts.id) === entry) running.delete(opts.id);
      }
    },
    /** Stops the query named `id`; false when no query of that name is running. */
    cancel(id: string): boolean {
      const q = running.get(id);
      q?.stop("cancelled by its client");
      return q !== undefined;
    },
    get running(): number {
      return running.size;
    },
    close(): void {
      for (const q of running.values()) q.stop("the server is closing");
      for (const c of idle.splice(0)) c.closeSync();
    },
  };
}

export type QueryPool = ReturnType<typeof createQueryPool>;
