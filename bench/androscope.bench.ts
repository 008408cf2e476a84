// AndroScope method traces: reader throughput on a large generated trace (docs/budgets.md: >= 100 MB/s;
// TraceBridge needed about a minute for 300 MB, §V-1), the same for AndroScope's extended records (fixed
// and EBV-8 compact, §IV-6), and buildCalls on the records.
// JB_TRACE_MB sets the generated size (default 300); JB_EXTENDED_TRACE_MB the extended one (default 100).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { buildCalls } from "../collectors/method-trace-calls";
import { readMethodTrace, type MethodTrace } from "../collectors/sources/method-trace";
import { extendedRecordSize } from "../collectors/sources/method-trace-extended";
import { writeMethodTrace, type TraceRecordSpec } from "../collectors/sources/method-trace-writer";
import { timeMs, type Benchmark } from "./harness";

/** A dual-clock v3 trace of about `mb` MB: 8 threads, each a random walk of nested calls over 64 methods.
 * With `extended`, AndroScope records (§IV-6): CPU ids, heap values and two counters, fixed or compact. */
export function syntheticTrace(mb: number, seed = 1, extended?: { compact: boolean }): Uint8Array {
  const count = Math.floor((mb * 1e6) / (extended ? extendedRecordSize(2, true, 2) : 14));
  const threads = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `t${i}` }));
  const methods = Array.from({ length: 64 }, (_, i) => ({
    id: (i + 1) << 2,
    className: `c.C${i % 8}`,
    methodName: `m${i}`,
    signature: "()V",
  }));
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const stacks = threads.map(() => [] as number[]);
  const clock = threads.map(() => 0);
  const cycles = threads.map(() => 0);
  const instructions = threads.map(() => 0);
  let wall = 0;
  let allocated = 1 << 20;
  let objects = 1000;
  const heap: [number, number, number] = [64 << 20, 0, 0];
  const counters = [0, 0];
  const rec: TraceRecordSpec = {
    threadId: 0,
    methodId: 0,
    action: 0,
    threadCpuUs: 0,
    wallUs: 0,
    cpu: 0,
    heap,
    counters,
  };
  return writeMethodTrace({
    dataVersion: 3,
    clock: "dual",
    threads,
    methods,
    ...(extended
      ? { extended: { heap: true, counters: ["cpu-cycles", "instructions"], compact: extended.compact } }
      : {}),
    records: {
      length: count,
      at() {
        const t = Math.floor(rand() * 8);
        const st = stacks[t]!;
        const enter = st.length === 0 || (st.length < 40 && rand() < 0.5);
        rec.threadId = t + 1;
        rec.methodId = enter ? methods[Math.floor(rand() * 64)]!.id : st[st.length - 1]!;
        rec.action = enter ? 0 : 1;
        if (enter) st.push(rec.methodId);
        else st.pop();
        wall += 1 + Math.floor(rand() * 3);
        clock[t] = clock[t]! + 1;
        rec.threadCpuUs = clock[t]! >>> 0;
        rec.wallUs = wall >>> 0;
        if (extended) {
          // Threads mostly stay on one of 4 CPUs; allocation grows until a GC every ~20,000 records.
          rec.cpu = rand() < 0.01 ? Math.floor(rand() * 4) : t % 4;
          allocated = rand() < 5e-5 ? 1 << 20 : allocated + Math.floor(rand() * 256);
          objects = allocated >>> 10;
          heap[1] = allocated >>> 0;
          heap[2] = objects;
          cycles[t] = cycles[t]! + 900 + Math.floor(rand() * 300);
          instructions[t] = instructions[t]! + 600 + Math.floor(rand() * 400);
          counters[0] = cycles[t]!;
          counters[1] = instructions[t]!;
        }
        return rec;
      },
    },
  });
}

const MB = Number(process.env.JB_TRACE_MB ?? 300);
let bytes: Uint8Array | null = null;
let trace: MethodTrace | null = null;
const DMTRACEDUMP = process.env.JB_DMTRACEDUMP ?? "/tmp/dmt/dmtracedump";
const LARGEST_REAL = "test/fixtures/dmtrace/firefox-profiler_art-trace-regular.trace";
let real: Uint8Array | null = null;
const EXT_MB = Number(process.env.JB_EXTENDED_TRACE_MB ?? 100);
let extendedBytes: Uint8Array | null = null;

export const benchmarks: Benchmark[] = [
  {
    name: `androscope/readMethodTrace ${MB} MB generated`,
    unit: "MB/s",
    budget: 100,
    higherIsBetter: true,
    runs: 3,
    setup() {
      bytes ??= syntheticTrace(MB);
    },
    async measure() {
      const ms = await timeMs(() => readMethodTrace(bytes!));
      return bytes!.length / 1e6 / (ms / 1000);
    },
  },
  {
    name: `androscope/buildCalls ${MB} MB generated`,
    unit: "ms",
    runs: 3,
    setup() {
      bytes ??= syntheticTrace(MB);
      trace ??= readMethodTrace(bytes);
    },
    measure: () => timeMs(() => buildCalls(trace!)),
    teardown() {
      trace = null;
      bytes = null;
    },
  },
  ...(["fixed", "compact"] as const).map((encoding): Benchmark => ({
    // AndroScope extended records (§IV-6): CPU id, heap, cycles and instructions; compact = EBV-8 deltas.
    name: `androscope/readMethodTrace extended ${encoding} (${EXT_MB} MB of fixed records' worth)`,
    unit: "MB/s",
    budget: 100,
    higherIsBetter: true,
    runs: 5,
    setup() {
      extendedBytes = syntheticTrace(EXT_MB, 1, { compact: encoding === "compact" });
    },
    async measure() {
      const ms = await timeMs(() => readMethodTrace(extendedBytes!));
      return extendedBytes!.length / 1e6 / (ms / 1000);
    },
    teardown() {
      extendedBytes = null;
    },
  })),
  {
    // Peer: dmtracedump's profile over the same file (process start included; build it from AOSP, see report).
    name: "androscope/readMethodTrace+buildCalls largest real fixture (450 KB)",
    unit: "ms",
    runs: 7,
    setup() {
      real = new Uint8Array(readFileSync(LARGEST_REAL));
    },
    measure: () => timeMs(() => buildCalls(readMethodTrace(real!))),
    ...(existsSync(DMTRACEDUMP)
      ? {
          peer: {
            name: "dmtracedump (AOSP, g++ -O2)",
            runs: 7,
            measure: () => timeMs(() => execFileSync(DMTRACEDUMP, [LARGEST_REAL], { stdio: "ignore" })),
          },
        }
      : {}),
  },
];
