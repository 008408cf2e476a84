// The shape of the accuracy bench's figures (issue 20: "report the distributions, not one seed"): one row per
// scenario family, noise level and measure, with the paper's figure beside it. A local shape until the shared
// bench/accuracy/family.ts lands; undefined values (a precision with nothing flagged) are counted, not averaged.
import { quantile } from "../harness";
import type { ScenarioNoise } from "../../collectors/simulator/scenario-parts";

export interface NoiseLevel {
  name: string;
  /** how many devices of the lab take part */
  devices: number;
  noise: ScenarioNoise;
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
  better: "higher" | "lower";
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
