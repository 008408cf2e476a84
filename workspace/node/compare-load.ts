// The sides of `jankbook compare` loaded into one engine: each side a run folder, a folder of runs, a glob of run
// folders, or a lake slice `lake:<dir>?<filter>` (e.g. `lake:lab/?app_version=2.1.0 device_model="Pixel 7"`).
// Run folders go through the one run loader (workspace/db/run-loader.ts); the tables the analyses read are then
// queried once for all runs. A lake slice is compared by its runs' summaries (the lake's run_summary), one
// value per run, so a slice of thousands of runs costs one grouped query, not one per run.
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Table } from "apache-arrow";
import {
  compareRuns,
  type CompareRunsOptions,
  type Comparison,
  type CompareTables,
} from "../../cells/compare/compare-runs";
import type { Metric, MetricSide } from "../../cells/compare/compare-metric";
import { parseRunFilter, type Sides } from "../../cells/compare/sides";
import { whatChanged } from "../../cells/compare/what-changed";
import { quoteIdent, type SqlEngine } from "../db/engine";
import { attachLake } from "../db/node/lake-views";
import { globToRegExp, hasGlob } from "../notebook/runs";
import { sqlBlocks, sqlFrameSummary } from "./compare-frames-sql";
import { loadRuns } from "./open-notebook-runs";

export type SideSpec = { dirs: string[] } | { lake: string; filter: string };

const isRun = (dir: string) => existsSync(join(dir, "manifest.json"));

async function subRuns(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && isRun(join(dir, e.name)))
    .map((e) => join(dir, e.name))
    .sort();
}

/** A side as written on the command line. */
export async function resolveSide(spec: string): Promise<SideSpec> {
  if (spec.startsWith("lake:")) {
    const q = spec.indexOf("?");
    const lake = resolve(spec.slice(5, q < 0 ? undefined : q));
    const filter = q < 0 ? "" : spec.slice(q + 1);
    parseRunFilter(filter); // refuse a bad filter before any work
    return { lake, filter };
  }
  const abs = resolve(spec);
  if (hasGlob(abs)) {
    const parent = dirname(abs);
    const re = globToRegExp(abs.slice(parent.length + 1));
    const dirs = (await subRuns(parent)).filter((d) => re.test(d.slice(parent.length + 1)));
    if (!dirs.length) throw new Error(`${spec}: the glob matches no run folder`);
    return { dirs };
  }
  if (isRun(abs)) return { dirs: [abs] };
  const dirs = await subRuns(abs);
  if (!dirs.length)
    throw new Error(
      `${spec}: neither a run (no manifest.json), a folder of runs, a glob nor lake:<dir>?<filter>`,
    );
  return { dirs };
}

async function tryQuery(engine: SqlEngine, sql: string, params: unknown[] = []): Promise<Table | undefined> {
  try {
    return (await engine.query(sql, params)) as unknown as Table;
  } catch {
    return undefined;
  }
}

/** The columns each analysis reads (cells/compare/*-changes.ts). */
const COLUMNS = {
  frames: ["run_id", "intended_vsync", "frame_completed", "duration", "deadline", "jank", "suspect"],
  ui_events: ["run_id", "ts", "kind", "target"],
  tasks: [
    "run_id",
    "task_id",
    "executor_id",
    "pool_capacity",
    "context_id",
    "scheduled",
    "started",
    "ended",
    "task_class",
  ],
  contexts: ["run_id", "context_id", "frames"],
  slices: ["run_id", "ts", "dur", "name"],
  calls: [
    "run_id",
    "method_id",
    "enter",
    "exit",
    "inclusive",
    "exclusive",
    "cpu_inclusive",
    "synthetic_exit",
  ],
  methods: ["run_id", "method_id", "class_name", "method_name"],
  thread_states: ["run_id", "ts", "dur", "thread_name", "state"],
  frame_timeline: ["run_id", "scope", "timeline", "ts", "layer_name", "jank_type", "present_type"],
} as const;

/** Loads both sides' run folders and reads what the analyses need. */
export async function loadRunSides(
  a: string[],
  b: string[],
  engine: SqlEngine,
  progress: (line: string) => void = () => {},
): Promise<{ sides: Sides; tables: CompareTables; errors: string[] }> {
  const ra = await loadRuns(a, engine, progress);
  const rb = await loadRuns(b, engine, progress);
  const errors = [...ra, ...rb].filter((r) => r.failed).map((r) => `${r.dir}: ${r.errors.join("; ")}`);
  const ids = (rs: typeof ra) => rs.filter((r) => !r.failed).map((r) => r.run_id);
  const sides = { a: ids(ra), b: ids(rb) };
  // only the columns the analyses read (a frames table has some thirty): converting results is the cost
  const all = async (table: keyof typeof COLUMNS) => {
    const head = await tryQuery(engine, `SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
    if (!head) return undefined;
    const have = new Set(head.schema.fields.map((f) => f.name));
    const cols = COLUMNS[table].filter((c) => have.has(c));
    return tryQuery(engine, `SELECT ${cols.map(quoteIdent).join(", ")} FROM ${quoteIdent(table)}`);
  };
  // the buckets and the frames' summary from the engine: a million frames are not handed to JS row by row
  const { blocks, uiEvents } = await sqlBlocks(engine, sides);
  const summary = await sqlFrameSummary(engine, blocks);
  const tables: CompareTables = {
    blocks,
    ...(summary ? { frame_summary: summary } : { frames: await all("frames") }),
    ui_events: uiEvents,
    tasks: await all("tasks"),
    contexts: await all("contexts"),
    slices: await all("slices"),
    calls: await all("calls"),
    methods: await all("methods"),
    thread_states: await all("thread_states"),
    frame_timeline: await all("frame_timeline"),
  };
  const runs = await tryQuery(engine, "SELECT run_id, app, screen_width, screen_height FROM runs");
  if (runs) {
    const screens = new Map<string, { width: number; height: number }>();
    const apps = new Map<string, string>();
    type RunRow = { run_id: string; app: unknown; screen_width: unknown; screen_height: unknown };
    for (const r of runs.toArray() as RunRow[]) {
      if (r.screen_width && r.screen_height)
        screens.set(String(r.run_id), { width: Number(r.screen_width), height: Number(r.screen_height) });
      if (r.app) apps.set(String(r.run_id), String(r.app));
    }
    tables.screens = screens;
    tables.apps = apps;
  }
  const ops = new Map<string, Table>();
  for (const run of [...sides.a, ...sides.b]) {
    const t = await tryQuery(engine, "SELECT * FROM render_ops WHERE run_id = ? ORDER BY start", [run]);
    if (t && t.numRows) ops.set(run, t);
  }
  if (ops.size) tables.render_ops = ops;
  return { sides, tables, errors };
}

/** The lake's per-run frame summaries a comparison of slices reads (workspace/db/node/lake-add.ts writes them). */
export const SUMMARY_MEASURES = [
  ["p50_ms", "frame duration p50", "ms", "ratio"],
  ["p90_ms", "frame duration p90", "ms", "ratio"],
  ["p95_ms", "frame duration p95", "ms", "ratio"],
  ["p99_ms", "frame duration p99", "ms", "ratio"],
  ["jank_share", "jank rate", "share", "difference"],
] as const;

/** One lake slice's runs and their summary values, by one query over run_summary. */
export async function lakeSlice(
  engine: SqlEngine,
  filter: string,
): Promise<{ runs: string[]; values: Float64Array[] }> {
  const terms = parseRunFilter(filter);
  const where = terms.length
    ? `WHERE ${terms.map((t) => `CAST(${quoteIdent(t.column)} AS VARCHAR) = ?`).join(" AND ")}`
    : "";
  const t = (await engine.query(
    `SELECT run_id, ${SUMMARY_MEASURES.map(([c]) => `${c}::DOUBLE AS ${c}`).join(", ")} FROM lake.run_summary ${where} ORDER BY run_id`,
    terms.map((x) => x.value),
  )) as unknown as Table;
  const runs = (t.getChild("run_id")!.toArray() as unknown[]).map(String);
  const values = SUMMARY_MEASURES.map(([c]) =>
    Float64Array.from(t.getChild(c)!.toArray() as ArrayLike<number>),
  );
  return { runs, values };
}

/** A side of one value per run: each run one block, one unit. */
function summarySide(runs: string[], values: Float64Array): MetricSide {
  const keep = Array.from(values.keys()).filter((i) => Number.isFinite(values[i]!));
  return {
    runs,
    blockRun: Int32Array.from(runs.keys()),
    value: Float64Array.from(keep, (i) => values[i]!),
    weight: new Float64Array(keep.length).fill(1),
    block: Int32Array.from(keep),
  };
}

/** Compares two lake slices by their runs' frame summaries (runs are the units). */
export async function compareLakeSlices(
  engine: SqlEngine,
  lake: string,
  filterA: string,
  filterB: string,
  options: CompareRunsOptions = {},
): Promise<Comparison> {
  await attachLake(engine, lake);
  const a = await lakeSlice(engine, filterA);
  const b = await lakeSlice(engine, filterB);
  if (!a.runs.length) throw new Error(`lake ${lake}: no run matches "${filterA}"`);
  if (!b.runs.length) throw new Error(`lake ${lake}: no run matches "${filterB}"`);
  const metrics: Metric[] = SUMMARY_MEASURES.map(([c, measure, unit, scale], k) => ({
    analysis: "frames",
    key: `frames:run-summary:${c}`,
    subject: "all frames (per-run summaries)",
    measure,
    unit,
    scale,
    statistic: { kind: "mean" },
    better: "lower",
    a: summarySide(a.runs, a.values[k]!),
    b: summarySide(b.runs, b.values[k]!),
  }));
  return {
    sides: { a: a.runs, b: b.runs },
    rows: whatChanged(metrics, options, options.extra),
    metrics,
    windowed: [],
  };
}

/** Both sides loaded (run folders) or read from a lake (slices), compared. */
export async function compareSides(
  specA: SideSpec,
  specB: SideSpec,
  engine: SqlEngine,
  options: CompareRunsOptions = {},
  progress: (line: string) => void = () => {},
): Promise<Comparison & { errors: string[] }> {
  if ("lake" in specA || "lake" in specB) {
    if (!("lake" in specA) || !("lake" in specB) || specA.lake !== specB.lake)
      throw new Error("compare: a lake slice is compared with another slice of the same lake");
    return {
      ...(await compareLakeSlices(engine, specA.lake, specA.filter, specB.filter, options)),
      errors: [],
    };
  }
  const { sides, tables, errors } = await loadRunSides(specA.dirs, specB.dirs, engine, progress);
  return { ...compareRuns(tables, sides, options), errors };
}

// What the command line needs of the cells, through this layer (cli imports no cells: docs/architecture.md).
export { COMPARE_ANALYSES, type CompareAnalysis } from "../../cells/compare/compare-runs";
export { regressions } from "../../cells/compare/what-changed";
