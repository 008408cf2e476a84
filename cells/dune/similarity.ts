// Context similarity and weights (DUNE §5.3.1–5.3.2, after Foo et al.).
// For each history run: the binary vector "shares this context property with the target" over the chosen
// dimensions; degree simD = sqrt(number of shared properties) (the vector's Cartesian length);
// weight w(Ti) = simD(Ti) / Σj simD(Tj); clusters group runs of equal degree, cluster 0 the most similar.
//
// Missing attributes: a value that is absent, "" or "?" (on either side) is never shared, so a run
// missing a dimension simply scores 0 on it. When no history run shares anything (Σ simD = 0), every
// run is equally (dis)similar: the weights are uniform, 1/n, and all runs form cluster 0.
import { chartSpec, type ChartSpec } from "../common/chart-spec";

export interface SimilarityWeightsResult {
  /** simD per history run: sqrt(number of shared context properties). */
  degree: Float64Array;
  /** w(Ti) = simD(Ti) / Σ simD; sums to 1 (empty history: no weights). */
  weight: Float64Array;
  /** 0 = the runs with the highest degree, 1 = the next distinct degree, ... */
  cluster: Int32Array;
}

export function isMissingValue(v: string | undefined | null): boolean {
  return v === undefined || v === null || v === "" || v === "?";
}

export function similarityWeights(
  target: Record<string, string>,
  history: Record<string, string>[],
  dimensions: string[],
): SimilarityWeightsResult {
  const n = history.length;
  const shared = new Int32Array(n);
  const targetValues = dimensions.map((d) => (isMissingValue(target[d]) ? undefined : target[d]));
  for (let k = 0; k < dimensions.length; k++) {
    const want = targetValues[k];
    if (want === undefined) continue; // a property the target lacks is shared by no one
    const dim = dimensions[k]!;
    for (let i = 0; i < n; i++) if (history[i]![dim] === want) shared[i]!++;
  }
  const degree = new Float64Array(n);
  let sum = 0;
  let maxShared = 0;
  for (let i = 0; i < n; i++) {
    const s = shared[i]!;
    degree[i] = Math.sqrt(s); // §5.3.1: simD = sqrt(N), N = number of 1s in the similarity vector
    sum += degree[i]!;
    if (s > maxShared) maxShared = s;
  }
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) weight[i] = sum > 0 ? degree[i]! / sum : 1 / n; // §5.3.2
  // Clusters by the integer shared count (equal degree ⇔ equal count), most similar first.
  const rank = new Int32Array(maxShared + 1).fill(-1);
  for (let i = 0; i < n; i++) rank[shared[i]!] = 0;
  let next = 0;
  for (let s = maxShared; s >= 0; s--) if (rank[s] === 0) rank[s] = next++;
  const cluster = new Int32Array(n);
  for (let i = 0; i < n; i++) cluster[i] = rank[shared[i]!]!;
  return { degree, weight, cluster };
}

/** Indices of the history runs in the given cluster (default 0, the most similar). */
export function clusterMembers(result: SimilarityWeightsResult, cluster = 0): number[] {
  const out: number[] = [];
  for (let i = 0; i < result.cluster.length; i++) if (result.cluster[i] === cluster) out.push(i);
  return out;
}

/** Weight of each history run, coloured by cluster (Table 1 as a chart). */
export function similarityWeightsPlot(
  result: SimilarityWeightsResult,
  options: { labels?: string[] } = {},
): ChartSpec {
  const rows = Array.from(result.weight, (w, i) => ({
    run: options.labels?.[i] ?? `T${i + 1}`,
    weight: w,
    degree: result.degree[i]!,
    // words, not a lone "0" in the legend, which reads as a count
    cluster: result.cluster[i] === 0 ? "most similar (0)" : `cluster ${result.cluster[i]}`,
  }));
  return chartSpec("similarityWeightsPlot", {
    mark: "barY",
    data: rows,
    x: "run",
    y: "weight",
    fill: "cluster",
    options: { tip: true },
    layout: { y: { label: "weight w(Ti)" }, color: { legend: true, label: "cluster" } },
    over: [{ mark: "ruleY", data: [0] }],
  });
}
