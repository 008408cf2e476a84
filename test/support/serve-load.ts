// A load on `jankbook serve` (used by its functional test and by bench/serve.bench.ts): `clients` keep-alive
// clients each send `queries` queries one after another, with a static file fetched between them; one client's
// first query is a runaway that only its timeout ends. Counts what was answered and how.
import { Agent, request } from "node:http";

export const RUNAWAY_SQL =
  "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) AS n FROM r";

export interface LoadOptions {
  clients: number;
  queries: number;
  /** the ordinary query each client sends */
  sql: string;
  /** the runaway's own timeout_ms */
  runawayTimeoutMs: number;
}

export interface LoadResult {
  /** ordinary queries answered 200 */
  answered: number;
  /** static files answered 200 */
  files: number;
  /** everything else: "status 500", "ECONNRESET", ... with counts */
  failures: Record<string, number>;
  runaway: { status: number; error: string; ms: number };
  /** latencies of the ordinary queries, ms, sorted */
  latencies: number[];
  ms: number;
}

function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      new URL(path, url),
      { method, agent, headers: body === undefined ? {} : { "content-type": "application/json" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => ok({ status: res.statusCode!, text: Buffer.concat(chunks).toString("latin1") }));
        res.on("error", fail);
      },
    );
    req.on("error", fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export async function serveLoad(base: string, o: LoadOptions): Promise<LoadResult> {
  const url = new URL(base);
  const failures: Record<string, number> = {};
  const latencies: number[] = [];
  let answered = 0;
  let files = 0;
  const fail = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);
  let runaway: LoadResult["runaway"] | undefined;
  const t0 = performance.now();

  async function client(n: number): Promise<void> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      if (n === 0) {
        const t = performance.now();
        const r = await send(agent, url, "POST", "api/sql", {
          sql: RUNAWAY_SQL,
          timeout_ms: o.runawayTimeoutMs,
          id: `runaway-${Math.random().toString(36).slice(2)}`,
        }).catch((e: Error) => ({ status: 0, text: JSON.stringify({ error: e.message }) }));
        runaway = {
          status: r.status,
          error: (JSON.parse(r.text) as { error: string }).error,
          ms: performance.now() - t,
        };
      }
      for (let i = 0; i < o.queries; i++) {
        const t = performance.now();
        try {
          const r = await send(agent, url, "POST", "api/sql", {
            sql: o.sql,
            id: `c${n}-q${i}-${Math.random().toString(36).slice(2)}`,
          });
          if (r.status === 200) {
            answered++;
            latencies.push(performance.now() - t);
          } else fail(`query status ${r.status}: ${r.text.slice(0, 120)}`);
          const f = await send(agent, url, "GET", "/");
          if (f.status === 200) files++;
          else fail(`file status ${f.status}`);
        } catch (e) {
          fail(`${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        }
      }
    } finally {
      agent.destroy();
    }
  }

  await Promise.all(Array.from({ length: o.clients }, (_, n) => client(n)));
  return {
    answered,
    files,
    failures,
    runaway: runaway!,
    latencies: latencies.sort((a, b) => a - b),
    ms: performance.now() - t0,
  };
}
