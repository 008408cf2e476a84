// `npm run bench -- accuracy`: how well the analyses find the culprits the simulator injected
// (docs/budgets.md, "Accuracy"). Every bench/accuracy/<family>.ts exporting `family` (shape in
// bench/accuracy/family.ts) runs each of its scenarios over ACCURACY_SEEDS seeds (default 50) at each noise
// level. The harness keeps one number per benchmark: the mean of a goal's metric per scenario and over the
// family, with the paper's figure as budget. The distributions (n, mean, median, p90, share reaching our aim,
// missed) per scenario and noise level go to bench/results/accuracy.json beside it.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { median, quantile, type Benchmark } from "./harness";
import { NOISE_LEVELS, type AccuracyFamily, type AccuracyGoal, type TrialMetrics } from "./accuracy/family";

const SEEDS = Number(process.env.ACCURACY_SEEDS ?? 50);
const HERE = import.meta.dirname;
const OUT = join(HERE, "results", "accuracy.json");

interface Trial {
  scenario: string;
  noise: string;
  seed: number;
  metrics: TrialMetrics;
}

export interface Distribution {
  n: number;
  /** trials whose metric was NaN (e.g. the culprit not reported at all) */
  missed: number;
  mean: number;
  median: number;
  p90: number;
  min: number;
  max: number;
  /** share of trials at or better than our aim, docs/budgets.md (rank 1: the share ranked first) */
  atAim: number;
}

/** The distribution of `values` (NaN = missed: left out of the figures, counted in `missed`). */
export function distribution(values: readonly number[], goal: AccuracyGoal): Distribution {
  const got = values.filter((v) => !Number.isNaN(v));
  const reached = got.filter((v) => (goal.better === "lower" ? v <= goal.aim : v >= goal.aim)).length;
  return {
    n: values.length,
    missed: values.length - got.length,
    mean: got.reduce((a, b) => a + b, 0) / got.length,
    median: median(got),
    p90: goal.better === "lower" ? quantile(got, 0.9) : quantile(got, 0.1),
    min: Math.min(...got),
    max: Math.max(...got),
    atAim: reached / Math.max(1, got.length),
  };
}

async function families(): Promise<AccuracyFamily[]> {
  const files = (await readdir(join(HERE, "accuracy"))).filter((f) => f.endsWith(".ts") && f !== "family.ts");
  const out: AccuracyFamily[] = [];
  for (const f of files.sort()) {
    const mod = (await import(pathToFileURL(join(HERE, "accuracy", f)).href)) as { family?: AccuracyFamily };
    if (mod.family) out.push(mod.family);
  }
  return out;
}

async function trialsOf(f: AccuracyFamily): Promise<Trial[]> {
  const trials: Trial[] = [];
  for (const scenario of f.scenarios)
    for (const noise of NOISE_LEVELS)
      for (let seed = 1; seed <= SEEDS; seed++)
        trials.push({ scenario, noise: noise.name, seed, metrics: await f.run(scenario, seed, noise) });
  return trials;
}

/** The scenarios a goal's metric is measured on. */
const scenariosOf = (f: AccuracyFamily, goal: AccuracyGoal) => goal.scenarios ?? f.scenarios;

/** Per goal metric: per scenario, per scenario and noise level, and over the family. */
function summarise(f: AccuracyFamily, trials: readonly Trial[]) {
  const figures = (goal: AccuracyGoal, keep: (t: Trial) => boolean) =>
    distribution(
      trials.filter(keep).map((t) => t.metrics[goal.metric] ?? NaN),
      goal,
    );
  return f.goals.map((goal) => ({
    ...goal,
    all: figures(goal, (t) => scenariosOf(f, goal).includes(t.scenario)),
    scenarios: Object.fromEntries(
      scenariosOf(f, goal).map((s) => [
        s,
        {
          all: figures(goal, (t) => t.scenario === s),
          noise: Object.fromEntries(
            NOISE_LEVELS.map((n) => [n.name, figures(goal, (t) => t.scenario === s && t.noise === n.name)]),
          ),
        },
      ]),
    ),
  }));
}

const fmt = (d: Distribution) =>
  `mean ${d.mean.toFixed(2)}  median ${d.median.toFixed(2)}  p90 ${d.p90.toFixed(2)}  at aim ${(100 * d.atAim).toFixed(0)}%  missed ${d.missed}/${d.n}`;

async function record(name: string, summary: unknown): Promise<void> {
  const all = JSON.parse(await readFile(OUT, "utf8").catch(() => "{}")) as Record<string, unknown>;
  all[name] = { date: new Date().toISOString(), seeds: SEEDS, noise: NOISE_LEVELS, goals: summary };
  await writeFile(OUT, JSON.stringify(all, null, 2) + "\n");
}

const cache = new Map<string, Promise<ReturnType<typeof summarise>>>();
function summaryOf(f: AccuracyFamily) {
  let s = cache.get(f.name);
  if (!s) {
    s = trialsOf(f).then(async (trials) => {
      const summary = summarise(f, trials);
      for (const g of summary) {
        process.stderr.write(`accuracy ${f.name} ${g.metric} (paper ${g.paper}, aim ${g.aim}):\n`);
        for (const [scenario, d] of Object.entries(g.scenarios)) {
          process.stderr.write(`  ${scenario.padEnd(22)} ${fmt(d.all)}\n`);
          for (const [noise, dn] of Object.entries(d.noise))
            process.stderr.write(`    ${noise.padEnd(20)} ${fmt(dn)}\n`);
        }
        process.stderr.write(`  ${"all".padEnd(22)} ${fmt(g.all)}\n`);
      }
      await record(f.name, summary);
      return summary;
    });
    cache.set(f.name, s);
  }
  return s;
}

export const benchmarks: Benchmark[] = (await families()).flatMap((f) =>
  f.goals.flatMap((goal, gi) =>
    [...scenariosOf(f, goal), "all"].map((scenario): Benchmark => ({
      name: `accuracy/${f.name} ${scenario} ${goal.metric} (mean)`,
      unit: goal.metric,
      budget: goal.paper,
      higherIsBetter: goal.better === "higher",
      runs: 1,
      async measure() {
        const g = (await summaryOf(f))[gi]!;
        return scenario === "all" ? g.all.mean : g.scenarios[scenario]!.all.mean;
      },
    })),
  ),
);
