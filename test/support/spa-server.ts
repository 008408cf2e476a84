// The built workspace served as Vite's dev server and `vite preview` serve it: a path with no file behind it gets
// index.html with 200 (Vite's SPA fallback), the trap behind an "Unexpected token '<'" and the app's own
// page rendered as a notebook.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, resolve } from "node:path";
import { staticHandler, type StaticServer } from "../../workspace/node/static-server";

export async function serveWithSpaFallback(
  root: string,
  mounts: Record<string, string> = {},
): Promise<StaticServer> {
  const handle = staticHandler(root, mounts);
  const exists = (path: string) => {
    const mount = Object.keys(mounts).find((prefix) => path.startsWith(prefix));
    const dir = resolve(mount ? mounts[mount]! : root);
    const file = join(dir, normalize(mount ? path.slice(mount.length) : path));
    return existsSync(file) && (statSync(file).isFile() || existsSync(join(file, "index.html")));
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (exists(path)) return void handle(req, res);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
    createReadStream(join(root, "index.html")).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
