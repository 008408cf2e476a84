// jankbook serve's queries are bounded: rows and bytes cut at the caps (and the cut said), a timeout by default
// and per request, a client's cancel stops its own query only, a client gone stops its query, and files and other
// clients are answered while a runaway runs.
import { mkdtemp, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveLoad } from "../../support/serve-load";
import { TRUNCATED_KEY } from "../../../workspace/db/node/query-pool";
import { startSqlServer, type SqlServer } from "../../../workspace/node/sql-server";

// Counts forever: only an interrupt ends it.
const RUNAWAY = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) AS n FROM r";

let server: SqlServer;
beforeAll(async () => {
  const dist = await mkdtemp(join(tmpdir(), "jb-bounds-dist-"));
  await writeFile(join(dist, "index.html"), "<title>jankbook</title>");
  server = await startSqlServer({
    dist,
    runs: [],
    limits: { maxRows: 1000, maxBytes: 64 * 1024, timeoutMs: 2000, slots: 2 },
  });
}, 60_000);
afterAll(async () => server?.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function post(path: string, body: unknown, onRequest?: (abort: () => void) => void): Promise<Answer> {
  return postTo(server, path, body, onRequest);
}

function postTo(
  to: SqlServer,
  path: string,
  body: unknown,
  onRequest?: (abort: () => void) => void,
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request(
      new URL(path, to.url),
      { method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          ok({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify(body));
    onRequest?.(() => req.destroy(new Error("the client went away")));
  });
}

const error = (a: Answer) => (JSON.parse(a.bytes.toString()) as { error: string }).error;
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

describe("jankbook serve: bounded queries", () => {
  it("cuts a result at the row cap and says so, with the cap; a smaller one is whole", async () => {
    const a = await post("api/sql", { sql: "SELECT i FROM range(10000000) t(i)" });
    expect(a.status).toBe(200);
    const t = tableFromIPC(a.bytes);
    expect(t.numRows).toBe(1000);
    expect(Number(t.getChild("i")!.get(999))).toBe(999);
    expect(t.schema.metadata.get(TRUNCATED_KEY)).toBe("cut at 1000 rows (the cap is 1000 rows)");
    expect(a.headers["x-jankbook-truncated"]).toBe("cut at 1000 rows (the cap is 1000 rows)");
    const whole = await post("api/sql", { sql: "SELECT i FROM range(1000) t(i)" });
    expect(tableFromIPC(whole.bytes).numRows).toBe(1000);
    expect(tableFromIPC(whole.bytes).schema.metadata.has(TRUNCATED_KEY)).toBe(false);
    expect(whole.headers["x-jankbook-truncated"]).toBeUndefined();
  });

  it("cuts a result at the byte cap and says so", async () => {
    // 500 rows of 1,000 characters: under the row cap, ~500 KB over the 64 KiB one.
    const a = await post("api/sql", { sql: "SELECT repeat('x', 1000) AS s FROM range(500)" });
    const t = tableFromIPC(a.bytes);
    expect(a.bytes.byteLength).toBeLessThanOrEqual(64 * 1024);
    expect(t.numRows).toBeGreaterThan(0);
    expect(t.numRows).toBeLessThan(65);
    expect(t.schema.metadata.get(TRUNCATED_KEY)).toBe(
      `cut at ${t.numRows} rows (the cap is 65536 bytes of Arrow)`,
    );
  });

  it("stops a runaway at the default timeout, and at a request's own", async () => {
    const a = await post("api/sql", { sql: RUNAWAY });
    expect(a.status).toBe(408);
    expect(error(a)).toBe("query stopped: its timeout of 2 s");
    const b = await post("api/sql", { sql: RUNAWAY, timeout_ms: 300 });
    expect(error(b)).toBe("query stopped: its timeout of 0.3 s");
    expect(server.queries.running).toBe(0);
  }, 60_000);

  it("lets a client cancel its own query only, and answers files and others meanwhile", async () => {
    const mine = post("api/sql", { sql: RUNAWAY, id: "client-a-query-1", timeout_ms: 600_000 });
    await until(() => server.queries.running === 1);
    const other = await post("api/cancel", { id: "client-b-guessing" });
    expect(JSON.parse(other.bytes.toString())).toEqual({ cancelled: false });
    // The runaway holds one of the two slots; the other serves, and files need none.
    expect(await (await fetch(server.url)).text()).toContain("jankbook");
    const q = await post("api/sql", { sql: "SELECT 41 + 1 AS v" });
    expect(tableFromIPC(q.bytes).getChild("v")!.get(0)).toBe(42);
    expect(server.queries.running).toBe(1);
    const own = await post("api/cancel", { id: "client-a-query-1" });
    expect(JSON.parse(own.bytes.toString())).toEqual({ cancelled: true });
    const a = await mine;
    expect(a.status).toBe(499);
    expect(error(a)).toBe("query stopped: cancelled by its client");
  }, 60_000);

  it("stops a query whose client went away", async () => {
    let abort!: () => void;
    const gone = post(
      "api/sql",
      { sql: RUNAWAY, id: "client-c-query-1", timeout_ms: 600_000 },
      (a) => (abort = a),
    ).catch((e: Error) => e);
    await until(() => server.queries.running === 1);
    abort();
    expect(await gone).toBeInstanceOf(Error);
    // Only the disconnect can end it before its ten minutes: the test's timeout bounds the wait.
    await until(() => server.queries.running === 0);
    const q = await post("api/sql", { sql: "SELECT 1 AS v" });
    expect(q.status).toBe(200);
  }, 60_000);

  it("under 10 keep-alive clients x 5 queries with one runaway: every other request answered, the runaway stopped", async () => {
    const r = await serveLoad(server.url, {
      clients: 10,
      queries: 5,
      sql: "SELECT sum(i) AS s FROM range(100000) t(i)",
      runawayTimeoutMs: 3000,
    });
    expect(r.failures).toEqual({});
    expect(r.answered).toBe(50);
    expect(r.files).toBe(50);
    expect(r.runaway).toMatchObject({ status: 408, error: "query stopped: its timeout of 3 s" });
    expect(server.queries.running).toBe(0);
  }, 120_000);
});

describe("jankbook serve: a query that fails part way", () => {
  let big: SqlServer;
  beforeAll(async () => {
    const dist = await mkdtemp(join(tmpdir(), "jb-bounds-dist-"));
    await writeFile(join(dist, "index.html"), "<title>jankbook</title>");
    big = await startSqlServer({
      dist,
      runs: [],
      limits: { maxRows: 10_000_000, maxBytes: 2 ** 30, timeoutMs: 60_000, slots: 1 },
    });
  }, 60_000);
  afterAll(async () => big?.close());

  it("fails with DuckDB's message, never a short result", async () => {
    // @duckdb/node-api's streamed fetch ends quietly on an error, as at a result's end: the error here comes in
    // DuckDB's 1st, 3rd and 20th chunk of 2,048 rows, of results under the row cap and over it.
    for (const [rows, at] of [
      [10_000, 600],
      [10_000, 5_000],
      [50_000, 40_000],
      [200_000, 40_000],
      [3_000_000, 2_500_000],
    ]) {
      const a = await postTo(big, "api/sql", {
        sql: `SELECT CASE WHEN i < ${at} THEN i ELSE error('boom at ' || i) END AS v FROM range(${rows}) t(i)`,
      });
      expect(a.status, `${rows} rows, failing at ${at}`).not.toBe(200);
      expect(error(a)).toMatch(/boom at \d+/);
    }
    const ok = await postTo(big, "api/sql", { sql: "SELECT 42 AS v" });
    expect(Number(tableFromIPC(ok.bytes).getChild("v")!.get(0))).toBe(42);
  });
});
