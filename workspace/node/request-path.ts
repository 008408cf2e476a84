// What every local server does with a request it cannot read: a 400 for a path that is not one (`/%c0`, `/%`,
// `//`), a 500 for its own failure, and never an exception that ends the process (a web page can send either).
import type { IncomingMessage, ServerResponse } from "node:http";

export class BadRequest extends Error {}

/** The request's decoded path; BadRequest for a target that is not an origin-form path (RFC 9112 §3.2.1). */
export function requestPath(req: IncomingMessage): string {
  const target = req.url ?? "/";
  // Only origin-form targets: `//x` or `http://…` would be read as an authority by the URL parser.
  if (!target.startsWith("/") || target.startsWith("//"))
    throw new BadRequest(`request target ${JSON.stringify(target.slice(0, 80))} is not a path`);
  const raw = target.replace(/[?#].*$/s, "");
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw new BadRequest(`path ${JSON.stringify(raw.slice(0, 80))} is not valid percent-encoded UTF-8`);
  }
  if (path.includes("\0")) throw new BadRequest("path holds a NUL byte");
  return path;
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" })
    .end(`${message}\n`);
}

/** Wraps a handler so that a throw or a rejection answers 400 (BadRequest) or 500, and the server lives on. */
export function guarded(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const failed = (e: unknown) =>
      e instanceof BadRequest
        ? fail(res, 400, `bad request: ${e.message}`)
        : fail(res, 500, `internal error: ${(e as Error)?.message ?? String(e)}`);
    try {
      const out = handler(req, res);
      if (out instanceof Promise) out.catch(failed);
    } catch (e) {
      failed(e);
    }
  };
}
