// `npm run bench -- compare` (docs/compare.md): how right and how fast `jankbook compare` is.
// Accuracy, on the simulator's cases (bench/compare/sim-pairs.ts) at every noise level: per case and level a pool
// of 16 healthy and 8 buggy runs; the planted change's rank in "what changed most" for 8 healthy against 8 buggy
// runs (runs are the units) and for one run against one (the block bootstrap); the false-alarm rate of A/A pairs
// (healthy against healthy at other seeds, 8 against 8 split four ways, and one against one): the share of pairs
// with any significant change. Speed: two 1M-frame runs compared on the native engine (against the same work with
// each run's frames read by a query of its own and every frame in JS), the whole `jankbook compare` process on
// them, and two lake slices of 5,000 runs each (against one query per run). Figures go to
// bench/results/compare.json.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Table } from "apache-arrow";
import { compareRuns, type CompareTables } from "../cells/compare/compare-runs";
import type { CompareRow } from "../cells/compare/compare-metric";
import { createNativeEngine, type NativeEngine } from "../workspace/db/node/duckdb-native";
import { loadRunSides } from "../workspace/node/compare-load";
import { casePairs, casePlanted } from "./compare/case-pairs";
import { readSides } from "./compare/read-sides";
import { SIM_CASES, writeSimRun, type SimCase, type WrittenRun } from "./compare/sim-pairs";
import { LEVELS, scenarioNoise } from "./accuracy/distribution";
import { median, type Benchmark } from "./harness";
import { writeFramesRun } from "./compare/big-runs";

const HERE = import.meta.dirname;
const OUT = join(HERE, "results", "compare.json");
// healthy runs per side of an A/B pair (16 healthy, 8 buggy per case and level); JB_BENCH_COMPARE_POOL lowers it on a
// loaded machine (at least 4: the fewest runs a side a rank test over runs can call significant)
const POOL = Math.max(4, Number(process.env.JB_BENCH_COMPARE_POOL ?? 8));

interface Trial {
  family: string;
  case: string;
  noise: string;
  kind: "8v8" | "1v1";
  /** planted change's 1-based rank (Infinity when absent), significant or not; or an A/A pair's false alarms */
  rank?: number;
  significant?: boolean;
  falseAlarms?: number;
  rows: number;
}

const rankOf = (rows: CompareRow[], planted: (r: CompareRow) => boolean) => {
  const i = rows.findIndex(planted);
  return i < 0 ? Infinity : i + 1;
};

async function compareDirs(a: WrittenRun[], b: WrittenRun[]) {
  const { sides, tables } = await readSides(
    a.map((r) => r.dir),
    b.map((r) => r.dir),
  );
  return compareRuns(tables, sides).rows;
}

/** Every trial of one case at one noise level. */
async function caseTrials(
  root: string,
  c: SimCase,
  level: (typeof LEVELS)[number],
  li: number,
): Promise<Trial[]> {
  const noise = c.family === "diagdroid" ? { extra: level.extra, load: level.load } : scenarioNoise(level);
  const seed = (k: number) => 1000 * (li + 1) + k;
  const healthy: WrittenRun[] = [];
  const buggy: WrittenRun[] = [];
  for (let k = 0; k < 2 * POOL; k++) healthy.push(await writeSimRun(root, c, false, seed(k), noise));
  for (let k = 0; k < POOL; k++) buggy.push(await writeSimRun(root, c, true, seed(500 + k), noise));
  const base = { family: c.family, case: c.name, noise: level.name };
  const out: Trial[] = [];
  const planted = buggy[0]!.planted!;
  const rows = await compareDirs(healthy.slice(0, POOL), buggy);
  const r = rankOf(rows, planted);
  out.push({
    ...base,
    kind: "8v8",
    rank: r,
    significant: rows[r - 1]?.significant ?? false,
    rows: rows.length,
  });
  for (let k = 0; k < 2; k++) {
    const one = await compareDirs([healthy[k]!], [buggy[k]!]);
    const r1 = rankOf(one, buggy[k]!.planted!);
    out.push({
      ...base,
      kind: "1v1",
      rank: r1,
      significant: one[r1 - 1]?.significant ?? false,
      rows: one.length,
    });
  }
  // A/A: the 16 healthy runs split four ways into 8 against 8, and four pairs of one against one
  const splits = [
    (i: number) => i < POOL,
    (i: number) => i % 2 === 0,
    (i: number) => i % 4 < 2,
    (i: number) => [0, 3, 5, 6, 9, 10, 12, 15].includes(i),
  ];
  for (const inA of splits) {
    const aa = await compareDirs(
      healthy.filter((_, i) => inA(i)),
      healthy.filter((_, i) => !inA(i)),
    );
    out.push({ ...base, kind: "8v8", falseAlarms: aa.filter((x) => x.significant).length, rows: aa.length });
  }
  for (let k = 0; k < 4; k++) {
    const aa = await compareDirs([healthy[2 * k]!], [healthy[2 * k + 1]!]);
    out.push({ ...base, kind: "1v1", falseAlarms: aa.filter((x) => x.significant).length, rows: aa.length });
  }
  return out;
}

let trials: Promise<Trial[]> | undefined;
function allTrials(): Promise<Trial[]> {
  trials ??= (async () => {
    const root = await mkdtemp(join(tmpdir(), "jb-compare-bench-"));
    try {
      const out: Trial[] = [];
      for (const c of SIM_CASES)
        for (const [li, level] of LEVELS.entries()) {
          // AndroScope's traces take no noise: the levels differ by their seeds only
          out.push(...(await caseTrials(root, c, level, li)));
          process.stderr.write(`compare accuracy: ${c.family}/${c.name} ${level.name} done\n`);
        }
      return out;
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  })();
  return trials;
}

/** Per family and kind: pairs, false-alarm rate; planted: mean rank, share first, share first and significant. */
function summarise(t: Trial[]) {
  const out: Record<string, unknown> = {};
  for (const family of ["diagdroid", "draw", "dune", "androscope"])
    for (const kind of ["8v8", "1v1"] as const) {
      const mine = t.filter((x) => x.family === family && x.kind === kind);
      const aa = mine.filter((x) => x.falseAlarms !== undefined);
      const ab = mine.filter((x) => x.rank !== undefined);
      const ranks = ab.map((x) => x.rank!);
      out[`${family} ${kind}`] = {
        aaPairs: aa.length,
        falseAlarmRate: aa.filter((x) => x.falseAlarms! > 0).length / aa.length,
        plantedTrials: ab.length,
        plantedMeanRank:
          ranks.filter(Number.isFinite).reduce((s, x) => s + x, 0) / ranks.filter(Number.isFinite).length,
        plantedMedianRank: median(ranks),
        plantedMissing: ranks.filter((x) => !Number.isFinite(x)).length,
        plantedFirst: ab.filter((x) => x.rank === 1).length / ab.length,
        plantedFirstAndSignificant: ab.filter((x) => x.rank === 1 && x.significant).length / ab.length,
        byCase: Object.fromEntries(
          [...new Set(ab.map((x) => x.case))].map((c) => [
            c,
            ab
              .filter((x) => x.case === c)
              .map((x) => ({ noise: x.noise, rank: x.rank, significant: x.significant })),
          ]),
        ),
      };
    }
  return out;
}

/** Merges figures into bench/results/compare.json (accuracy and speed are written by different runs). */
async function record(figures: Record<string, unknown>): Promise<void> {
  await mkdir(join(HERE, "results"), { recursive: true });
  const old = JSON.parse(await readFile(OUT, "utf8").catch(() => "{}")) as Record<string, unknown>;
  await writeFile(OUT, JSON.stringify({ ...old, ...figures }, null, 2) + "\n");
}

/**
 * A speed sample with the machine's load beside it (the machine is shared: docs/testing.md), and the process's
 * CPU time over it (every thread, DuckDB's too) when measured: what the work costs whatever the load.
 */
export async function recordSpeed(name: string, ms: number, cpuMs?: number): Promise<void> {
  const old = JSON.parse(await readFile(OUT, "utf8").catch(() => "{}")) as {
    speed?: Record<string, unknown[]>;
  };
  const speed = old.speed ?? {};
  const sample = {
    date: new Date().toISOString(),
    ms,
    ...(cpuMs !== undefined ? { cpuMs } : {}),
    loadavg: loadavg(),
  };
  speed[name] = [...(speed[name] ?? []), sample];
  await record({ speed });
}

let summary: Promise<Record<string, unknown>> | undefined;
const summaryOf = () =>
  (summary ??= allTrials().then(async (t) => {
    const s = summarise(t);
    // the load beside the figures: on a shared machine a rerun is judged against its own load (docs/testing.md)
    await record({
      accuracy: { date: new Date().toISOString(), loadavg: loadavg(), pool: POOL, noise: LEVELS, summary: s },
    });
    process.stderr.write(`wrote ${OUT}\n`);
    return s;
  }));

const accuracy: Benchmark[] = ["diagdroid", "draw", "dune", "androscope"].flatMap((family) =>
  (["8v8", "1v1"] as const).flatMap((kind) => [
    {
      name: `compare/accuracy ${family} ${kind} A/A false-alarm rate`,
      unit: "share of pairs",
      budget: 0.05,
      runs: 1,
      async measure() {
        return ((await summaryOf())[`${family} ${kind}`] as { falseAlarmRate: number }).falseAlarmRate;
      },
    },
    {
      name: `compare/accuracy ${family} ${kind} planted change first and significant`,
      unit: "share of trials",
      higherIsBetter: true,
      ...(kind === "8v8" ? { budget: 1 } : {}),
      runs: 1,
      async measure() {
        return ((await summaryOf())[`${family} ${kind}`] as { plantedFirstAndSignificant: number })
          .plantedFirstAndSignificant;
      },
    },
  ]),
);

// The bundled case notebooks' own pairs (notebooks/cases/*.md: `healthy:` against the rest of `runs:`): where the
// planted change ranks and whether it is significant, per notebook (test/cells/compare/case-notebooks.test.ts
// asserts the same).
const caseNotebooks: Benchmark = {
  name: "compare/accuracy case notebooks: planted change first and significant",
  unit: "share of notebooks",
  higherIsBetter: true,
  runs: 1,
  async measure() {
    const rows = [];
    for (const pair of casePairs()) {
      const planted = await casePlanted(pair);
      const { sides, tables } = await readSides(pair.healthy, pair.buggy);
      const list = compareRuns(tables, sides).rows;
      const i = list.findIndex(planted);
      rows.push({
        notebook: pair.notebook,
        sides: `${pair.healthy.length} v ${pair.buggy.length}`,
        plantedRank: i < 0 ? null : i + 1,
        significant: list[i]?.significant ?? false,
        q: list[i]?.q ?? null,
        planted: i < 0 ? null : `${list[i]!.analysis}: ${list[i]!.subject}: ${list[i]!.measure}`,
        first: list[0] ? `${list[0].analysis}: ${list[0].subject}: ${list[0].measure}` : null,
        method: list[i]?.method ?? null,
      });
    }
    await record({ caseNotebooks: { date: new Date().toISOString(), loadavg: loadavg(), rows } });
    return rows.filter((r) => r.plantedRank === 1 && r.significant).length / rows.length;
  },
};

// Speed: two 1M-frame runs, loaded once into a native engine; measured is reading what the comparison needs (the
// engine summarises the frames per UI-event bucket) and comparing; its peer does the same work the way it was done
// before, each run's frames read by a query of its own and every frame handed to JS.
let big: { root: string; engine: NativeEngine; a: string; b: string } | undefined;
const BIG = "two 1M-frame runs, native (query + compare)";
const BIG_PEER = "the same two runs, one query per run, every frame in JS";
const BIG_CLI = "jankbook compare of two 1M-frame runs, whole process (native, loading included)";

/** Both runs' frames and UI events, read run by run, every row (the way compare read them before). */
async function perRunQueries(engine: NativeEngine, runs: string[]): Promise<CompareTables> {
  const read = async (sql: string) => {
    const parts: Table[] = [];
    for (const run of runs) parts.push((await engine.query(sql, [run])) as unknown as Table);
    return parts.reduce((all, t) => all.concat(t));
  };
  return {
    frames: await read(
      "SELECT run_id, intended_vsync, frame_completed, duration, deadline, jank, suspect FROM frames WHERE run_id = ?",
    ),
    ui_events: await read("SELECT run_id, ts, kind, target FROM ui_events WHERE run_id = ?"),
  };
}

/** CPU milliseconds of this process since `since` (process.cpuUsage()). */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const speed: Benchmark[] = [
  {
    name: `compare/${BIG}`,
    unit: "ms",
    budget: 2000,
    runs: 3,
    async setup() {
      const root = await mkdtemp(join(tmpdir(), "jb-compare-1m-"));
      const a = await writeFramesRun(root, "big-a", 1_000_000, 1, 1.0);
      const b = await writeFramesRun(root, "big-b", 1_000_000, 2, 1.05);
      big = { root, engine: await createNativeEngine(), a, b };
      await loadRunSides([a], [b], big.engine);
    },
    async measure() {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const { sides, tables } = await loadRunSides([big!.a], [big!.b], big!.engine);
      const c = compareRuns(tables, sides);
      if (!c.rows.length) throw new Error("no rows");
      const ms = performance.now() - t0;
      await recordSpeed(BIG, ms, cpuMs(cpu));
      return ms;
    },
    peer: {
      name: "one query per run, every frame in JS",
      runs: 1,
      async measure() {
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        const tables = await perRunQueries(big!.engine, ["big-a", "big-b"]);
        const c = compareRuns(tables, { a: ["big-a"], b: ["big-b"] });
        if (!c.rows.length) throw new Error("no rows");
        const ms = performance.now() - t0;
        await recordSpeed(BIG_PEER, ms, cpuMs(cpu));
        return ms;
      },
    },
    async teardown() {
      await big?.engine.close();
      if (big) await rm(big.root, { recursive: true, force: true });
    },
  },
  {
    // what the user waits for: the command started, both run folders loaded into native DuckDB, compared, printed
    name: `compare/${BIG_CLI}`,
    unit: "ms",
    runs: 1,
    async setup() {
      const root = await mkdtemp(join(tmpdir(), "jb-compare-1m-cli-"));
      const a = await writeFramesRun(root, "big-a", 1_000_000, 1, 1.0);
      const b = await writeFramesRun(root, "big-b", 1_000_000, 2, 1.05);
      big = { root, engine: undefined as unknown as NativeEngine, a, b };
    },
    async measure() {
      const t0 = performance.now();
      const cli = join(HERE, "..", "cli", "jankbook.js");
      await promisify(execFile)(process.execPath, [cli, "compare", big!.a, big!.b, "--engine", "native"], {
        maxBuffer: 1 << 24,
      });
      const ms = performance.now() - t0;
      await recordSpeed(BIG_CLI, ms);
      return ms;
    },
    async teardown() {
      if (big) await rm(big.root, { recursive: true, force: true });
      big = undefined;
    },
  },
];

export const benchmarks: Benchmark[] = [
  caseNotebooks,
  ...accuracy,
  ...speed,
  ...(await import("./compare/lake-slices")).lakeBenchmarks,
];
