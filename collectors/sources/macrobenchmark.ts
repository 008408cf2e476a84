// androidx.benchmark results (`<module>-benchmarkData.json`, benchmark-common BenchmarkData / ResultWriter):
// { context: { build: { brand, device, fingerprint, model, version: { sdk } }, cpuCoreCount, ... },
//   benchmarks: [{ name, className, params, metrics: { m: { minimum, maximum, median, runs: [..] } },
//                  sampledMetrics: { m: { P50, P90, P95, P99, runs: [[..], ..] } }, repeatIterations,
//                  profilerOutputs: [{ type, label, filename }] }] }

export interface BenchmarkMetric {
  name: string;
  /** summary values as written (minimum, median, maximum, P50, ...) */
  summary: Record<string, number>;
  /** metrics: one value per iteration; sampledMetrics: one array of samples per iteration */
  runs: number[] | number[][];
  sampled: boolean;
}

export interface BenchmarkEntry {
  name: string;
  className: string;
  params: Record<string, string>;
  iterations: number;
  metrics: BenchmarkMetric[];
  /** ISO local time an iteration's trace was taken, from its profiler output file name; null when unknown */
  iterationTimes: (string | null)[];
}

export interface BenchmarkData {
  build: {
    brand: string | null;
    device: string | null;
    model: string | null;
    fingerprint: string | null;
    sdk: number | null;
  };
  context: Record<string, unknown>;
  benchmarks: BenchmarkEntry[];
  warnings: string[];
}

export class BenchmarkDataError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** Line and column of a character offset, for JSON syntax errors. */
function lineOf(text: string, at: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) {
    line++;
    last = i;
  }
  return `line ${line} column ${at - last}`;
}

export function looksLikeBenchmarkData(text: string): boolean {
  const head = text.slice(0, 65536);
  return (
    /^\s*\{/.test(head) && /"benchmarks"\s*:/.test(head) && /"(context|className|metrics)"\s*:/.test(head)
  );
}

function readMetric(
  name: string,
  raw: unknown,
  sampled: boolean,
  where: string,
  warnings: string[],
): BenchmarkMetric | null {
  if (!isObject(raw)) {
    warnings.push(`${where}: metric ${name} is not an object; left out`);
    return null;
  }
  const summary: Record<string, number> = {};
  for (const [k, v] of Object.entries(raw))
    if (k !== "runs" && typeof v === "number" && Number.isFinite(v)) summary[k] = v;
  const runs = raw.runs;
  if (runs === undefined) return { name, summary, runs: [], sampled };
  const ok = Array.isArray(runs)
    ? sampled
      ? runs.every((r) => Array.isArray(r) && r.every((x) => typeof x === "number"))
      : runs.every((x) => typeof x === "number")
    : false;
  if (!ok) {
    warnings.push(
      `${where}: ${sampled ? "sampledMetrics" : "metrics"}.${name}.runs is not ${sampled ? "an array of number arrays" : "an array of numbers"}; its per-iteration values were left out`,
    );
    return { name, summary, runs: [], sampled };
  }
  return { name, summary, runs: runs as number[] | number[][], sampled };
}

/** Parses and checks the JSON; a field of the wrong type is named, left out and reported. */
export function parseBenchmarkData(text: string, file = "benchmarkData.json"): BenchmarkData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos =
      /position (\d+)/.exec(msg)?.[1] ?? (/end of JSON/.test(msg) ? String(text.length) : undefined);
    const where = pos !== undefined ? ` at ${lineOf(text, Number(pos))}` : "";
    throw new BenchmarkDataError(`${file}${where}: not valid JSON (${msg}); the file may be cut off`);
  }
  if (!isObject(raw) || !Array.isArray(raw.benchmarks))
    throw new BenchmarkDataError(`${file}: expected an androidx.benchmark object with a "benchmarks" array`);
  const warnings: string[] = [];
  const context = isObject(raw.context) ? raw.context : {};
  if (!isObject(raw.context)) warnings.push(`${file}: no "context" object: the device is unknown`);
  const b = isObject(context.build) ? context.build : {};
  const version = isObject(b.version) ? b.version : {};
  const sdk = typeof version.sdk === "number" && Number.isInteger(version.sdk) ? version.sdk : null;
  const benchmarks: BenchmarkEntry[] = [];
  raw.benchmarks.forEach((entry, i) => {
    const where = `${file}: benchmarks[${i}]`;
    if (!isObject(entry) || typeof entry.name !== "string") {
      warnings.push(`${where}: not a benchmark object with a name; left out`);
      return;
    }
    const metrics: BenchmarkMetric[] = [];
    for (const [key, sampled] of [
      ["metrics", false],
      ["sampledMetrics", true],
    ] as const) {
      const group = entry[key];
      if (group === undefined) continue;
      if (!isObject(group)) {
        warnings.push(`${where}: ${key} is not an object; left out`);
        continue;
      }
      for (const [name, m] of Object.entries(group)) {
        const metric = readMetric(name, m, sampled, where, warnings);
        if (metric) metrics.push(metric);
      }
    }
    // Iterations are the runs recorded; repeatIterations is a claim, used (bounded) only when no run was.
    const recorded = Math.max(0, ...metrics.map((m) => m.runs.length));
    const repeat = entry.repeatIterations;
    const claimed =
      typeof repeat === "number" && Number.isInteger(repeat) && repeat > 0 ? Math.min(repeat, 10_000) : 0;
    const iterations = recorded || claimed;
    for (const m of metrics)
      if (m.runs.length && m.runs.length !== iterations)
        warnings.push(
          `${where} (${entry.name}): ${m.name} has ${m.runs.length} runs for ${iterations} iterations; the missing iterations have no ${m.name}`,
        );
    const params: Record<string, string> = {};
    if (isObject(entry.params)) for (const [k, v] of Object.entries(entry.params)) params[k] = String(v);
    const iterationTimes: (string | null)[] = new Array(iterations).fill(null);
    if (Array.isArray(entry.profilerOutputs))
      for (const o of entry.profilerOutputs) {
        if (!isObject(o)) continue;
        const it = /Iteration (\d+)/.exec(str(o.label) ?? "")?.[1];
        const t = /(\d{4}-\d\d-\d\d)-(\d\d)-(\d\d)-(\d\d)\./.exec(str(o.filename) ?? "");
        if (it !== undefined && t && Number(it) < iterations)
          iterationTimes[Number(it)] = `${t[1]}T${t[2]}:${t[3]}:${t[4]}`;
      }
    benchmarks.push({
      name: entry.name,
      className: str(entry.className) ?? "unknown",
      params,
      iterations,
      metrics,
      iterationTimes,
    });
  });
  return {
    build: {
      brand: str(b.brand),
      device: str(b.device),
      model: str(b.model),
      fingerprint: str(b.fingerprint),
      sdk,
    },
    context,
    benchmarks,
    warnings,
  };
}
