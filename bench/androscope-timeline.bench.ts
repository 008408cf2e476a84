// The call timeline's level-of-detail query at 1M calls in DuckDB-WASM (Node build), at the workspace's plot
// width (760 px). As the notebook does, the run's summary is built once (callTimelineSummaryQueries: timed
// on its own) and every window query reads it: one query per measurement, the whole trace, 10 % and 1 %
// windows across the trace. For comparison, the whole trace straight from the calls table (no summary).
// Budget: a slider or brush change redrawn in < 100 ms (docs/budgets.md).
import type { Table } from "apache-arrow";
import { makeBundleTable } from "../bundle/table-builder";
import { encodeStream } from "../bundle/encode-stream";
import { callTimelineExtentQuery, callTimelineQuery } from "../cells/androscope/call-timeline";
import {
  callTimelineSummary,
  callTimelineSummaryQueries,
  type CallTimelineSummary,
} from "../cells/androscope/call-timeline-summary";
import { createNodeEngine } from "../workspace/db/node/duckdb-node";
import type { SqlEngine } from "../workspace/db/engine";
import { timeMs, type Benchmark } from "./harness";

const CALLS = Number(process.env.JB_TIMELINE_CALLS ?? 1_000_000);
const THREADS = 8;

/** Nested calls on 8 threads: per thread a random walk of entries and exits, 1-200 µs apart, at most 40 deep. */
export function syntheticCalls(count: number, seed = 7): Table {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const [tid, method, depth, parent] = [
    new Int32Array(count),
    new BigInt64Array(count),
    new Int32Array(count),
    new Array<number | null>(count),
  ];
  const [enter, exit, inc, exc] = [
    new BigInt64Array(count),
    new BigInt64Array(count),
    new BigInt64Array(count),
    new BigInt64Array(count),
  ];
  const childTime = new Float64Array(count);
  const enterNs = new Float64Array(count);
  let made = 0;
  const perThread = Math.ceil(count / THREADS);
  for (let t = 0; t < THREADS && made < count; t++) {
    const stack: number[] = [];
    let now = 0;
    const close = () => {
      const id = stack.pop()!;
      const dur = now - enterNs[id]!;
      exit[id] = BigInt(now);
      inc[id] = BigInt(dur);
      exc[id] = BigInt(dur - childTime[id]!);
      if (stack.length) childTime[stack[stack.length - 1]!] = childTime[stack[stack.length - 1]!]! + dur;
    };
    const limit = Math.min(count, made + perThread);
    while (made < limit) {
      now += 1000 + Math.floor(rand() * 199_000);
      if (stack.length === 0 || (stack.length < 40 && rand() < 0.5)) {
        const id = made++;
        tid[id] = t + 1;
        method[id] = BigInt(1 + Math.floor(rand() * 500));
        depth[id] = stack.length;
        parent[id] = stack.length ? stack[stack.length - 1]! : null;
        enterNs[id] = now;
        enter[id] = BigInt(now);
        stack.push(id);
      } else close();
    }
    while (stack.length) ((now += 1000), close());
  }
  return makeBundleTable("calls", "bench", {
    call_id: Int32Array.from({ length: count }, (_, i) => i),
    thread_id: tid,
    method_id: method,
    depth,
    parent,
    enter,
    exit,
    inclusive: inc,
    exclusive: exc,
    synthetic_exit: new Uint8Array(count),
  });
}

let engine: SqlEngine | null = null;
let extent = { t0: 0, t1: 0, lanes: 0 };
let summary: CallTimelineSummary | null = null;
let k = 0;

async function buildSummary(): Promise<number> {
  return timeMs(async () => {
    let rows: Table | null = null;
    for (const q of callTimelineSummaryQueries({ runId: "bench" }))
      rows = await engine!.query(q.sql, q.params);
    summary = callTimelineSummary(rows!);
  });
}

async function setup() {
  if (engine) return;
  engine = await createNodeEngine();
  await engine.insertArrowStream("calls", encodeStream(syntheticCalls(CALLS)));
  const q = callTimelineExtentQuery({ runId: "bench" });
  const row = (await engine.query(q.sql, q.params)).get(0)!;
  extent = { t0: Number(row.t0), t1: Number(row.t1), lanes: Number(row.lanes) };
  await buildSummary();
}

async function query(window: [number, number], fromSummary = true): Promise<number> {
  const q = fromSummary
    ? callTimelineQuery({ window, widthPx: 760, summary })
    : callTimelineQuery({ window, widthPx: 760, runId: "bench", lanes: extent.lanes });
  let rows = 0;
  const ms = await timeMs(async () => (rows = (await engine!.query(q.sql, q.params)).numRows));
  if (rows === 0) throw new Error("timeline query returned no rows");
  return ms;
}

/** A different window each time, across the trace. */
function slide(share: number): [number, number] {
  const span = extent.t1 - extent.t0;
  const at = extent.t0 + ((k++ * 0.37) % (1 - share)) * span;
  return [at, at + span * share];
}

/** The windows a slider or brush asks the summary for, one benchmark each: the whole trace, then slices across it. */
const WINDOWS: [string, () => [number, number]][] = [
  ["whole trace", () => [extent.t0, extent.t1]],
  ["10 % windows", () => slide(0.1)],
  ["1 % windows", () => slide(0.01)],
];

export const benchmarks: Benchmark[] = [
  {
    name: `androscope/call timeline summary build (once per run), ${CALLS / 1e6}M calls`,
    unit: "ms",
    runs: 3,
    setup,
    measure: buildSummary,
  },
  ...WINDOWS.map(([label, window]): Benchmark => ({
    name: `androscope/call timeline query, ${label}, ${CALLS / 1e6}M calls`,
    unit: "ms",
    budget: 100,
    runs: 15,
    setup,
    measure: () => query(window()),
  })),
  {
    name: `androscope/call timeline query without summary (calls table), whole trace, ${CALLS / 1e6}M calls`,
    unit: "ms",
    runs: 5,
    setup,
    measure: () => query([extent.t0, extent.t1], false),
    async teardown() {
      await engine?.close();
      engine = null;
    },
  },
];
