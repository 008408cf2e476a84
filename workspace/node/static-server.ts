// Serves the built workspace (dist/) over HTTP without compression: big .arrows and .wasm files go out
// as they are (vite preview gzips on the fly and made a 28 MB table take 18x longer).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { findNotebookRuns, NOTEBOOK_RUNS_INDEX, NOTEBOOK_RUNS_PREFIX } from "./notebook-runs-plugin";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".arrows": "application/vnd.apache.arrow.stream",
  ".arrow": "application/vnd.apache.arrow.file",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".md": "text/markdown; charset=utf-8",
  ".duckdb": "application/octet-stream",
};

/** Vite's content-hashed assets never change under their name; everything else is revalidated. */
export function cacheControl(path: string): string {
  return /(^|\/)assets\/[^/]*-[\w-]{8,}\.\w+$/.test(path)
    ? "public, max-age=31536000, immutable"
    : "no-cache";
}

export interface StaticServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Answers requests from `root` and the mounts (jankbook serve puts its SQL endpoint in front of this). */
export function staticHandler(
  root: string,
  mounts: Record<string, string> = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const base = resolve(root);
  return async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const mount = Object.keys(mounts).find((prefix) => path.startsWith(prefix));
    const dir = mount ? resolve(mounts[mount]!) : base;
    const rel = normalize(mount ? path.slice(mount.length) : path).replace(/^(\.\.[/\\])+/, "");
    let file = join(dir, rel);
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, "index.html");
        info = await stat(file);
      }
      const headers = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": cacheControl(rel),
        "accept-ranges": "bytes",
        etag: `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
        "last-modified": info.mtime.toUTCString(),
      };
      // Revalidation: an unchanged file costs one round trip, not its bytes (RFC 9110 §13.1.2).
      if (req.headers["if-none-match"] === headers.etag) {
        res.writeHead(304, headers).end();
        return;
      }
      // Range requests: DuckDB-WASM reads an attached run.duckdb a few blocks at a time (docs/scaling.md).
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, info.size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), info.size - 1) : info.size - 1;
        if (start > end || start >= info.size) {
          res.writeHead(416, { "content-range": `bytes */${info.size}` }).end();
          return;
        }
        res.writeHead(206, {
          ...headers,
          "content-length": end - start + 1,
          "content-range": `bytes ${start}-${end}/${info.size}`,
        });
        if (req.method === "HEAD") res.end();
        else createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, { ...headers, "content-length": info.size });
      if (req.method === "HEAD") res.end();
      else createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
    }
  };
}

/** Listens on loopback; the URL names `host` (npm start prints localhost, as Vite did). */
async function listen(server: Server, port: number, host = "127.0.0.1"): Promise<StaticServer> {
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", ok);
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}/`,
    server,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/** Serves `root`, plus extra folders mounted at URL prefixes (e.g. {"/runs/": "/data/bundles"}). */
export function serveStatic(
  root: string,
  port = 0,
  mounts: Record<string, string> = {},
): Promise<StaticServer> {
  return listen(createServer(staticHandler(root, mounts)), port);
}

/**
 * npm start's server: the built workspace from `dist`, and the runs beside notebooks live from `notebooks` as
 * notebook-runs-plugin.ts serves them in dev (notebook-runs.json, and only files directly in a run folder).
 */
export function serveWorkspace(
  dist: string,
  notebooks: string,
  port = 0,
  host = "127.0.0.1",
): Promise<StaticServer> {
  const files = staticHandler(dist);
  const runs = staticHandler(dist, { [`/${NOTEBOOK_RUNS_PREFIX}`]: notebooks });
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (path === `/${NOTEBOOK_RUNS_INDEX}`) {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-cache" });
      res.end(JSON.stringify(findNotebookRuns(notebooks)));
      return;
    }
    const rel = path.startsWith(`/${NOTEBOOK_RUNS_PREFIX}`)
      ? path.slice(NOTEBOOK_RUNS_PREFIX.length + 1)
      : "";
    const folder = rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
    void (folder && findNotebookRuns(notebooks).includes(folder) ? runs(req, res) : files(req, res));
  });
  return listen(server, port, host);
}
