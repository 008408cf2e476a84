// `npm start` as a newcomer runs it (docs/budgets.md, "The workspace"): the whole process, cold (building
// dist/) and with the cached build, then navigation → first visible chart in 5 new browser contexts, beside
// the same page served by the plain static server over the same build (the built-files figure of
// workspace.bench.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import type { Browser } from "playwright-core";
import { launchChromium } from "../test/support/chromium";
import { BUILD_STAMP } from "../workspace/node/build-cache";
import { serveStatic, type StaticServer } from "../workspace/node/static-server";
import type { Benchmark } from "./harness";

let browser: Browser;
let started: { child: ChildProcess; url: string } | undefined;
let plain: StaticServer | undefined;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Runs `npm start` on a free port; resolves with the URL it prints and the ms taken to print it. */
async function npmStart(): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const port = await freePort();
  const t0 = performance.now();
  // Its own process group, so stopping it stops npm, tsx and the server under them.
  const child = spawn("npm", ["start"], { env: { ...process.env, PORT: String(port) }, detached: true });
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /serving dist\/ on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.once("exit", (code) => fail(new Error(`npm start exited (${code}) before serving:\n${out}`)));
  });
  return { child, url, ms: performance.now() - t0 };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  process.kill(-child.pid!, "SIGTERM");
  return exited;
}

/** Navigation → the jb:first-chart mark (jb-plot.ts: the first chart drawn inside the viewport), new context. */
async function firstVisibleChart(url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName("jb:first-chart").length > 0, undefined, {
      timeout: 60_000,
    });
    return await page.evaluate(() => performance.getEntriesByName("jb:first-chart")[0]!.startTime);
  } finally {
    await context.close();
  }
}

async function startOnce(): Promise<number> {
  const run = await npmStart();
  await stop(run.child);
  return run.ms;
}

export const benchmarks: Benchmark[] = [
  {
    name: "workspace/npm start: cold, building dist/ (to the URL printed)",
    unit: "ms",
    runs: 1,
    measure() {
      rmSync(`dist/${BUILD_STAMP}`, { force: true });
      return startOnce();
    },
  },
  {
    name: "workspace/npm start: cached build (to the URL printed)",
    unit: "ms",
    runs: 3,
    measure: startOnce,
  },
  {
    name: "workspace/npm start: navigation to first visible chart (new context, 1440x900)",
    unit: "ms",
    budget: 3000,
    runs: 5,
    async setup() {
      started = await npmStart();
      browser = await launchChromium();
      plain = await serveStatic("dist");
    },
    measure: () => firstVisibleChart(started!.url),
    peer: { name: "built files, plain static server", measure: () => firstVisibleChart(plain!.url) },
    async teardown() {
      await browser?.close();
      await plain?.close();
      if (started) await stop(started.child);
      started = undefined;
    },
  },
];
