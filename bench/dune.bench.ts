// DUNE benchmarks: similarity weights + IQR labels over 100,000 history runs (budget 100 ms), and Apriori
// on 100,000 runs x 8 attributes at minSupport 0.01 (budget 1 s) with Weka 3.6's Apriori as the peer.
// The peer is bench/weka/AprioriTimer.java: it times only buildAssociations, in one JVM, after one warm-up
// run; the ratio is ours / Weka's median. Needs Debian's `weka` package (javac and /usr/share/java/weka.jar).
// bench/weka/compare-apriori.ts checks that both find the same rules (they do, with and without missing values).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apriori, aprioriReport } from "../cells/dune/context-rules";
import { deviationLabels, type RunMetrics } from "../cells/dune/deviation-labels";
import type { Benchmark } from "./harness";
import { mulberry32 } from "../collectors/simulator/random";

const N = 100_000;
const WEKA_JAR = "/usr/share/java/weka.jar";
/** Weka's Apriori set to our thresholds: confidence 0.9, support 0.01 in one pass (-U 1.0 -D 0.99), every rule. */
export const WEKA_APRIORI_OPTIONS = ["-N", "100000000", "-C", "0.9", "-D", "0.99", "-U", "1.0", "-M", "0.01"];

const rng = mulberry32;
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

const SDKS = [
  ["4.3", "18"],
  ["4.4", "19"],
  ["5.0.0", "21"],
  ["5.1.0", "22"],
  ["6.0.0", "23"],
  ["7.0", "24"],
  ["8.1", "27"],
  ["9", "28"],
] as const;
const DEVICES = [
  ["Google", "Nexus 4", "armeabi-v7a"],
  ["Google", "Nexus 5", "armeabi-v7a"],
  ["Google", "Nexus 5X", "arm64-v8a"],
  ["Google", "Nexus 7", "armeabi-v7a"],
  ["Google", "Pixel", "arm64-v8a"],
  ["samsung", "SM-G900F", "armeabi-v7a"],
  ["samsung", "SM-G930F", "arm64-v8a"],
  ["samsung", "SM-A505F", "arm64-v8a"],
  ["LGE", "Nexus 5", "armeabi-v7a"],
  ["LGE", "G4", "arm64-v8a"],
  ["motorola", "Moto G", "armeabi-v7a"],
  ["Genymotion", "Custom Phone", "x86"],
] as const;

/** 100,000 runs x 8 context attributes + label: correlated like a real device lab (§7.4, §8.2). */
export function contextRows(n = N, seed = 42): Record<string, string>[] {
  const r = rng(seed);
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const [sdk, api] = pick(r, SDKS);
    const [manufacturer, model, cpu] = pick(r, DEVICES);
    const regress = sdk.startsWith("5.") || (sdk === "6.0.0" && model === "Nexus 5X");
    const label = regress ? (r() < 0.97 ? "Outlier-" : "N") : r() < 0.03 ? "Outlier+" : "N";
    rows.push({
      version: pick(r, ["1.0", "1.1", "1.2", "2.0", "2.1"]),
      sdk,
      api,
      manufacturer,
      model,
      cpu,
      network: pick(r, ["wifi", "4g", "3g"]),
      label,
    });
  }
  return rows;
}

/** ARFF with every attribute nominal; absent, "" and "?" values are written as Weka's missing value (?). */
export function toArff(rows: Record<string, string>[]): string {
  const attrs = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const missing = (v: string | undefined) => v === undefined || v === "" || v === "?";
  const q = (v: string | undefined) =>
    missing(v) ? "?" : `'${v!.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const values = (a: string) => [...new Set(rows.map((r) => r[a]).filter((v) => !missing(v)))] as string[];
  const head = attrs.map((a) => `@attribute ${a} {${values(a).map(q).join(",")}}`);
  return `@relation dune\n${head.join("\n")}\n@data\n${rows.map((r) => attrs.map((a) => q(r[a])).join(",")).join("\n")}\n`;
}

/** Weka's Apriori, one JVM, `repeats` buildAssociations calls; returns [ms, rules] per call (first = warm-up). */
export function wekaApriori(
  rows: Record<string, string>[],
  extra: string[],
  repeats = 6,
): { ms: number; rules: number }[] {
  const dir = mkdtempSync(join(tmpdir(), "dune-weka-"));
  try {
    const arff = join(dir, "runs.arff");
    writeFileSync(arff, toArff(rows));
    execFileSync("javac", [
      "-cp",
      WEKA_JAR,
      "-d",
      dir,
      join(import.meta.dirname, "weka", "AprioriTimer.java"),
    ]);
    // -U 1.0 -D 0.99: Weka starts at 1.0 − 0.99 = 0.01 and stops after that one pass; -N: keep every rule.
    const args = [
      "-Xmx4g",
      "-cp",
      `${WEKA_JAR}:${dir}`,
      "AprioriTimer",
      arff,
      String(repeats),
      ...WEKA_APRIORI_OPTIONS,
      ...extra,
    ];
    const out = execFileSync("java", args, { encoding: "utf8", timeout: 20 * 60_000, maxBuffer: 1 << 24 });
    return out
      .trim()
      .split("\n")
      .map((l) => {
        const m = /ms=([\d.]+) rules=(\d+)/.exec(l);
        if (!m) throw new Error(`AprioriTimer: unexpected output line: ${l}`);
        return { ms: Number(m[1]), rules: Number(m[2]) };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function aprioriBench(name: string, consequentAttribute?: string): Benchmark {
  let rows: Record<string, string>[] = [];
  let weka: number[] = [];
  return {
    name,
    unit: "ms",
    budget: 1000,
    runs: 5,
    setup() {
      rows = contextRows();
      const ours = aprioriReport(rows, { minSupport: 0.01, minConfidence: 0.9, consequentAttribute });
      process.stderr.write(
        `  ours: ${ours.rules.length} rules from ${ours.frequentItemsets} frequent itemsets (minCount ${ours.minCount})\n`,
      );
      if (existsSync(WEKA_JAR)) {
        const samples = wekaApriori(rows, consequentAttribute ? ["-A"] : []);
        process.stderr.write(
          `  weka: ${samples.map((s) => `${s.ms.toFixed(0)} ms/${s.rules} rules`).join(", ")} (first is warm-up)\n`,
        );
        weka = samples.slice(1).map((s) => s.ms);
      }
    },
    measure() {
      const t0 = performance.now();
      apriori(rows, { minSupport: 0.01, minConfidence: 0.9, consequentAttribute });
      return performance.now() - t0;
    },
    peer: { name: "Weka 3.6 Apriori buildAssociations (JIT-warm)", measure: () => weka.shift() ?? NaN },
  };
}

type Run = { context: Record<string, string>; metrics: RunMetrics };

/** 100,001 runs with coarse metrics and `buckets` UI-event buckets (fine-grained mode, §5.2.2). */
function labelRuns(buckets: number): Run[] {
  const r = rng(7);
  return contextRows(N + 1, 7).map((context) => ({
    context,
    metrics: {
      frames: 400 + Math.floor(r() * 100),
      smoothRatio: 0.85 + r() * 0.15,
      meanFrameMs: 8 + r() * 10,
      events: Array.from({ length: buckets }, () => ({
        frames: 20 + Math.floor(r() * 10),
        smoothRatio: 0.8 + r() * 0.2,
        meanFrameMs: 8 + r() * 10,
      })),
    },
  }));
}

/**
 * similarityWeights over 100,000 history runs, then IQR flags against the chosen cluster.
 * `dims` = 7 context dimensions gives a realistic most-similar cluster (runs sharing every property);
 * `dims` = [] puts all 100,000 runs in cluster 0, the worst case for the IQR step.
 */
function labelsBench(name: string, dims: string[], buckets: number, budget?: number): Benchmark {
  let history: Run[] = [];
  let target: Run;
  return {
    name,
    unit: "ms",
    ...(budget === undefined ? {} : { budget }),
    runs: 9,
    setup() {
      const runs = labelRuns(buckets);
      history = runs.slice(0, N);
      target = runs[N]!;
      const r = deviationLabels(target, history, { dimensions: dims });
      process.stderr.write(`  cluster 0: ${r.members.length} runs; labels ${r.labels.join(" ")}\n`);
    },
    measure() {
      const t0 = performance.now();
      deviationLabels(target, history, { dimensions: dims });
      return performance.now() - t0;
    },
  };
}

const DIMS = ["version", "sdk", "api", "manufacturer", "model", "cpu", "network"];

export const benchmarks: Benchmark[] = [
  labelsBench(
    "dune/similarity weights + IQR labels, 100,000 history runs, 7 dims, coarse + 21 buckets",
    DIMS,
    21,
    100,
  ),
  labelsBench(
    "dune/similarity weights + IQR labels, 100,000 history runs all in cluster 0, coarse",
    [],
    0,
    100,
  ),
  labelsBench(
    "dune/similarity weights + IQR labels, 100,000 history runs all in cluster 0, coarse + 21 buckets",
    [],
    21,
  ),
  aprioriBench("dune/apriori 100,000 runs x 8 attributes, minSupport 0.01, all rules"),
  aprioriBench("dune/apriori 100,000 runs x 8 attributes, minSupport 0.01, class rules (label)", "label"),
];
