// `jankbook serve` (docs/scaling.md): the built workspace plus a SQL endpoint on one native DuckDB that holds
// the runs (loaded as `jankbook run` loads them) and the lake (views over its Parquet). Loopback only.
//   GET  /api/engine            → {engine, version, runs, lake}
//   POST /api/sql {sql, params} → Arrow IPC stream, or {error} (403 when refused)
//   POST /api/cancel            → interrupts the query in flight
import { createRequire } from "node:module";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import type { Table } from "apache-arrow";
import { createNativeEngine, NATIVE_DUCKDB_VERSION } from "../db/node/duckdb-native";
import type { SqlEngine } from "../db/engine";
import { attachLake } from "../db/node/lake-views";
import { decodeParams } from "../db/remote-http-engine";
import { checkSql, RefusedSql } from "../db/sql-guard";
import { loadRuns, resolveRunDirs } from "./headless";
import { staticHandler } from "./static-server";

const arrow = createRequire(import.meta.url)("apache-arrow") as {
  tableToIPC(t: unknown, type: "stream"): Uint8Array;
};

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
}

export interface SqlServer {
  url: string;
  server: Server;
  engine: SqlEngine;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        fail(new Error(`request body over ${MAX_BODY} bytes`));
        req.destroy();
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
async function openEngine(opts: ServeOptions): Promise<{ engine: SqlEngine; info: Record<string, unknown> }> {
  const engine = await createNativeEngine();
  try {
    const dirs = opts.runs?.length ? await resolveRunDirs({} as never, ".", { runs: opts.runs }) : [];
    const runs = await loadRuns(dirs, engine, opts.progress);
    const lake = opts.lake ? await attachLake(engine, opts.lake) : [];
    // The lake's views read its Parquet at query time: its folder stays readable, nothing else does.
    if (opts.lake)
      await engine.query(`SET allowed_directories = ['${resolve(opts.lake).replace(/'/g, "''")}']`);
    await engine.query("SET enable_external_access = false");
    await engine.query("SET lock_configuration = true");
    const info = {
      engine: "native",
      version: NATIVE_DUCKDB_VERSION,
      runs: runs.map((r) => ({ run_id: r.run_id, dir: r.dir, errors: r.errors })),
      lake: lake.map((t) => `lake.${t}`),
    };
    return { engine, info };
  } catch (e) {
    await engine.close();
    throw e;
  }
}

export async function startSqlServer(opts: ServeOptions): Promise<SqlServer> {
  const { engine, info } = await openEngine(opts);
  const files = staticHandler(opts.dist);
  const notebookPath = opts.notebook ? `/notebooks/${encodeURIComponent(basename(opts.notebook))}` : null;
  // One connection: queries run one at a time, in arrival order; cancel interrupts the one running.
  let queue: Promise<unknown> = Promise.resolve();
  let origin = "";

  async function sql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let sqlText: string;
    let params: unknown[];
    try {
      const body = JSON.parse(await readBody(req)) as { sql?: unknown; params?: unknown };
      if (typeof body.sql !== "string") throw new Error("sql: expected a string");
      sqlText = body.sql;
      params = decodeParams(body.params);
    } catch (e) {
      json(res, 400, { error: `bad request: ${(e as Error).message}` });
      return;
    }
    const run = queue.then(async () => {
      await checkSql(engine, sqlText);
      return arrow.tableToIPC((await engine.query(sqlText, params)) as Table, "stream");
    });
    queue = run.catch(() => undefined);
    try {
      const ipc = await run;
      res
        .writeHead(200, {
          "content-type": "application/vnd.apache.arrow.stream",
          "content-length": ipc.byteLength,
          "cache-control": "no-store",
        })
        .end(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength));
    } catch (e) {
      json(res, e instanceof RefusedSql ? 403 : 400, { error: (e as Error).message });
    }
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    // DNS rebinding: a page served from another name that resolves to 127.0.0.1 must not reach the data.
    const host = req.headers.host ?? "";
    if (host !== origin.slice("http://".length) && host !== `localhost:${new URL(origin).port}`) {
      json(res, 403, { error: `host ${host} refused: jankbook serve answers ${origin} only` });
      return;
    }
    if (path === notebookPath) {
      readFile(opts.notebook!).then(
        (text) => res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(text),
        (e: Error) => json(res, 404, { error: `notebook ${opts.notebook}: ${e.message}` }),
      );
      return;
    }
    if (!path.startsWith("/api/")) {
      void files(req, res);
      return;
    }
    // A cross-site page may POST simple requests; only our own page and non-browser clients get in.
    if (req.headers.origin !== undefined && req.headers.origin !== origin) {
      json(res, 403, { error: `origin ${req.headers.origin} refused` });
      return;
    }
    if (path === "/api/engine" && req.method === "GET") json(res, 200, info);
    else if (path === "/api/sql" && req.method === "POST") {
      if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
        json(res, 415, { error: "POST /api/sql takes application/json: {sql, params}" });
      else void sql(req, res);
    } else if (path === "/api/cancel" && req.method === "POST") {
      void engine.interrupt().then(() => json(res, 200, { cancelled: true }));
    } else json(res, 404, { error: `${req.method} ${path}: no such endpoint` });
  });
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
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await engine.close();
    },
  };
}
