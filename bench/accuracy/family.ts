// The accuracy bench's shape (docs/budgets.md, "Accuracy"): each paper's family runs its scenarios of the
// simulated app over many seeds and noise levels and returns, per trial, the metrics that say how well the
// analysis found the injected culprit. bench/accuracy.bench.ts runs every family and reports the distributions.
//
//   export const family: AccuracyFamily = {name: "dune", scenarios: [...], goals: [...], run(scenario, seed, noise) {...}}

/** How far a trial's simulated run is from the case as the paper describes it. */
export interface NoiseLevel {
  name: "none" | "low" | "high";
  /** unrelated tasks / events / views added around the case, per simulated second */
  extra: number;
  /** background CPU load 0..1: the device runs slower by this share of its speed */
  load: number;
  /** device profiles (collectors/simulator/device-profiles.ts keys) drawn from by seed */
  devices: readonly string[];
}

export const NOISE_LEVELS: readonly NoiseLevel[] = [
  { name: "none", extra: 0, load: 0, devices: ["pixel-4a"] },
  { name: "low", extra: 2, load: 0.2, devices: ["pixel-4a", "pixel-2", "galaxy-s21"] },
  {
    name: "high",
    extra: 6,
    load: 0.5,
    devices: ["nexus-5x", "pixel-2", "pixel-4a", "galaxy-s21", "pixel-7"],
  },
];

/** A metric's paper figure (the floor to beat) and the figure we aim for (docs/budgets.md). */
export interface AccuracyGoal {
  metric: string;
  better: "lower" | "higher";
  paper: number;
  aim: number;
  /** where the paper's figure comes from, e.g. "DiagDroid §6.4 (Table 2)" */
  source: string;
  /** the scenarios this metric is measured on (default: all of the family's) */
  scenarios?: readonly string[];
}

/** One trial's metrics; a metric the trial could not measure is NaN (counted as missed, not dropped). */
export type TrialMetrics = Record<string, number>;

export interface AccuracyFamily {
  /** the paper: "diagdroid", "dune", "draw" */
  name: string;
  /** the scenario families the distributions are reported for */
  scenarios: readonly string[];
  goals: readonly AccuracyGoal[];
  run(scenario: string, seed: number, noise: NoiseLevel): TrialMetrics | Promise<TrialMetrics>;
}
