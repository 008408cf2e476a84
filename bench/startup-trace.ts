// Two builds of the workspace side by side, opened in turns on the kept packed runs under a Chromium trace, no
// cache (docs/scaling.md, "Start-up"): when the wasm's download begins, when DuckDB is ready, the first chart, and
// the main thread's long tasks with what ran in them. Usage:
//   JB_BENCH_DATA=dir npx tsx bench/startup-trace.ts before=/path/to/dist after=dist
// (a build of the code before: `npx vite build --outDir <dir> --emptyOutDir` on that commit).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "../test/support/chromium";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";

const SIZES = (process.env.JB_BENCH_BIG_FRAMES ?? "10000000,100000000").split(",").map(Number);
const TURNS = Number(process.env.JB_BENCH_BIG_RUNS ?? 3);
const DATA = process.env.JB_BENCH_DATA;
if (!DATA) throw new Error("JB_BENCH_DATA: the folder holding frames-<n>/ (bench/frames-db.ts writes them)");
const builds = process.argv.slice(2).map((a) => a.split("=") as [string, string]);
if (builds.length === 0) throw new Error("name=dist-folder ... : the builds to compare");
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.wasm",
  "blink.user_timing",
  "loading",
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** What one navigation's trace says, in ms from navigation. */
function summarize(path: string, chartMs: number) {
  const events = (JSON.parse(readFileSync(path, "utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const nav = events.find(
    (e) => e.name === "navigationStart" && String(e.args?.data?.documentLoaderURL ?? "").startsWith("http"),
  )!;
  const main = (e: TraceEvent) => e.pid === nav.pid && e.tid === nav.tid;
  const end = nav.ts + chartMs * 1000;
  const tasks = events.filter(
    (e) => main(e) && e.ph === "X" && e.name === "RunTask" && e.ts >= nav.ts && e.ts < end,
  );
  const inside = (t: TraceEvent) =>
    events
      .filter(
        (e) => main(e) && e.ph === "X" && e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur!,
      )
      .filter((e) =>
        ["v8.evaluateModule", "Layout", "UpdateLayoutTree", "FunctionCall", "MinorGC", "MajorGC"].includes(
          e.name,
        ),
      )
      .sort((a, b) => b.dur! - a.dur!)[0];
  const long = tasks
    .filter((t) => t.dur! > 50_000)
    .map((t) => ({
      at: ms(t.ts - nav.ts),
      ms: ms(t.dur!),
      mostly: inside(t)?.name,
      for: ms(inside(t)?.dur ?? 0),
    }));
  const sent = events.find(
    (e) => e.name === "ResourceSendRequest" && String(e.args?.data?.url ?? "").endsWith(".wasm"),
  );
  return {
    wasmRequested: sent ? ms(sent.ts - nav.ts) : null,
    mainThread: ms(tasks.reduce((a, t) => a + t.dur!, 0)),
    longest: Math.max(0, ...long.map((t) => t.ms)),
    long,
  };
}

const ms = (us: number) => Math.round(us / 1000);
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2]! : (a[a.length / 2 - 1]! + a[a.length / 2]!) / 2;
};

const servers = new Map<string, StaticServer>();
for (const [name, dir] of builds)
  servers.set(name, await serveStatic(dir, 0, { "/bench-data/": DATA, "/bench-nb/": "bench/fixtures" }));
const browser = await launchChromium();
const rows: Record<string, unknown>[] = [];
for (let turn = 0; turn < TURNS; turn++)
  for (const n of SIZES)
    for (const [build] of builds) {
      const load = loadavg()[0]!;
      const context = await browser.newContext();
      const page = await context.newPage();
      const path = join(tmpdir(), `jb-startup-trace-${process.pid}.json`);
      await browser.startTracing(page, { path, categories: CATEGORIES });
      await page.goto(`${servers.get(build)!.url}?notebook=bench-nb/empty.md&runs=bench-data/frames-${n}/`);
      await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0, undefined, {
        timeout: 300_000,
      });
      const marks = await page.evaluate(() =>
        Object.fromEntries(
          performance.getEntriesByType("mark").map((m) => [m.name, Math.round(m.startTime)]),
        ),
      );
      await browser.stopTracing();
      await context.close();
      const row = { build, frames: n, turn, load, marks, ...summarize(path, marks["jb:first-chart"]!) };
      rmSync(path, { force: true });
      rows.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
    }
await browser.close();
for (const s of servers.values()) await s.close();
for (const [build] of builds)
  for (const n of SIZES) {
    const of = rows.filter((r) => r.build === build && r.frames === n) as unknown as {
      marks: Record<string, number>;
      wasmRequested: number;
      longest: number;
      mainThread: number;
      load: number;
    }[];
    const m = (f: (r: (typeof of)[number]) => number) => median(of.map(f));
    console.log(
      `${build} ${n / 1e6}M (${of.length}): wasm requested ${m((r) => r.wasmRequested)} ms, engine ready ${m((r) => r.marks["jb:engine-ready"]!)} ms, ` +
        `first chart ${m((r) => r.marks["jb:first-chart"]!)} ms, longest task ${m((r) => r.longest)} ms, main thread ${m((r) => r.mainThread)} ms, ` +
        `load ${Math.min(...of.map((r) => r.load)).toFixed(1)}-${Math.max(...of.map((r) => r.load)).toFixed(1)}`,
    );
  }
writeFileSync("bench/results/startup-trace.json", `${JSON.stringify(rows, null, 1)}\n`);
