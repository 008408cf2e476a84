// The accuracy bench's figures (issue 20: "report the distributions, not one seed"): one row per scenario
// family, noise level and metric, with the paper's figure beside it. The families (dune.ts, draw.ts) follow the
// shape of bench/accuracy/family.ts on the cases-a branch (name, scenarios, goals, run(scenario, seed, noise));
// until it is on main, the types below say only what these files use, and runFamily stands in for its runner.
// Undefined values (a precision with nothing flagged) are counted, not averaged.
import { quantile } from "../harness";
import type { ScenarioNoise } from "../../collectors/simulator/scenario-parts";

/** A noise level as family.ts has it: extra events per simulated second, CPU load 0..1, the devices drawn from. */
export type BenchNoise = { name: string; extra: number; load: number; devices: readonly string[] };
export type Goal = { metric: string; better: "lower" | "higher"; paper: number; aim: number; source: string };
export type Family = {
  name: string;
  scenarios: readonly string[];
  goals: readonly Goal[];
  run(scenario: string, seed: number, noise: BenchNoise): Record<string, number>;
};

/** family.ts's levels: the case as told, then more events, background load and other phones. */
export const LEVELS: readonly BenchNoise[] = [
  { name: "none", extra: 0, load: 0, devices: ["pixel-4a"] },
  { name: "low", extra: 2, load: 0.2, devices: ["pixel-4a", "pixel-2", "galaxy-s21"] },
  {
    name: "high",
    extra: 6,
    load: 0.5,
    devices: ["nexus-5x", "pixel-2", "pixel-4a", "galaxy-s21", "pixel-7"],
  },
];

/**
 * The simulator's noise for a level: `extra` per simulated second is far too many UI events for a 20-event test,
 * so two extra events per unit; the load as other messages on the main thread (a quarter of it), since a
 * slower CPU alone delays every run of a lab alike.
 */
export function scenarioNoise(level: BenchNoise): ScenarioNoise {
  return { extraEvents: 2 * level.extra, backgroundLoad: level.load / 4 };
}

export interface Distribution {
  measure: string;
  n: number;
  /** values that were undefined (NaN), left out of the statistics */
  undefined: number;
  mean: number;
  p10: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

export interface AccuracyRow extends Distribution {
  family: string;
  noise: string;
  /** the paper's figure for this measure, when it gives one */
  paper?: number;
}

/** Every scenario of a family at every level over `seeds` trials: one row per metric. */
export function runFamily(f: Family, seeds: number, levels: readonly BenchNoise[] = LEVELS): AccuracyRow[] {
  const rows: AccuracyRow[] = [];
  for (const scenario of f.scenarios)
    for (const level of levels) {
      const trials = Array.from({ length: seeds }, (_, s) => f.run(scenario, s + 1, level));
      for (const metric of Object.keys(trials[0] ?? {}))
        rows.push({
          family: scenario,
          noise: level.name,
          ...distribution(
            metric,
            trials.map((t) => t[metric] ?? NaN),
          ),
          paper: f.goals.find((g) => g.metric === metric)?.paper,
        });
    }
  return rows;
}

export function distribution(measure: string, values: number[]): Distribution {
  const xs = values.filter((v) => !Number.isNaN(v));
  return {
    measure,
    n: xs.length,
    undefined: values.length - xs.length,
    mean: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN,
    p10: quantile(xs, 0.1),
    median: quantile(xs, 0.5),
    p90: quantile(xs, 0.9),
    min: xs.length ? Math.min(...xs) : NaN,
    max: xs.length ? Math.max(...xs) : NaN,
  };
}

/** The rows as a fixed-width table (family, noise, measure, n, mean, p10, median, p90, paper). */
export function formatAccuracy(rows: AccuracyRow[]): string {
  const f = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "-" : x.toFixed(2));
  const lines = rows.map((r) =>
    [
      r.family.padEnd(22),
      r.noise.padEnd(18),
      r.measure.padEnd(40),
      String(r.n).padStart(4),
      ...[r.mean, r.p10, r.median, r.p90, r.min, r.max, r.paper].map((x) => f(x).padStart(6)),
    ].join(" "),
  );
  const head = ["family".padEnd(22), "noise".padEnd(18), "measure".padEnd(40), "   n"]
    .concat(["mean", "p10", "median", "p90", "min", "max", "paper"].map((h) => h.padStart(6)))
    .join(" ");
  return [head, ...lines].join("\n");
}
