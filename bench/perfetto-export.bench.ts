// `npm run bench -- perfetto-export`: the Perfetto exporter's speed on a synthetic run (1.8M nested thread slices
// on 8 threads plus counters, ~100 MB of TrackEvents), and our Perfetto importer read back over that trace: a
// track_event-heavy input, where perfetto.bench.ts measures an ftrace-heavy one (docs/budgets.md:
// decoder >= 100 MB/s, whole import >= 50 MB/s).
import { inflateSync } from "node:zlib";
import type { Table } from "apache-arrow";
import type { TableName } from "../bundle/schema";
import { makeBundleTable } from "../bundle/table-builder";
import { bundleToPerfetto } from "../export/bundle-to-perfetto";
import { importPerfetto } from "../collectors/import/perfetto";
import { decodePerfetto } from "../collectors/sources/perfetto/trace-decoder";
import { timeMs, type Benchmark } from "./harness";

const SLICES = 1_800_000;
let tables: Partial<Record<TableName, Table>> | null = null;
let trace: Uint8Array | null = null;

// Per thread, frames of 8 ms holding a doFrame slice with three nested children, back to back.
function synthetic(): Partial<Record<TableName, Table>> {
  const n = SLICES;
  const ts = new BigInt64Array(n);
  const dur = new BigInt64Array(n);
  const tid = new Int32Array(n);
  const depth = new Int32Array(n);
  const names = ["Choreographer#doFrame", "traversal", "measure", "draw"];
  const name = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const thread = i % 8;
    const k = Math.floor(i / 8);
    const frame = Math.floor(k / 4);
    const part = k % 4;
    const start = 1_000_000_000_000 + frame * 8_000_000 + (part === 0 ? 0 : part * 1_500_000);
    ts[i] = BigInt(start);
    dur[i] = BigInt(part === 0 ? 7_000_000 : 1_000_000);
    tid[i] = 4000 + thread;
    depth[i] = part === 0 ? 0 : 1;
    name[i] = names[part]!;
  }
  const slices = makeBundleTable(
    "slices",
    "bench",
    {
      ts,
      dur,
      pid: new Array(n).fill(4000),
      tid,
      thread_name: Array.from({ length: n }, (_, i) => `worker-${i % 8}`),
      name,
      depth,
      category: new Array(n).fill("atrace"),
    },
    n,
  );
  const c = 200_000;
  const counters = makeBundleTable("counter_samples", "bench", {
    ts: BigInt64Array.from({ length: c }, (_, i) => BigInt(1_000_000_000_000 + i * 1_000_000)),
    pid: new Array(c).fill(4000),
    name: Array.from({ length: c }, (_, i) => `queue ${i % 4}`),
    value: Float64Array.from({ length: c }, (_, i) => i % 17),
  });
  return { slices, counter_samples: counters };
}

const mbPerS = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const inflate = (b: Uint8Array) => new Uint8Array(inflateSync(b));
// The machine is shared: beside each wall-clock figure, the process's CPU time (all threads, GC included).
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function timed(bytes: number, work: () => void): number {
  const t0 = performance.now();
  const c0 = cpuMs();
  work();
  const ms = performance.now() - t0;
  process.stderr.write(
    `  wall ${mbPerS(bytes, ms).toFixed(1)} MB/s, cpu-time ${mbPerS(bytes, cpuMs() - c0).toFixed(1)} MB/s\n`,
  );
  return mbPerS(bytes, ms);
}

/** A benchmark that reads the exported trace (made once, shared): MB/s of the export read by `read`. */
function readingTheExport(name: string, budget: number, read: (trace: Uint8Array) => void): Benchmark {
  return {
    name,
    unit: "MB/s",
    budget,
    higherIsBetter: true,
    runs: 5,
    setup() {
      tables ??= synthetic();
      trace ??= bundleToPerfetto(tables).trace;
    },
    measure: () => timed(trace!.length, () => read(trace!)),
  };
}

export const benchmarks: Benchmark[] = [
  {
    name: "perfetto-export/export 1.8M slices + 200k counters",
    unit: "MB/s",
    higherIsBetter: true,
    runs: 3,
    setup() {
      tables ??= synthetic();
    },
    async measure() {
      let bytes = 0;
      const ms = await timeMs(() => {
        trace = bundleToPerfetto(tables!).trace;
        bytes = trace.length;
      });
      process.stderr.write(`  trace ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms\n`);
      return mbPerS(bytes, ms);
    },
  },
  readingTheExport("perfetto-export/decode the exported trace", 100, (t) => {
    const d = decodePerfetto(t, { inflate });
    if (!d.complete || d.rows.sliceColumns?.length !== SLICES)
      throw new Error(`exported trace did not decode to ${SLICES} slices: ${d.warnings[0]}`);
  }),
  {
    ...readingTheExport("perfetto-export/import the exported trace (with Arrow tables)", 50, (t) => {
      const r = importPerfetto(t, "bench.perfetto-trace", "bench", { inflate });
      if (r.tables.slices?.numRows !== SLICES) throw new Error("exported trace imported without its slices");
    }),
    teardown() {
      tables = null;
      trace = null;
    },
  },
];
