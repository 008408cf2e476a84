// `jankbook serve` (docs/scaling.md): the built workspace plus a SQL endpoint on one native DuckDB that holds
// the runs (loaded as `jankbook run` loads them) and the lake (views over its Parquet). Loopback only.
//   GET  /api/engine            → {engine, version, runs, lake}
//   POST /api/sql {sql, params, id?, timeout_ms?} → Arrow IPC stream (cut at the row and byte caps, the cut named
//                                in its schema metadata and the x-jankbook-truncated header), or {error}
//                                (403 refused, 408 stopped at its timeout, 499 cancelled)
//   POST /api/cancel {id}       → stops the query that its client named `id`, and only that one
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { createNativeEngine, NATIVE_DUCKDB_VERSION, type NativeEngine } from "../db/node/duckdb-native";
import { attachLake } from "../db/node/lake-views";
import { decodeParams } from "../db/remote-http-engine";
import { RefusedSql } from "../db/sql-guard";
import {
  createQueryPool,
  DEFAULT_LIMITS,
  QueryStopped,
  type QueryLimits,
  type QueryPool,
} from "../db/node/query-pool";
import { BadRequest, guarded, requestPath } from "./request-path";
import { loadRuns, resolveRunDirs } from "./open-notebook-runs";
import { staticHandler } from "./static-server";

/** Loopback only: the endpoint runs any query on the lab's data. */
export const HOST = "127.0.0.1";
/** A request body larger than this is refused: notebook SQL is text, not data. */
const MAX_BODY = 1 << 20;

export interface ServeOptions {
  /** the built workspace (dist/) */
  dist: string;
  lake?: string;
  runs?: string[];
  port?: number;
  /** a notebook served at /notebooks/<its name> (that file only, not its folder) */
  notebook?: string;
  progress?: (line: string) => void;
  /** per-query caps and timeouts (DEFAULT_LIMITS for any not given) */
  limits?: Partial<QueryLimits>;
  /** DuckDB's memory_limit, e.g. "2GB" */
  maxMemory?: string;
}

export interface SqlServer {
  url: string;
  server: Server;
  engine: NativeEngine;
  queries: QueryPool;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        // Stop reading, answer, then drop the connection (the rest of the body is never read).
        req.pause();
        fail(new BadRequest(`request body over ${MAX_BODY} bytes`));
      } else chunks.push(c);
    });
    req.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}

/** Loads the runs and the lake into a native engine, then forbids it every file and network access but theirs. */
async function openEngine(
  opts: ServeOptions,
): Promise<{ engine: NativeEngine; info: Record<string, unknown> }> {
  const engine = await createNativeEngine();
  try {
    const dirs = opts.runs?.length ? await resolveRunDirs({} as never, ".", { runs: opts.runs }) : [];
    const runs = await loadRuns(dirs, engine, opts.progress);
    const lake = opts.lake ? await attachLake(engine, opts.lake) : [];
    // The lake's views read its Parquet at query time: its folder stays readable, nothing else does.
    if (opts.lake)
      await engine.query(`SET allowed_directories = ['${resolve(opts.lake).replace(/'/g, "''")}']`);
    if (opts.maxMemory) await engine.query(`SET memory_limit = '${opts.maxMemory.replace(/'/g, "''")}'`);
    await engine.query("SET enable_external_access = false");
    await engine.query("SET lock_configuration = true");
    const info = {
      engine: "native",
      version: NATIVE_DUCKDB_VERSION,
      // Folder names, not absolute paths: the page has no use for where the lab keeps its data.
      runs: runs.map((r) => ({ run_id: r.run_id, dir: basename(r.dir), errors: r.errors })),
      lake: lake.map((t) => `lake.${t}`),
    };
    return { engine, info };
  } catch (e) {
    await engine.close();
    throw e;
  }
}

/** The body of POST /api/sql, checked: BadRequest names the field that is wrong. */
function parseSqlBody(text: string): { sql: string; params: unknown[]; id?: string; timeoutMs?: number } {
  let body: { sql?: unknown; params?: unknown; id?: unknown; timeout_ms?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch (e) {
    throw new BadRequest(`body is not JSON: ${(e as Error).message}`);
  }
  if (!body || typeof body !== "object") throw new BadRequest("body: expected an object {sql, params}");
  if (typeof body.sql !== "string") throw new BadRequest("sql: expected a string");
  if (body.id !== undefined && (typeof body.id !== "string" || body.id.length < 8 || body.id.length > 128))
    throw new BadRequest("id: expected a string of 8 to 128 characters (pick an unguessable one)");
  const t = body.timeout_ms;
  if (t !== undefined && (typeof t !== "number" || !Number.isFinite(t) || t <= 0))
    throw new BadRequest("timeout_ms: expected a positive number of milliseconds");
  let params: unknown[];
  try {
    params = decodeParams(body.params);
  } catch (e) {
    throw new BadRequest((e as Error).message);
  }
  return { sql: body.sql, params, id: body.id as string | undefined, timeoutMs: t as number | undefined };
}

export async function startSqlServer(opts: ServeOptions): Promise<SqlServer> {
  const { engine, info } = await openEngine(opts);
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const queries = createQueryPool(engine, limits);
  const files = staticHandler(opts.dist);
  const notebookPath = opts.notebook ? `/notebooks/${basename(opts.notebook)}` : null;
  let origin = "";

  async function sql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let q: ReturnType<typeof parseSqlBody>;
    try {
      q = parseSqlBody(await readBody(req));
    } catch (e) {
      json(res, 400, { error: `bad request: ${(e as Error).message}` });
      if (!req.complete) res.on("finish", () => req.destroy());
      return;
    }
    // The client gone (its socket closed before the answer): the query is stopped, not left to run.
    const gone = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    try {
      const answer = await queries.run(q.sql, q.params, {
        id: q.id,
        timeoutMs: q.timeoutMs,
        signal: gone.signal,
      });
      const headers: Record<string, string | number> = {
        "content-type": "application/vnd.apache.arrow.stream",
        "content-length": answer.ipc.byteLength,
        "cache-control": "no-store",
        "x-jankbook-rows": answer.rows,
      };
      if (answer.truncated) headers["x-jankbook-truncated"] = answer.truncated;
      res
        .writeHead(200, headers)
        .end(Buffer.from(answer.ipc.buffer, answer.ipc.byteOffset, answer.ipc.byteLength));
    } catch (e) {
      const message = (e as Error).message;
      const status =
        e instanceof RefusedSql
          ? 403
          : e instanceof QueryStopped
            ? /timeout/.test(message)
              ? 408
              : 499
            : 400;
      if (!res.destroyed) json(res, status, { error: message });
    }
  }

  async function cancel(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let id: unknown;
    try {
      id = (JSON.parse(await readBody(req)) as { id?: unknown } | null)?.id;
    } catch (e) {
      throw new BadRequest(`body: ${(e as Error).message}`);
    }
    if (typeof id !== "string")
      throw new BadRequest("POST /api/cancel takes {id}: the id the query was sent with");
    json(res, 200, { cancelled: queries.cancel(id) });
  }

  const server = createServer(
    guarded((req, res) => {
      const path = requestPath(req);
      // DNS rebinding: a page served from another name that resolves to 127.0.0.1 must not reach the data.
      const host = req.headers.host ?? "";
      if (host !== origin.slice("http://".length) && host !== `localhost:${new URL(origin).port}`) {
        json(res, 403, { error: `host ${host} refused: jankbook serve answers ${origin} only` });
        return;
      }
      if (path === notebookPath) {
        return readFile(opts.notebook!).then(
          (text) => res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(text),
          (e: Error) => json(res, 404, { error: `notebook ${basename(opts.notebook!)}: ${e.message}` }),
        );
      }
      if (!path.startsWith("/api/")) return files(req, res);
      // A cross-site page may POST simple requests; only our own page and non-browser clients get in.
      if (req.headers.origin !== undefined && req.headers.origin !== origin) {
        json(res, 403, { error: `origin ${req.headers.origin} refused` });
        return;
      }
      const route = `${req.method} ${path}`;
      if (route === "GET /api/engine") json(res, 200, { ...info, limits });
      else if (route === "POST /api/sql" || route === "POST /api/cancel") {
        if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
          json(res, 415, { error: `${route} takes application/json` });
        else return route === "POST /api/sql" ? sql(req, res) : cancel(req, res);
      } else if (["/api/engine", "/api/sql", "/api/cancel"].includes(path))
        json(res, 405, { error: `${route}: wrong method` });
      else json(res, 404, { error: `${route}: no such endpoint` });
    }),
  );
  try {
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(opts.port ?? 0, HOST, ok);
    });
  } catch (e) {
    await engine.close();
    throw new Error(`jankbook serve: cannot listen on ${HOST}:${opts.port ?? 0}: ${(e as Error).message}`);
  }
  const { port } = server.address() as AddressInfo;
  origin = `http://${HOST}:${port}`;
  return {
    url: `${origin}/`,
    server,
    engine,
    queries,
    close: async () => {
      queries.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await engine.close();
    },
  };
}
