// `npm run bench [-- filter]`: runs every bench/*.bench.ts, prints a table, writes bench/results/latest.json.
import { readdir, writeFile, mkdir } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, quantile, type Benchmark, type BenchResult } from "./harness";

const here = dirname(fileURLToPath(import.meta.url));

async function runOne(b: Benchmark): Promise<BenchResult> {
  try {
    return await measureOne(b);
  } finally {
    // A benchmark that fails half-way still closes its browser and server, or the process never exits.
    await b.teardown?.();
  }
}

async function measureOne(b: Benchmark): Promise<BenchResult> {
  await b.setup?.();
  const runs = b.runs ?? 5;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await b.measure());
  const result: BenchResult = {
    name: b.name,
    unit: b.unit,
    median: median(samples),
    p95: quantile(samples, 0.95),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs,
  };
  if (b.budget !== undefined) {
    result.budget = b.budget;
    result.withinBudget = b.higherIsBetter ? result.median >= b.budget : result.median <= b.budget;
  }
  if (b.peer) {
    const peerSamples: number[] = [];
    for (let i = 0; i < (b.peer.runs ?? runs); i++) peerSamples.push(await b.peer.measure());
    const peerMedian = median(peerSamples);
    result.peer = { name: b.peer.name, median: peerMedian, ratio: result.median / peerMedian };
  }
  return result;
}

async function main() {
  const filter = process.argv[2];
  // The machine's 1/5/15-minute load averages before and after: figures from a busy machine say so.
  const loadBefore = loadavg();
  const files = (await readdir(here)).filter((f) => f.endsWith(".bench.ts")).sort();
  const results: BenchResult[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { benchmarks: Benchmark[] };
    for (const b of mod.benchmarks) {
      if (filter && !b.name.includes(filter) && !file.includes(filter)) continue;
      process.stderr.write(`bench ${b.name} ...\n`);
      try {
        const r = await runOne(b);
        results.push(r);
        const peer = r.peer
          ? `  vs ${r.peer.name} ${r.peer.median.toFixed(2)} (ratio ${r.peer.ratio.toFixed(3)})`
          : "";
        const budget = r.budget !== undefined ? `  budget ${r.budget} ${r.withinBudget ? "ok" : "OVER"}` : "";
        process.stdout.write(
          `${r.name}: median ${r.median.toFixed(2)} ${r.unit} (p95 ${r.p95.toFixed(2)}, n=${r.runs})${budget}${peer}\n`,
        );
      } catch (e) {
        process.stdout.write(`${b.name}: FAILED ${(e as Error).stack}\n`);
        process.exitCode = 1;
      }
    }
  }
  await mkdir(join(here, "results"), { recursive: true });
  const out = join(here, "results", filter ? `latest-${filter.replace(/\W+/g, "_")}.json` : "latest.json");
  await writeFile(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        load: { before: loadBefore, after: loadavg() },
        results,
      },
      null,
      2,
    ) + "\n",
  );
  process.stderr.write(`wrote ${out}\n`);
}

await main();
