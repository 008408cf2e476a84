// `npm run bench -- scaling`: `jankbook run notebooks/examples/frames-overview.md` on packed frames runs of 1M, 5M
// and 10M frames, on each engine, as a user runs it (docs/scaling.md): peak RSS of the whole process tree (sampled
// from /proc every 250 ms), wall time and exit code, with the load average before and after. One run each: a 10M
// run takes minutes. The runs are written once under JB_SCALING_DIR (default: a temporary folder removed at exit)
// as frames-<N>m; JB_SCALING_SIZES (millions, default "1,5,10"), JB_SCALING_ENGINES ("native,wasm") and
// JB_SCALING_LIMIT_GB (9: the tree is killed past it, and the row says so) narrow or bound it. Also writes
// bench/results/scaling.json.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Benchmark } from "./harness";
import { writeFrames } from "./frames-data";
import { packBundle } from "../workspace/db/node/pack-bundle";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = (process.env.JB_SCALING_SIZES ?? "1,5,10").split(",").map(Number);
const ENGINES = (process.env.JB_SCALING_ENGINES ?? "native,wasm").split(",");
const LIMIT = Number(process.env.JB_SCALING_LIMIT_GB ?? 9) * 2 ** 30;
const PAGE = 4096;

let dataDir: string | undefined;
function dir(): string {
  if (dataDir) return dataDir;
  if (process.env.JB_SCALING_DIR) return (dataDir = process.env.JB_SCALING_DIR);
  dataDir = mkdtempSync(join(tmpdir(), "jb-scaling-"));
  process.on("exit", () => rmSync(dataDir!, { recursive: true, force: true }));
  return dataDir;
}

/** The packed run of `millions` frames, written and packed on first use. */
async function run(millions: number): Promise<string> {
  const at = join(dir(), `frames-${millions}m`);
  if (existsSync(join(at, "run.duckdb"))) return at;
  mkdirSync(at, { recursive: true });
  await writeFrames(at, millions * 1_000_000);
  await packBundle(at);
  return at;
}

/** Resident bytes of `pid` and every process below it. */
function treeRss(pid: number): number {
  const children = new Map<number, number[]>();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(p)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let bytes = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      bytes += Number(readFileSync(`/proc/${p}/statm`, "utf8").split(" ")[1]) * PAGE;
    } catch {
      continue;
    }
    stack.push(...(children.get(p) ?? []));
  }
  return bytes;
}

interface Measured {
  engine: string;
  frames: number;
  peakRssMb: number;
  wallS: number;
  exit: number | null;
  killedOverLimit: boolean;
  loadBefore: number;
  loadAfter: number;
}

const measured: Measured[] = [];

async function measure(engine: string, millions: number): Promise<Measured> {
  const bundle = await run(millions);
  const report = join(dir(), `report-${engine}-${millions}m.json`);
  const loadBefore = loadavg()[0]!;
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      "cli/jankbook.js",
      "run",
      "notebooks/examples/frames-overview.md",
      "--runs",
      bundle,
      "--engine",
      engine,
      "--timeout",
      "1800",
      "--out",
      report,
    ],
    {
      cwd: root,
      env: { ...process.env, JANKBOOK_FROM_SOURCES: "1" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  let peak = 0;
  let killed = false;
  const sampler = setInterval(() => {
    const rss = treeRss(child.pid!);
    peak = Math.max(peak, rss);
    if (rss > LIMIT && !killed) {
      killed = true;
      child.kill("SIGKILL");
    }
  }, 250);
  const exit = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearInterval(sampler);
  const m: Measured = {
    engine,
    frames: millions * 1_000_000,
    peakRssMb: Math.round(peak / 2 ** 20),
    wallS: Math.round((performance.now() - t0) / 100) / 10,
    exit,
    killedOverLimit: killed,
    loadBefore,
    loadAfter: loadavg()[0]!,
  };
  measured.push(m);
  writeFileSync(
    join(root, "bench", "results", "scaling.json"),
    JSON.stringify({ date: new Date().toISOString(), node: process.version, runs: measured }, null, 2) + "\n",
  );
  process.stderr.write(`  ${JSON.stringify(m)}\n`);
  return m;
}

export const benchmarks: Benchmark[] = SIZES.flatMap((millions) =>
  ENGINES.flatMap((engine): Benchmark[] => {
    let once: Promise<Measured> | undefined;
    const get = () => (once ??= measure(engine, millions));
    const label = `scaling/frames-overview ${engine} ${millions}M frames`;
    return [
      {
        name: `${label} peak RSS`,
        unit: "MB",
        runs: 1,
        budget: 4096,
        measure: async () => (await get()).peakRssMb,
      },
      { name: `${label} wall`, unit: "s", runs: 1, measure: async () => (await get()).wallS },
      {
        name: `${label} exit code`,
        unit: "code",
        runs: 1,
        budget: 0,
        measure: async () => (await get()).exit ?? 137,
      },
    ];
  }),
);
