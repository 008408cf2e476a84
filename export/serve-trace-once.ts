// Serves one trace file once on 127.0.0.1:9001 for Perfetto UI to fetch, as Perfetto's tools/open_trace_in_ui
// does: port 9001 is the only local origin ui.perfetto.dev's Content-Security-Policy lets it fetch from; the
// response carries Access-Control-Allow-Origin for the UI's origin; the server exits after the one GET.
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

export const PERFETTO_UI = "https://ui.perfetto.dev";

export interface ServeOnceOptions {
  /** 9001 unless told; 0 picks a free port (tests) */
  port?: number;
  /** the Perfetto UI origin allowed to fetch the file (a local build: http://localhost:10000) */
  origin?: string;
}

export interface ServingTrace {
  /** where the file is served */
  url: string;
  /** the Perfetto UI link that opens it */
  link: string;
  /** resolves once the file has been sent (the server is closed by then) */
  served: Promise<void>;
  close(): Promise<void>;
}

export async function serveTraceOnce(file: string, options: ServeOnceOptions = {}): Promise<ServingTrace> {
  const port = options.port ?? 9001;
  const origin = new URL(options.origin ?? PERFETTO_UI).origin;
  const name = encodeURIComponent(basename(file));
  const bytes = await readFile(file);
  let done!: () => void;
  const served = new Promise<void>((resolve) => (done = resolve));
  const server: Server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Cache-Control", "no-cache");
    if (req.method === "OPTIONS") {
      // Chrome's Private Network Access preflight for a public page fetching from 127.0.0.1.
      res.setHeader("Access-Control-Allow-Methods", "GET");
      res.setHeader("Access-Control-Allow-Private-Network", "true");
      res.writeHead(204).end();
      return;
    }
    if (req.method !== "GET" || req.url !== `/${name}`) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("File not found\n");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": bytes.length });
    res.end(bytes, () => {
      server.close();
      server.closeAllConnections();
      done();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === "EADDRINUSE"
            ? `127.0.0.1:${port} is in use (a trace_processor --httpd or another open_trace_in_ui?); stop it and retry`
            : `cannot serve on 127.0.0.1:${port}: ${e.message}`,
        ),
      ),
    );
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
  return {
    url,
    link: `${origin}/#!/?url=${url}&referrer=jankbook`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
