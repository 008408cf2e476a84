// Bundle file size and encode time against rows (docs/scaling.md, "Bundle size"): frames and method_events at
// 1k / 100k / 1M / 10M rows, written by encode-stream's own batches and, in the same run, by apache-arrow's
// writer over plain slices (what the bundle writer did before: each batch carried the rest of every bitmap).
// Writes bench/results/bundle-size.json with bytes per row and the ratio per 10x rows of both.
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AsyncByteQueue, RecordBatchStreamWriter, type RecordBatch, type Table } from "apache-arrow";
import { BATCH_ROWS, ownBatches } from "../bundle/encode-stream";
import { makeBundleTable } from "../bundle/table-builder";
import { framesTable } from "./frames-data";
import type { Benchmark } from "./harness";

const SIZES = (process.env.JB_BENCH_BUNDLE_ROWS ?? "1000,100000,1000000,10000000").split(",").map(Number);
const here = dirname(fileURLToPath(import.meta.url));

/** Counts the stream's bytes and copies each into one reused buffer, as a write out would, keeping none of
 * them (a 10M-row stream need not sit in memory). */
class CountingSink extends AsyncByteQueue {
  bytes = 0;
  private scratch = new Uint8Array(16 << 20);
  override write(value: ArrayBufferView | ArrayBufferLike | ArrayLike<number>) {
    const view = value as Uint8Array;
    for (let at = 0; at < view.byteLength; at += this.scratch.length)
      this.scratch.set(view.subarray(at, at + this.scratch.length));
    this.bytes += view.byteLength;
  }
}

/** The stream's size, and the wall and CPU (user + system) milliseconds its writing took. */
function encodedBytes(batches: Iterable<RecordBatch>): { bytes: number; ms: number; cpuMs: number } {
  const sink = new CountingSink();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink as never);
  for (const batch of batches) writer.write(batch);
  writer.finish();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { bytes: sink.bytes, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function* plainSlices(table: Table): Generator<RecordBatch> {
  for (let start = 0; start < table.numRows; start += BATCH_ROWS)
    yield* table.slice(start, Math.min(table.numRows, start + BATCH_ROWS)).batches;
}

/** Method trace records as a v3 trace gives them: enter/exit pairs on 8 threads, no extended records. */
function methodEventsTable(n: number): Table {
  const thread = new Int32Array(n);
  const method = new BigInt64Array(n);
  const action = new Int8Array(n);
  const wall = new BigInt64Array(n);
  const cpu = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    thread[i] = 1 + (i % 8);
    method[i] = BigInt((i >> 4) % 5000);
    action[i] = (i >> 3) & 1;
    wall[i] = BigInt(i * 1000);
    cpu[i] = BigInt(i * 700);
  }
  return makeBundleTable(
    "method_events",
    "bench-method-events",
    {
      thread_id: thread,
      method_id: method,
      action: { dictionary: ["enter", "exit", "unwind"], indices: action },
      wall,
      thread_cpu: cpu,
    },
    n,
    { adopt: true },
  );
}

interface Point {
  rows: number;
  bytes: number;
  bytesPerRow: number;
  encodeMs: number;
  encodeCpuMs: number;
  beforeBytes: number;
  beforeBytesPerRow: number;
  beforeEncodeMs: number;
  beforeEncodeCpuMs: number;
}

const sweeps: Record<string, Point[]> = {};

function sweep(name: string, make: (n: number) => Table): Point[] {
  const points: Point[] = [];
  for (const rows of SIZES) {
    const table = make(rows);
    // Best of 3 (the first encodes warm the JIT up), taking turns.
    let after = encodedBytes(ownBatches(table));
    let before = encodedBytes(plainSlices(table));
    for (let r = 1; r < 3; r++) {
      const a = encodedBytes(ownBatches(table));
      const b = encodedBytes(plainSlices(table));
      if (a.ms < after.ms) after = a;
      if (b.ms < before.ms) before = b;
    }
    const p = {
      rows,
      bytes: after.bytes,
      bytesPerRow: after.bytes / rows,
      encodeMs: after.ms,
      encodeCpuMs: after.cpuMs,
      beforeBytes: before.bytes,
      beforeBytesPerRow: before.bytes / rows,
      beforeEncodeMs: before.ms,
      beforeEncodeCpuMs: before.cpuMs,
    };
    process.stderr.write(`  ${name} ${rows}: ${JSON.stringify(p)}\n`);
    points.push(p);
  }
  return points;
}

/** How much each quantity grows per 10x rows between one size and the next (linear: 10). */
function ratios(points: Point[], key: keyof Point) {
  return points.slice(1).map((p, i) => {
    const prev = points[i]!;
    const decades = Math.log10(p.rows / prev.rows);
    return { rows: p.rows, ratio: (Number(p[key]) / Number(prev[key])) ** (1 / decades) };
  });
}

function writeResults() {
  const out = join(here, "results", "bundle-size.json");
  mkdirSync(dirname(out), { recursive: true });
  const tables = Object.fromEntries(
    Object.entries(sweeps).map(([name, points]) => [
      name,
      {
        points,
        sizeRatioPer10x: ratios(points, "bytes"),
        timeRatioPer10x: ratios(points, "encodeMs"),
        cpuRatioPer10x: ratios(points, "encodeCpuMs"),
        beforeSizeRatioPer10x: ratios(points, "beforeBytes"),
        beforeTimeRatioPer10x: ratios(points, "beforeEncodeMs"),
        beforeCpuRatioPer10x: ratios(points, "beforeEncodeCpuMs"),
      },
    ]),
  );
  const load = execSync("uptime").toString().trim();
  writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), node: process.version, load, tables }, null, 2) + "\n",
  );
  process.stderr.write(`  wrote ${out}\n`);
}

const largest = SIZES[SIZES.length - 1]!;

function sizeBenchmark(name: string, make: (n: number) => Table): Benchmark {
  return {
    name: `bundle-size/${name} bytes per row at ${largest.toLocaleString("en")} rows`,
    unit: "bytes/row",
    runs: 1,
    setup() {
      sweeps[name] = sweep(name, make);
      writeResults();
    },
    measure: () => sweeps[name]!.at(-1)!.bytesPerRow,
    peer: { name: "plain slices (before)", runs: 1, measure: () => sweeps[name]!.at(-1)!.beforeBytesPerRow },
  };
}

export const benchmarks: Benchmark[] = [
  sizeBenchmark("frames", (n) => framesTable("bench-frames", n)),
  sizeBenchmark("method_events", methodEventsTable),
];
