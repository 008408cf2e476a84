// What `jankbook compare` reads of the frames, computed by the engine instead of handing every row to JS: the
// runs' spans (one grouped query per table), the UI-event buckets cut from them as the cells cut them
// (cells/compare/blocks.ts), and the frames' summary (cells/compare/frame-summary.ts): each frame placed in its
// bucket by an ASOF join and the durations sorted, one query for both sides. The bucket sums are made in JS from
// the sorted durations, so a summary from here and one from a frames table agree to the last bit.
import { tableFromArrays, tableToIPC, type Table } from "apache-arrow";
import { float64, int32, readColumns } from "../../bundle/read-columns";
import { comparisonBlocks, type ComparisonBlocks, type RunSpans } from "../../cells/compare/blocks";
import { summariseFrames, type FrameSummary } from "../../cells/compare/frame-summary";
import type { Sides } from "../../cells/compare/sides";
import { quoteIdent, type SqlEngine } from "../db/engine";

/** Each table's time columns, as compareRuns widens the runs' spans with them (start, and end when there is one). */
export const SPAN_COLUMNS: readonly [string, string, string?][] = [
  ["frames", "intended_vsync", "frame_completed"],
  ["tasks", "scheduled", "ended"],
  ["calls", "enter", "exit"],
  ["slices", "ts"],
  ["thread_states", "ts"],
  ["frame_timeline", "ts"],
  ["render_ops", "start"],
];

/** The columns a table has, or undefined when there is no such table. */
export async function columnsOf(engine: SqlEngine, table: string): Promise<Set<string> | undefined> {
  try {
    const head = await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
    return new Set(head.schema.fields.map((f) => f.name));
  } catch {
    return undefined;
  }
}

/** Where each run's data starts and ends (ns), over every table the analyses read. */
export async function sqlSpans(engine: SqlEngine): Promise<RunSpans> {
  const spans: RunSpans = new Map();
  for (const [table, start, end] of SPAN_COLUMNS) {
    const have = await columnsOf(engine, table);
    if (!have?.has("run_id") || !have.has(start)) continue;
    const s = quoteIdent(start);
    const e = end && have.has(end) ? `greatest(${s}, coalesce(${quoteIdent(end)}, ${s}))` : s;
    const t = await engine.query(
      `SELECT run_id::VARCHAR AS run_id, min(${s})::DOUBLE AS lo, max(${e})::DOUBLE AS hi
       FROM ${quoteIdent(table)} WHERE ${s} IS NOT NULL GROUP BY run_id`,
    );
    const lo = t.getChild("lo")!.toArray() as Float64Array;
    const hi = t.getChild("hi")!.toArray() as Float64Array;
    (t.getChild("run_id")!.toArray() as unknown[]).forEach((run, i) => {
      const span = spans.get(String(run));
      if (!span) spans.set(String(run), [lo[i]!, hi[i]!]);
      else {
        if (lo[i]! < span[0]) span[0] = lo[i]!;
        if (hi[i]! > span[1]) span[1] = hi[i]!;
      }
    });
  }
  return spans;
}

/** The sides' UI-event buckets, and the ui_events rows they were cut from. */
export async function sqlBlocks(
  engine: SqlEngine,
  sides: Sides,
): Promise<{ blocks: ComparisonBlocks; uiEvents?: Table }> {
  const spans = await sqlSpans(engine);
  const have = await columnsOf(engine, "ui_events");
  const uiEvents =
    have && ["run_id", "ts", "kind"].every((c) => have.has(c))
      ? await engine.query(
          `SELECT run_id, ts, kind, ${have.has("target") ? "target" : "NULL::VARCHAR AS target"} FROM ui_events`,
        )
      : undefined;
  return { blocks: comparisonBlocks(sides, spans, uiEvents), uiEvents };
}

let uploads = 0;
/** Up to this many runs, each run's frames are placed in its buckets by a join of its own. */
export const PER_RUN_JOINS = 16;

/**
 * The frames' summary of both sides, or undefined when there is no frames table with the columns it needs (the
 * caller then reads the table, and the cells say what is missing).
 */
export async function sqlFrameSummary(
  engine: SqlEngine,
  blocks: ComparisonBlocks,
  perRunJoins = PER_RUN_JOINS,
): Promise<FrameSummary | undefined> {
  const have = await columnsOf(engine, "frames");
  if (!have || !["run_id", "intended_vsync", "duration", "deadline", "jank"].every((c) => have.has(c)))
    return undefined;
  // the buckets' starts per run; of buckets starting together, the last holds the time, and a time before the
  // first bucket is in the first (blockAt's search)
  const run: string[] = [];
  const side: number[] = [];
  const block: number[] = [];
  const first: number[] = [];
  const start: number[] = [];
  for (const [s, b] of [blocks.a, blocks.b].entries())
    for (let k = 0; k < b.blockRun.length; k++) {
      if (k + 1 < b.blockRun.length && b.blockRun[k + 1] === b.blockRun[k] && b.start[k + 1] === b.start[k])
        continue;
      run.push(b.runs[b.blockRun[k]!]!);
      side.push(s);
      block.push(k);
      first.push(b.offset[b.blockRun[k]!]!);
      start.push(b.start[k]!);
    }
  const name = `jb_compare_blocks_${++uploads}`;
  await engine.insertArrowStream(
    name,
    tableToIPC(
      tableFromArrays({
        run_id: run,
        side: Int32Array.from(side),
        block: Int32Array.from(block),
        first: Int32Array.from(first),
        start: Float64Array.from(start),
      }),
      "stream",
    ),
  );
  try {
    const keep = have.has("suspect") ? "AND suspect IS NULL" : "";
    // a frame's side, bucket and two flags in one integer: the engine sorts and hands over two columns, not five
    const placed = (side: string, from: string) =>
      `${side} AS side, f.duration::DOUBLE / 1000000.0::DOUBLE AS ms,
       (((coalesce(b.block, ${from}) * 2 + coalesce(f.jank::INTEGER, 0)) * 2
         + (CASE WHEN f.duration > 2 * f.deadline THEN 1 ELSE 0 END)) * 2 + ${side})::INTEGER AS packed`;
    const runs = [blocks.a, blocks.b].flatMap((b, s) => b.runs.map((r, i) => [s, r, b.offset[i]!] as const));
    // a few runs: each run's frames by a filter and its buckets joined on time alone (matching every frame's run
    // id in the join took twice the time for two 1M-frame runs); many: one join on run and time
    const t =
      runs.length <= perRunJoins
        ? await engine.query(
            `SELECT ms, packed FROM (${runs
              .map(
                ([s]) =>
                  `SELECT ${placed(`${s}::INTEGER`, "?")}
                   FROM (SELECT intended_vsync::DOUBLE AS ts, duration, deadline, jank FROM frames WHERE run_id = ? ${keep}) f
                   ASOF LEFT JOIN (SELECT block, start FROM ${quoteIdent(name)} WHERE run_id = ?) b ON f.ts >= b.start`,
              )
              .join(" UNION ALL ")}) ORDER BY side, ms NULLS LAST`,
            runs.flatMap(([, r, first]) => [first, r, r]),
          )
        : await engine.query(
            `WITH b AS (SELECT run_id, side, block, start FROM ${quoteIdent(name)}),
             r AS (SELECT run_id, any_value(side) AS side, any_value(first) AS first FROM ${quoteIdent(name)} GROUP BY run_id),
             f AS (SELECT f.run_id, r.side, r.first, f.intended_vsync::DOUBLE AS ts, f.duration, f.deadline, f.jank
                   FROM frames f JOIN r ON f.run_id = r.run_id ${have.has("suspect") ? "WHERE f.suspect IS NULL" : ""})
             SELECT ms, packed FROM (SELECT ${placed("f.side::INTEGER", "f.first")}
             FROM f ASOF LEFT JOIN b ON f.run_id = b.run_id AND f.ts >= b.start)
             ORDER BY side, ms NULLS LAST`,
          );
    const c = readColumns(t, "frames", { ms: float64(), packed: int32() });
    const n = c.ms.length;
    const rows = {
      side: new Int32Array(n),
      block: new Int32Array(n),
      ms: c.ms,
      jank: new Int32Array(n),
      missed2: new Int32Array(n),
      ordered: true,
    };
    for (let i = 0; i < n; i++) {
      const p = c.packed[i]!;
      rows.side[i] = p & 1;
      rows.missed2[i] = (p >> 1) & 1;
      rows.jank[i] = (p >> 2) & 1;
      rows.block[i] = p >> 3;
    }
    return summariseFrames(blocks, rows);
  } finally {
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
  }
}
