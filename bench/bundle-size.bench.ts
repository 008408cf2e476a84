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

/** One buffer for every sink, made on first use (bench/run.ts imports every bench): a fresh 16 MiB per encode would
 * time the kernel's zeroing of its pages. */
let scratch: Uint8Array | undefined;

/** Counts the stream's bytes and copies each into one reused buffer, as a write out would, keeping none of
 * them (a 10M-row stream need not sit in memory). */
class CountingSink extends AsyncByteQueue {
  bytes = 0;
  override write(value: ArrayBufferView | ArrayBufferLike | ArrayLike<number>) {
    const view = value as Uint8Array;
    const into = (scratch ??= new Uint8Array(16 << 20));
    for (let at = 0; at < view.byteLength; at += into.length) into.set(view.subarray(at, at + into.length));
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

/** Twice this machine's last-level cache (32 MiB), written over before every timed encode; made on first use. */
let evictor: Uint8Array | undefined;

/** Pushes the table out of the CPU's caches, so that every size is encoded from memory: a table built while
 * reading a trace of many MB is not in the cache either, and without this a 100k-row table (6 MB) is read from
 * the last-level cache and a 1M-row one from memory, and the curve measures the cache, not the encoder. */
function evictCaches() {
  const bytes = (evictor ??= new Uint8Array(64 << 20));
  for (let i = 0; i < bytes.length; i += 64) bytes[i] = (bytes[i]! + 1) & 0xff;
}

/** Rounds per size: the small encodes take milliseconds, so one noisy round would decide their ratio. */
const roundsFor = (rows: number) => (rows <= 1_000_000 ? 9 : 3);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function sweep(name: string, make: (n: number) => Table): Point[] {
  const points: Point[] = [];
  // The JIT warmed up on a small table first, so the first size does not pay for the compiling.
  const warm = make(SIZES[0]!);
  for (let r = 0; r < 20; r++) (encodedBytes(ownBatches(warm)), encodedBytes(plainSlices(warm)));
  for (const rows of SIZES) {
    const table = make(rows);
    // Medians of the rounds, the two writers taking turns after one untimed round each.
    encodedBytes(ownBatches(table));
    encodedBytes(plainSlices(table));
    const after: ReturnType<typeof encodedBytes>[] = [];
    const before: ReturnType<typeof encodedBytes>[] = [];
    for (let r = 0; r < roundsFor(rows); r++) {
      evictCaches();
      after.push(encodedBytes(ownBatches(table)));
      evictCaches();
      before.push(encodedBytes(plainSlices(table)));
    }
    const p = {
      rows,
      bytes: after[0]!.bytes,
      bytesPerRow: after[0]!.bytes / rows,
      encodeMs: median(after.map((a) => a.ms)),
      encodeCpuMs: median(after.map((a) => a.cpuMs)),
      beforeBytes: before[0]!.bytes,
      beforeBytesPerRow: before[0]!.bytes / rows,
      beforeEncodeMs: median(before.map((b) => b.ms)),
      beforeEncodeCpuMs: median(before.map((b) => b.cpuMs)),
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
