// `jankbook compare A B`: what changed between two runs or run sets (docs/compare.md). A side is a run folder, a
// folder of runs, a glob of run folders, or a lake slice `lake:<dir>?<filter>`. Prints the ranked list, writes
// an .html or .json report, and with --fail-on regression exits 1 when a significant regression is found,
// listing them on stderr (a CI gate); 0 otherwise.
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import type { SqlEngine } from "../../workspace/db/engine";
import {
  COMPARE_ANALYSES,
  compareSides,
  regressions,
  resolveSide,
  type CompareAnalysis,
} from "../../workspace/node/compare-load";
import { compareHtml, compareJson, compareText, rowLine } from "../../workspace/node/compare-report";

export interface CompareCommandOptions {
  out?: string;
  failOn?: string;
  alpha: string;
  minEffect: string;
  minRateChange: string;
  runCv: string;
  runRateSd: string;
  resamples: string;
  seed: string;
  analyses?: string;
  engine: string;
  top: string;
}

const number = (name: string, v: string, lo: number, hi: number) => {
  const x = Number(v);
  if (!Number.isFinite(x) || x < lo || x > hi)
    throw new Error(`--${name} ${v}: expected a number in [${lo}, ${hi}]`);
  return x;
};

async function openEngine(name: string): Promise<SqlEngine> {
  if (name === "native") return (await import("../../workspace/db/node/duckdb-native")).createNativeEngine();
  if (name === "wasm") return (await import("../../workspace/db/node/duckdb-node")).createNodeEngine();
  throw new Error(`--engine ${name}: expected native or wasm`);
}

/** Runs the comparison; returns the exit code. */
export async function runCompare(a: string, b: string, opts: CompareCommandOptions): Promise<number> {
  const ext = opts.out ? extname(opts.out).toLowerCase() : "";
  if (opts.out && ![".html", ".htm", ".json"].includes(ext))
    throw new Error(`--out ${opts.out}: the report must end in .html or .json`);
  if (opts.failOn !== undefined && opts.failOn !== "regression")
    throw new Error(`--fail-on ${opts.failOn}: only "regression" is known`);
  const analyses = opts.analyses?.split(",").map((s) => s.trim()) as CompareAnalysis[] | undefined;
  for (const x of analyses ?? [])
    if (!(COMPARE_ANALYSES as readonly string[]).includes(x))
      throw new Error(`--analyses: unknown ${x} (one of ${COMPARE_ANALYSES.join(", ")})`);
  const options = {
    alpha: number("alpha", opts.alpha, 0, 1),
    minEffect: number("min-effect", opts.minEffect, 0, 1000),
    minRateChange: number("min-rate-change", opts.minRateChange, 0, 1),
    runCv: number("run-cv", opts.runCv, 0, 100),
    runRateSd: number("run-rate-sd", opts.runRateSd, 0, 1),
    resamples: number("resamples", opts.resamples, 10, 1e6),
    seed: number("seed", opts.seed, 0, 2 ** 32),
    ...(analyses ? { analyses } : {}),
  };
  const [specA, specB] = [await resolveSide(a), await resolveSide(b)];
  const engine = await openEngine(opts.engine);
  try {
    const c = await compareSides(specA, specB, engine, options, (line) => process.stderr.write(`${line}\n`));
    for (const e of c.errors) process.stderr.write(`load failed: ${e}\n`);
    process.stdout.write(compareText(c, number("top", opts.top, 1, 1e6)));
    if (opts.out) {
      await writeFile(
        opts.out,
        ext === ".json" ? compareJson(c, options) : compareHtml(c, options, `jankbook compare ${a} ${b}`),
      );
      process.stderr.write(`wrote ${opts.out}\n`);
    }
    if (c.errors.length) return 1;
    if (opts.failOn === "regression") {
      const bad = regressions(c.rows);
      if (bad.length) {
        process.stderr.write(
          `${bad.length} significant regression(s):\n${bad.map((r) => rowLine(r, c.rows.indexOf(r) + 1)).join("\n")}\n`,
        );
        return 1;
      }
    }
    return 0;
  } finally {
    await engine.close();
  }
}

export function registerCompare(program: Command, setExitCode: (code: number) => void) {
  program
    .command("compare")
    .description(
      "what changed between two runs or run sets: a ranked list with effect sizes, intervals and adjusted p-values",
    )
    .argument("<A>", "baseline: a run folder, a folder of runs, a glob, or lake:<dir>?<filter>")
    .argument("<B>", "candidate, as A")
    .option("--out <file>", "write a report: .html or .json")
    .option("--fail-on <what>", "exit 1 on a significant regression (regression)")
    .option("--alpha <a>", "significance level after Benjamini-Hochberg", "0.05")
    .option("--min-effect <x>", "smallest relative change of a time that counts (0.1 = 10 %)", "0.1")
    .option("--min-rate-change <x>", "smallest change of a rate that counts (0.02 = 2 points)", "0.02")
    .option(
      "--run-cv <x>",
      "with too few runs for a test over runs: how much a time varies from run to run (0.4 = 40 %)",
      "0.4",
    )
    .option("--run-rate-sd <x>", "likewise for a rate, in points of 1 (0.2 = 20 points)", "0.2")
    .option("--resamples <n>", "bootstrap resamples", "1000")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("--analyses <list>", `comma-separated subset of ${COMPARE_ANALYSES.join(", ")}`)
    .option("--engine <name>", "native (default) or wasm", "native")
    .option("--top <n>", "rows printed", "20")
    .action(async (a: string, b: string, opts: CompareCommandOptions) =>
      setExitCode(await runCompare(a, b, opts)),
    );
}
