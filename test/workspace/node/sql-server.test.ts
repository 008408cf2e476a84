import { request } from "node:http";
import { cp, mkdtemp, writeFile } from "node:fs/promises";
import { networkInterfaces, tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lakeAdd } from "../../../workspace/db/node/lake-add";
import { packBundle } from "../../../workspace/db/node/pack-bundle";
import { RemoteHttpEngine } from "../../../workspace/db/remote-http-engine";
import { startSqlServer, type SqlServer } from "../../../workspace/node/sql-server";

const SAMPLES = "workspace/public/samples";
const A = "k9-pixel-2-android9-r1"; // manifest: frames 216, ui_events 6
const B = "k9-galaxy-s21-android12-r1";
const FRAMES_B = 216; // its manifest.json: "frames": {"rows": 216}

/** A raw HTTP request, so headers a browser would set (Host, Origin) can be forged. */
function raw(url: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string }>((ok, fail) => {
    const req = request(
      new URL(path, url),
      { method: body === undefined ? "GET" : "POST", headers },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => ok({ status: res.statusCode!, text }));
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

describe("jankbook serve: the SQL endpoint", () => {
  let server: SqlServer;
  let engine: RemoteHttpEngine;
  beforeAll(async () => {
    const lake = await mkdtemp(join(tmpdir(), "jb-serve-lake-"));
    await lakeAdd(lake, [join(SAMPLES, A), join(SAMPLES, B)]);
    const dist = await mkdtemp(join(tmpdir(), "jb-serve-dist-"));
    await writeFile(join(dist, "index.html"), "<title>jankbook</title>");
    // B packed (run.duckdb beside its Arrow files): loaded as `jankbook run` loads runs, before access is shut.
    const packed = join(dist, "packed");
    await cp(join(SAMPLES, B), packed, { recursive: true });
    expect((await packBundle(packed)).errors).toEqual([]);
    server = await startSqlServer({ dist, lake, runs: [join(SAMPLES, A), packed] });
    engine = new RemoteHttpEngine(server.url);
  }, 120_000);
  afterAll(async () => server?.close());

  it("binds 127.0.0.1 only, and serves the workspace beside the API", async () => {
    expect((server.server.address() as { address: string }).address).toBe("127.0.0.1");
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === "IPv4" && !i.internal);
    if (external) {
      const port = Number(new URL(server.url).port);
      const refused = await new Promise<string>((ok) => {
        const s = connect(port, external.address);
        s.on("connect", () => (s.destroy(), ok("connected")));
        s.on("error", (e: NodeJS.ErrnoException) => ok(e.code ?? "error"));
      });
      expect(refused).toBe("ECONNREFUSED");
    }
    expect(await (await fetch(server.url)).text()).toContain("<title>jankbook</title>");
    const info = (await (await fetch(new URL("api/engine", server.url))).json()) as {
      engine: string;
      runs: { run_id: string }[];
      lake: string[];
    };
    expect(info.engine).toBe("native");
    expect(info.runs.map((r) => r.run_id)).toEqual([A, B]);
    expect(info.lake).toContain("lake.run_summary");
  });

  it("answers queries as Arrow, with bound params, from the runs and from the lake", async () => {
    const t = await engine.query("SELECT count(*)::INTEGER AS n FROM frames WHERE run_id = ?", [A]);
    expect(Number(t.getChild("n")!.get(0))).toBe(216);
    const packed = await engine.query("SELECT count(*)::INTEGER AS n FROM frames WHERE run_id = ?", [B]);
    expect(Number(packed.getChild("n")!.get(0))).toBe(FRAMES_B);
    const none = await engine.query("SELECT count(*)::INTEGER AS n FROM frames WHERE run_id = ?", [
      "x' OR 1=1 --",
    ]);
    expect(Number(none.getChild("n")!.get(0))).toBe(0);
    const big = await engine.query("SELECT ?::BIGINT + 1 AS v", [9007199254740993n]);
    expect(big.getChild("v")!.get(0)).toBe(9007199254740994n);
    const lake = await engine.query("SELECT run_id FROM lake.run_summary ORDER BY run_id");
    expect(lake.toArray().map((r) => r.run_id)).toEqual([B, A].sort());
    const lakeFrames = await engine.query("SELECT count(*)::INTEGER AS n FROM lake.frames WHERE run_id = ?", [
      A,
    ]);
    expect(Number(lakeFrames.getChild("n")!.get(0))).toBe(216);
    // Not fooled by the words in a literal or a comment.
    const s = await engine.query("SELECT 'read_csv(''/etc/passwd'')' AS s -- COPY t TO 'x'");
    expect(s.getChild("s")!.get(0)).toBe("read_csv('/etc/passwd')");
  });

  const refused: [string, RegExp][] = [
    ["SELECT * FROM read_csv('/etc/passwd')", /read_csv\(\) reads files/],
    ["SELECT * FROM read_csv_auto('/etc/passwd')", /read_csv_auto\(\)/],
    ["SELECT * FROM read_parquet('/tmp/x.parquet')", /read_parquet\(\)/],
    ["SELECT * FROM read_json('/etc/x.json')", /read_json\(\)/],
    ["SELECT content FROM read_text('/etc/hostname')", /read_text\(\)/],
    ["SELECT content FROM read_blob('/etc/hostname')", /read_blob\(\)/],
    ["SELECT * FROM parquet_scan('/tmp/x.parquet')", /parquet_scan\(\)/],
    ["SELECT * FROM glob('/etc/*')", /glob\(\)/],
    ["SELECT * FROM query('SELECT 1')", /query\(\)/],
    ["SELECT getenv('HOME')", /getenv\(\)/],
    ["/* hidden */ SELECT * FROM \"READ_CSV\"('/etc/passwd')", /read_csv\(\)/],
    ["SELECT 1 FROM frames WHERE run_id IN (SELECT * FROM read_csv('/etc/passwd'))", /read_csv\(\)/],
    ["SELECT * FROM '/etc/passwd'", /FROM '\/etc\/passwd' would read a file/],
    ["SELECT * FROM 'https://example.com/x.parquet'", /would read a file|is a URL/],
    ["SELECT 'https://example.com/x.parquet' AS u", /is a URL/],
    ["COPY frames TO '/tmp/out.csv'", /COPY statements are not allowed/],
    ["-- a comment first\nATTACH '/tmp/x.duckdb' AS x", /ATTACH statements/],
    ["DETACH lake", /DETACH statements/],
    ["INSTALL httpfs", /INSTALL statements/],
    ["LOAD httpfs", /LOAD statements/],
    ["EXPORT DATABASE '/tmp/x'", /EXPORT statements/],
    ["IMPORT DATABASE '/tmp/x'", /IMPORT statements/],
    ["PRAGMA enable_profiling", /PRAGMA statements/],
    ["SET enable_external_access = true", /SET statements/],
    ["CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'v')", /CREATE statements/],
    ["SELECT 1; COPY frames TO '/tmp/out.csv'", /COPY|not allowed/],
  ];
  it.each(refused)("refuses %s with a clear error", async (sql, why) => {
    const e = await engine.query(sql).then(
      () => null,
      (x: Error) => x,
    );
    expect(e?.message).toMatch(/^refused by jankbook serve: /);
    expect(e?.message).toMatch(why);
  });

  it("answers 403 for refusals and 400 for SQL errors", async () => {
    const headers = { "content-type": "application/json" };
    const r = await raw(server.url, "api/sql", headers, JSON.stringify({ sql: "COPY frames TO 'x'" }));
    expect(r.status).toBe(403);
    const bad = await raw(server.url, "api/sql", headers, JSON.stringify({ sql: "SELECT nope FROM frames" }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatch(/nope/);
  });

  it("has external access off behind the check: the engine itself reads no file", async () => {
    await expect(server.engine.query("SELECT * FROM read_csv('/etc/passwd')")).rejects.toThrow(
      /file system operations are disabled/,
    );
    await expect(server.engine.query("SET enable_external_access = true")).rejects.toThrow();
  });

  it("refuses other hosts (DNS rebinding), other origins and non-JSON posts", async () => {
    const port = new URL(server.url).port;
    const body = JSON.stringify({ sql: "SELECT 1" });
    const json = { "content-type": "application/json" };
    expect((await raw(server.url, "api/sql", { ...json, host: `evil.example:${port}` }, body)).status).toBe(
      403,
    );
    expect((await raw(server.url, "api/sql", { ...json, origin: "http://evil.example" }, body)).status).toBe(
      403,
    );
    expect((await raw(server.url, "api/sql", { "content-type": "text/plain" }, body)).status).toBe(415);
    expect(
      (await raw(server.url, "api/sql", { ...json, origin: server.url.replace(/\/$/, "") }, body)).status,
    ).toBe(200);
  });

  it("cancels the query in flight, and answers the next one", async () => {
    const started = performance.now();
    const slow = engine.query("SELECT sum(hash(i)) AS s FROM range(50000000000) t(i)").then(
      () => null,
      (e: Error) => e,
    );
    await new Promise((r) => setTimeout(r, 500));
    await engine.interrupt();
    const e = await slow;
    expect(e?.message).toMatch(/interrupt/i);
    expect(performance.now() - started).toBeLessThan(20_000);
    const t = await engine.query("SELECT 41 + 1 AS v");
    expect(t.getChild("v")!.get(0)).toBe(42);
  }, 60_000);

  it("says which server is gone when it stops answering", async () => {
    const url = server.url.replace(/\/$/, "");
    await server.close();
    await expect(engine.query("SELECT 1")).rejects.toThrow(`the jankbook serve at ${url} is not answering`);
  });
});
