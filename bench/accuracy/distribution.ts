// The accuracy bench's figures (distributions, not one seed, since one seed can be lucky): one row per
// scenario family, noise level and metric, with the paper's figure beside it, for the families whose trials
// run in this process (dune.ts, draw.ts; shape in family.ts), also printable on their own.
// Undefined values (a precision with nothing flagged) are counted, not averaged.
import { quantile } from "../harness";
import { NOISE_LEVELS, type AccuracyFamily, type AccuracyGoal, type NoiseLevel } from "./family";
import type { ScenarioNoise } from "../../collectors/simulator/scenario-parts";

export type BenchNoise = NoiseLevel;
export type Goal = AccuracyGoal;
/** A family whose trials run synchronously (dune.ts, draw.ts): runFamily runs them in this process. */
export type Family = Omit<AccuracyFamily, "run"> & {
  run(scenario: string, seed: number, noise: BenchNoise): Record<string, number>;
};

export const LEVELS: readonly BenchNoise[] = NOISE_LEVELS;

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
