// `jankbook serve` under load: 50 keep-alive clients x 20 queries over two sample runs, each query followed by a
// static file, one runaway query among them (a recursive CTE that only its 10 s timeout ends). Reports the time
// to answer everything, query latency, what failed, when the runaway was stopped, and the process's peak RSS
// (server and clients share this process: VmHWM from /proc/self/status).
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSqlServer, type SqlServer } from "../workspace/node/sql-server";
import { serveLoad, type LoadResult } from "../test/support/serve-load";
import type { Benchmark } from "./harness";

const SAMPLES = "workspace/public/samples";
const RUNS = ["k9-pixel-2-android9-r1", "k9-galaxy-s21-android12-r1"].map((r) => join(SAMPLES, r));
const RUNAWAY_MS = 10_000;

let server: SqlServer;
let last: LoadResult | undefined;

async function peakRssMb(): Promise<number> {
  const status = await readFile("/proc/self/status", "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function load(): Promise<LoadResult> {
  const r = await serveLoad(server.url, {
    clients: 50,
    queries: 20,
    sql: "SELECT run_id, count(*)::INTEGER AS frames, avg(duration) AS mean FROM frames GROUP BY run_id",
    runawayTimeoutMs: RUNAWAY_MS,
  });
  if (r.answered !== 50 * 20 || Object.keys(r.failures).length)
    throw new Error(
      `not every request answered: ${r.answered} of 1000, failures ${JSON.stringify(r.failures)}`,
    );
  if (r.runaway.status !== 408)
    throw new Error(`the runaway was not stopped at its timeout: ${JSON.stringify(r.runaway)}`);
  last = r;
  return r;
}

export const benchmarks: Benchmark[] = [
  {
    name: "serve: 50 clients x 20 queries + 1 runaway, all answered",
    unit: "ms",
    runs: 3,
    async setup() {
      const dist = await mkdtemp(join(tmpdir(), "jb-serve-bench-"));
      await writeFile(join(dist, "index.html"), "<title>jankbook</title>");
      server = await startSqlServer({ dist, runs: RUNS });
    },
    async measure() {
      const r = await load();
      const p = (q: number) => r.latencies[Math.floor((r.latencies.length - 1) * q)]!.toFixed(1);
      process.stderr.write(
        `  answered ${r.answered} queries and ${r.files} files, failures ${JSON.stringify(r.failures)}; query latency p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms; runaway ${r.runaway.status} "${r.runaway.error}" after ${r.runaway.ms.toFixed(0)} ms; peak RSS ${(await peakRssMb()).toFixed(0)} MB\n`,
      );
      return r.ms;
    },
    async teardown() {
      await server?.close();
    },
  },
  {
    name: "serve: the runaway's answer, ms after it was sent (its timeout: 10 s)",
    unit: "ms",
    runs: 1,
    measure: () => last?.runaway.ms ?? NaN,
  },
  {
    name: "serve: peak RSS of the process (server + 50 clients)",
    unit: "MB",
    runs: 1,
    measure: peakRssMb,
  },
];
