// Notebook benchmarks: publishing the sample notebook (time and HTML size) and the headless run of every
// notebook in notebooks/ (cells only: the engine and the runs are loaded once in setup, as a CI job running
// several notebooks would; the first, cold run including DuckDB start-up is reported separately).
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createNodeEngine } from "../workspace/db/node/duckdb-node";
import type { SqlEngine } from "../workspace/db/engine";
import { runNotebookFile, type HeadlessResult } from "../workspace/node/headless";
import { createNodePublishContext } from "../workspace/node/node-context";
import { publishNotebook } from "../workspace/publish/publish";
import type { Benchmark } from "./harness";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SAMPLE = join(ROOT, "notebooks/examples/frames-overview.md");

function notebooks(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? notebooks(path) : name.endsWith(".md") ? [path] : [];
  });
}

let engine: SqlEngine | undefined;
let sample: HeadlessResult | undefined;

async function sharedEngine(): Promise<SqlEngine> {
  return (engine ??= await createNodeEngine());
}

const publishHtml = () =>
  publishNotebook(sample!.notebook, sample!.states, createNodePublishContext(sample!.provenance));

export const benchmarks: Benchmark[] = [
  {
    name: "notebook/headless run, cold (DuckDB start, load sample run, all cells): frames-overview",
    unit: "ms",
    runs: 3,
    async measure() {
      const t0 = performance.now();
      const r = await runNotebookFile(SAMPLE);
      await r.close();
      return performance.now() - t0;
    },
  },
  ...notebooks(join(ROOT, "notebooks")).map((path): Benchmark => ({
    name: `notebook/headless run, warm engine: ${relative(ROOT, path)}`,
    unit: "ms",
    runs: 7,
    async setup() {
      const r = await runNotebookFile(path, { engine: await sharedEngine() }); // loads its runs once
      await r.close();
    },
    async measure() {
      const t0 = performance.now();
      const r = await runNotebookFile(path, { engine: await sharedEngine() });
      await r.close();
      return performance.now() - t0;
    },
  })),
  {
    name: "notebook/publish frames-overview (HTML with SVG plots, sanitized)",
    unit: "ms",
    runs: 9,
    async setup() {
      // Its own engine: the shared one also holds the other notebooks' runs, which its unfiltered SQL would plot.
      sample = await runNotebookFile(SAMPLE);
      publishHtml(); // first call builds the DOMPurify window
    },
    measure() {
      const t0 = performance.now();
      publishHtml();
      return performance.now() - t0;
    },
  },
  {
    name: "notebook/published HTML size: frames-overview",
    unit: "bytes",
    runs: 1,
    measure: () => Buffer.byteLength(publishHtml()),
    async teardown() {
      await sample?.close();
      await engine?.close();
      engine = undefined;
    },
  },
];
