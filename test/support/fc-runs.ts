// How many runs a costly property test makes. By default a quarter of its full count (at least `min`), so that
// `npm test` stays short on a 2-core machine; FC_RUNS=full gives the full count, FC_RUNS=<factor> (e.g. 4) the
// full count times that factor. Where a test fixes its seed, the default runs are the first cases of the full run.
// See docs/testing.md.
const setting = process.env.FC_RUNS?.trim() ?? "";

export function fcRuns(full: number, min = 5): number {
  if (setting === "full") return full;
  const factor = Number(setting);
  if (setting !== "" && Number.isFinite(factor) && factor > 0) return Math.max(1, Math.round(full * factor));
  if (setting !== "") throw new Error(`FC_RUNS=${setting}: expected "full" or a positive factor such as 4`);
  return Math.max(min, Math.ceil(full / 4));
}
