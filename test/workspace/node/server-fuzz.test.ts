// Every local server survives any request: each runs in a process of its own (test/support/hostile-server.ts),
// gets malformed paths, wrong methods, odd headers and bodies over a raw socket, and must answer the next plain
// request. A throw in a handler ends that process, which is what a web page could do to `npm start` and
// `jankbook serve` with one <img src="http://127.0.0.1:PORT/%c0">.
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const KINDS = ["static", "workspace", "sql", "trace"] as const;
type Kind = (typeof KINDS)[number];

interface Child {
  proc: ChildProcess;
  url: URL;
  exited: () => string | null;
  stderr: () => string;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill();
});

function start(kind: Kind): Promise<Child> {
  const proc = spawn(process.execPath, ["--import", "tsx", "test/support/hostile-server.ts", kind], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(proc);
  let exit: string | null = null;
  let err = "";
  proc.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  proc.on("exit", (code, signal) => (exit = `exited with ${code ?? signal}`));
  return new Promise((ok, fail) => {
    proc.stdout!.once("data", (c: Buffer) =>
      ok({ proc, url: new URL(c.toString().trim()), exited: () => exit, stderr: () => err }),
    );
    proc.once("exit", () => fail(new Error(`${kind} server did not start: ${err}`)));
  });
}

/** Sends raw bytes as one request; the status of the answer, or null when the server just closed. */
function send(url: URL, bytes: Buffer): Promise<number | null> {
  return new Promise((ok) => {
    const s = connect(Number(url.port), url.hostname);
    let text = "";
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      ok(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ? Number(/^HTTP\/1\.1 (\d{3})/.exec(text)![1]) : null);
    };
    // A request that promised more body than it sent is left waiting: give up on it, not on the server.
    const timer = setTimeout(done, 3000);
    s.on("data", (c: Buffer) => {
      text += c.toString("latin1");
      if (/^HTTP\/1\.1 \d{3}/.test(text)) done();
    });
    s.on("error", done);
    s.on("close", done);
    s.write(bytes);
  });
}

function request(url: URL, head: string, headers: string[] = [], body = ""): Buffer {
  const lines = [head, `Host: ${url.host}`, ...headers];
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`, "latin1");
}

/** A plain request the server must still answer. */
async function alive(c: Child, kind: Kind): Promise<void> {
  const path = kind === "sql" ? "/api/engine" : kind === "trace" ? "/nothing-here" : "/";
  const status = await send(c.url, request(c.url, `GET ${path} HTTP/1.1`, ["Connection: close"]));
  expect(c.exited(), c.stderr()).toBeNull();
  expect(status).toBe(kind === "trace" ? 404 : 200);
}

const HOSTILE: [string, string, string[], string][] = [
  ["malformed percent-encoding", "GET /%c0 HTTP/1.1", [], ""],
  ["a lone percent", "GET /% HTTP/1.1", [], ""],
  ["an empty authority", "GET // HTTP/1.1", [], ""],
  ["an encoded NUL", "GET /%00 HTTP/1.1", [], ""],
  ["a bad SQL path", "POST /api/%ff HTTP/1.1", ["Content-Type: application/json"], "{}"],
  ["absolute-form", "GET http://evil.example/ HTTP/1.1", [], ""],
  ["asterisk-form", "OPTIONS * HTTP/1.1", [], ""],
  ["a wrong method", "DELETE / HTTP/1.1", [], ""],
  ["GET on the SQL endpoint", "GET /api/sql HTTP/1.1", [], ""],
  ["bad JSON", "POST /api/sql HTTP/1.1", ["Content-Type: application/json"], "{sql:"],
  ["JSON null", "POST /api/sql HTTP/1.1", ["Content-Type: application/json"], "null"],
  [
    "params not a list",
    "POST /api/sql HTTP/1.1",
    ["Content-Type: application/json"],
    '{"sql":"SELECT 1","params":{"$bigint":"x"}}',
  ],
  [
    "a bad bigint",
    "POST /api/sql HTTP/1.1",
    ["Content-Type: application/json"],
    '{"sql":"SELECT ?","params":[{"$bigint":"x"}]}',
  ],
  ["cancel without an id", "POST /api/cancel HTTP/1.1", ["Content-Type: application/json"], "[]"],
  [
    "a huge body",
    "POST /api/sql HTTP/1.1",
    ["Content-Type: application/json"],
    `{"sql":"${"x".repeat(2 << 20)}"}`,
  ],
  ["an absurd range", "GET / HTTP/1.1", ["Range: bytes=99999999999999999999999-"], ""],
  ["an odd host", "GET / HTTP/1.1", ["Host: [::1"], ""],
  ["a bad header", "GET / HTTP/1.1", ["X\u0001: y"], ""],
];

const method = fc.oneof(
  fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"),
  fc.stringMatching(/^[A-Z]{1,10}$/),
);
const segment = fc.oneof(
  fc.constantFrom(
    "",
    "%",
    "%c0",
    "%ff%fe",
    "%00",
    "..",
    "%2e%2e",
    "api",
    "sql",
    "cancel",
    "engine",
    "notebooks",
    "notebook-runs.json",
    "index.html",
    "assets",
    "ex",
    "r1",
    "manifest.json",
    "\\",
    "?",
    "#",
    "%2F",
    ";",
  ),
  fc.string({ maxLength: 12 }).map((s) => [...s].filter((c) => c > " " && c !== "\u007f").join("")),
);
const path = fc.array(segment, { maxLength: 6 }).map((p) => `/${p.join("/")}`);
const header = fc.oneof(
  fc.constantFrom(
    "Content-Type: application/json",
    "Content-Type: text/plain",
    "Range: bytes=0-",
    "Range: bytes=-5",
    "Range: bytes=5-1",
    "Range: bytes=abc",
    "If-None-Match: *",
    "Origin: http://evil.example",
    "Origin: null",
    "Transfer-Encoding: chunked",
    "Expect: 100-continue",
    "Connection: keep-alive",
    "Content-Length: -1",
  ),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z-]{1,12}$/), fc.string({ maxLength: 30 }))
    .map(([k, v]) => `${k}: ${v.replace(/[\r\n]/g, "")}`),
);
const body = fc.oneof(
  fc.constant(""),
  fc.json({ maxDepth: 3 }),
  fc
    .record({
      sql: fc.oneof(fc.string(), fc.constantFrom("SELECT 1", "SELECT * FROM range(10)", "COPY x TO 'y'")),
      params: fc.anything({ maxDepth: 2 }),
      id: fc.anything({ maxDepth: 1 }),
      timeout_ms: fc.anything({ maxDepth: 1 }),
    })
    .map((r) => JSON.stringify(r) ?? ""),
  fc.string({ maxLength: 200 }),
);

describe.each(KINDS)("the %s server", (kind) => {
  let child: Child;

  it("answers 4xx to each hostile request and stays up", async () => {
    child = await start(kind);
    for (const [, head, headers, text] of HOSTILE) {
      const status = await send(child.url, request(child.url, head, headers, text));
      // null: Node's own parser dropped the connection on bytes that are not HTTP.
      if (status !== null) expect(status, `${head} ${headers.join(" ")}`).toBeLessThan(500);
      // The paths that used to throw are refused as paths (the trace server answers only its one file: 404).
      if (/^GET \/(%c0|%|\/) /.test(head)) expect(status).toBe(kind === "trace" ? 404 : 400);
      await alive(child, kind);
    }
  }, 120_000);

  it("survives random paths, methods, headers and bodies, answering the next request", async () => {
    child ??= await start(kind);
    await fc.assert(
      fc.asyncProperty(method, path, fc.array(header, { maxLength: 4 }), body, async (m, p, hs, b) => {
        const status = await send(child.url, request(child.url, `${m} ${p} HTTP/1.1`, hs, b));
        if (status !== null) expect(status).toBeLessThan(500);
        await alive(child, kind);
      }),
      { numRuns: 40 },
    );
  }, 300_000);
});
