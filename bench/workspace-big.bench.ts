// A 10M- and a 100M-row packed frames run opened attached in Chromium, alternately in one bench run
// (docs/scaling.md, "The packed file"): navigation to the first chart (< 3 s), and what does not depend on the
// machine's load: the HTTP range requests and bytes read from run.duckdb before the chart, and the page's
// main-thread CPU. The runs are written by SQL (bench/frames-db.ts); JB_BENCH_DATA=dir keeps them there.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import type { StaticServer } from "../workspace/node/static-server";
import { pageRecordingLongTasks, serveBenchWorkspace } from "./browser-page";
import { packedFramesBySql } from "./frames-db";
import type { Benchmark } from "./harness";

const SIZES = (process.env.JB_BENCH_BIG_FRAMES ?? "10000000,100000000").split(",").map(Number);
const RUNS = Number(process.env.JB_BENCH_BIG_RUNS ?? 5);
const label = (n: number) => `${n / 1e6}M-row`;

interface Opened {
  /** ms from navigation to the first chart */
  chart: number;
  /** range requests (GET) and HEAD requests for run.duckdb answered before the first chart */
  gets: number;
  heads: number;
  bytes: number;
  /** the page's main-thread task time (Chrome's TaskDuration), ms, read just after the chart */
  cpu: number;
  longest: number;
  /** one-minute load average when the navigation began */
  load: number;
}

/** A request to a run.duckdb, when it was answered (epoch ms) and the bytes sent. */
interface Served {
  at: number;
  method: string;
  bytes: number;
}

let browser: Browser;
let server: StaticServer;
let root: string;
const runs = new Map<number, string>();
const served: Served[] = [];
const opened = new Map<number, Opened[]>(SIZES.map((n) => [n, []]));

async function open(n: number): Promise<Opened> {
  const load = loadavg()[0]!;
  const { context, page } = await pageRecordingLongTasks(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  served.length = 0;
  await page.goto(`${server.url}?notebook=bench-nb/empty.md&runs=bench-data/${runs.get(n)}/`);
  await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0, undefined, {
    timeout: 300_000,
  });
  const { metrics } = await cdp.send("Performance.getMetrics");
  const r = await page.evaluate(() => {
    const chart = performance.getEntriesByName("jb:first-chart")[0]!.startTime;
    const tasks = (window as unknown as { jbLongTasks: [number, number][] }).jbLongTasks;
    return {
      chart,
      chartAt: performance.timeOrigin + chart,
      longest: Math.max(0, ...tasks.filter(([start]) => start <= chart).map(([, d]) => d)),
    };
  });
  // the status line says how the run came in once it is listed (after the first chart)
  const status = await page
    .waitForFunction(
      () => {
        const text =
          document.querySelector("jb-app")?.shadowRoot?.querySelector(".status")?.textContent ?? "";
        return text.includes("loaded") && text;
      },
      undefined,
      { timeout: 300_000 },
    )
    .then((h) => h.jsonValue());
  await context.close();
  if (!String(status).includes("1 run loaded (attached)")) throw new Error(`not attached: ${status}`);
  const before = served.filter((s) => s.at <= r.chartAt);
  const o: Opened = {
    chart: r.chart,
    gets: before.filter((s) => s.method === "GET").length,
    heads: before.filter((s) => s.method === "HEAD").length,
    bytes: before.reduce((a, s) => a + s.bytes, 0),
    cpu: 1000 * (metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN),
    longest: r.longest,
    load,
  };
  process.stderr.write(
    `  ${label(n)}: first chart ${o.chart.toFixed(0)} ms, ${o.gets} range requests + ${o.heads} HEAD, ` +
      `${(o.bytes / 1e6).toFixed(2)} MB, main thread ${o.cpu.toFixed(0)} ms, longest task ${o.longest.toFixed(0)} ms, load ${load.toFixed(1)}\n`,
  );
  return o;
}

/** One figure of the alternating runs, reported as its own result. */
function recorded(
  n: number,
  what: string,
  unit: string,
  pick: (o: Opened) => number,
  budget?: number,
): Benchmark {
  let i = 0;
  return {
    name: `workspace/${label(n)} attached: ${what}`,
    unit,
    budget,
    runs: RUNS,
    measure() {
      const o = opened.get(n)![i++];
      if (!o) throw new Error("the alternating first-chart runs did not run first");
      return pick(o);
    },
  };
}

export const benchmarks: Benchmark[] = [
  {
    name: `workspace/${SIZES.map(label).join(" and ")} attached, alternately: navigation to first chart (largest)`,
    unit: "ms",
    budget: 3000,
    runs: RUNS,
    async setup() {
      const keep = process.env.JB_BENCH_DATA;
      root = keep ?? mkdtempSync(join(tmpdir(), "jb-bench-big-"));
      mkdirSync(root, { recursive: true });
      if (!keep) process.on("exit", () => rmSync(root, { recursive: true, force: true }));
      for (const n of SIZES) runs.set(n, await packedFramesBySql(root, n));
      ({ browser, server } = await serveBenchWorkspace(root));
      server.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
        if (!req.url?.includes("run.duckdb")) return;
        // the bytes a range asks for (the server answers every range whole: the file is larger than any read)
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
        const bytes = req.method === "GET" && range ? Number(range[2]) - Number(range[1]) + 1 : 0;
        if (req.method === "GET" && !range) throw new Error(`run.duckdb read whole: ${req.headers.range}`);
        res.on("finish", () => served.push({ at: Date.now(), method: req.method ?? "", bytes }));
      });
    },
    async measure() {
      for (const n of SIZES) opened.get(n)!.push(await open(n));
      return opened.get(SIZES.at(-1)!)!.at(-1)!.chart;
    },
    async teardown() {
      await browser?.close();
      await server?.close();
    },
  },
  ...SIZES.flatMap((n) => [
    ...(n === SIZES.at(-1) ? [] : [recorded(n, "navigation to first chart", "ms", (o) => o.chart, 3000)]),
    recorded(n, "range requests to run.duckdb before the first chart", "requests", (o) => o.gets),
    recorded(n, "bytes read from run.duckdb before the first chart", "bytes", (o) => o.bytes),
    recorded(n, "main-thread task time to first chart", "ms", (o) => o.cpu),
    recorded(n, "longest main-thread task before first chart", "ms", (o) => o.longest, 200),
    recorded(n, "load average (1 min) at navigation", "load", (o) => o.load),
  ]),
];
