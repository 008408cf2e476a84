// `npm run bench -- method-trace`: the method-trace reader against a byte scan of the same buffer, and the
// import's CPU and peak RSS against the trace's size and against AOSP dmtracedump's profile of the same file
// (docs/scaling.md "Method traces"). Also a generated trace past 2 GiB read in chunks (Node's readFile refuses
// it). Writes bench/results/method-trace.json with the machine's load before and after.
// JB_TRACE_MB: size of the generated traces (default 100); JB_BIG_TRACE_GB: the big one (default 2.2, 0 skips);
// JB_DMTRACEDUMP: the dmtracedump binary (default /tmp/dmt/dmtracedump: g++ -O2 tools/dmtracedump/tracedump.cc
// of AOSP art, the last version before "Deprecate dmtracedump"), skipped when absent.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { readMethodTrace } from "../collectors/sources/method-trace";
import { fileSource, readMethodTraceChunks } from "../collectors/sources/method-trace-file";
import { syntheticTrace } from "./androscope.bench";
import { median, type Benchmark } from "./harness";

const here = dirname(fileURLToPath(import.meta.url));
const MB = Number(process.env.JB_TRACE_MB ?? 100);
const BIG_GB = Number(process.env.JB_BIG_TRACE_GB ?? 2.2);
const DMTRACEDUMP = process.env.JB_DMTRACEDUMP ?? "/tmp/dmt/dmtracedump";
const DIR = join(tmpdir(), "jb-method-trace-bench");
const RUNS = 5;

/** A byte scan: every byte read once and summed (the least a reader of every byte does). */
function scan(bytes: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < bytes.length; i++) s = (s + bytes[i]!) | 0;
  return s;
}

const seconds = (f: () => unknown) => {
  const t0 = performance.now();
  f();
  return (performance.now() - t0) / 1000;
};

interface Throughput {
  layout: string;
  bytes: number;
  scanMBs: number;
  wholeMBs: number;
  chunkedMBs: number;
  /** reader time over scan time, median of the alternating runs */
  wholeOverScan: number;
  chunkedOverScan: number;
}

/** Reader and scan alternating on the same buffer (and file, for the chunked reader), RUNS times. */
function throughput(layout: string, bytes: Uint8Array): Throughput {
  const path = join(DIR, `${layout}.trace`);
  writeFileSync(path, bytes);
  const mb = bytes.length / 1e6;
  const s: number[] = [];
  const w: number[] = [];
  const c: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    s.push(seconds(() => scan(bytes)));
    w.push(seconds(() => readMethodTrace(bytes)));
    c.push(
      seconds(() => {
        const src = fileSource(path);
        readMethodTraceChunks(src, { onBatch() {} });
        src.close();
      }),
    );
  }
  rmSync(path);
  return {
    layout,
    bytes: bytes.length,
    scanMBs: mb / median(s),
    wholeMBs: mb / median(w),
    chunkedMBs: mb / median(c),
    wholeOverScan: median(w.map((x, i) => x / s[i]!)),
    chunkedOverScan: median(c.map((x, i) => x / s[i]!)),
  };
}

interface ProcessCost {
  name: string;
  wallS: number;
  cpuS: number;
  maxRssMiB: number;
  /** peak RSS over the trace's size */
  rssOverTrace: number;
}

/** A command's wall time, user + system CPU and peak RSS, by GNU time (the same for node and dmtracedump). */
function measured(name: string, traceBytes: number, cmd: string, args: string[]): ProcessCost {
  const r = spawnSync("/usr/bin/time", ["-f", "TIME %e %U %S %M", cmd, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return parseTime(name, traceBytes, r.stderr);
}

function parseTime(name: string, traceBytes: number, stderr: string): ProcessCost {
  const line = stderr.split("\n").find((l) => l.startsWith("TIME "));
  if (!line) throw new Error(`${name}: no GNU time line in ${stderr.slice(-400)}`);
  const [wall, user, sys, kib] = line.slice(5).split(" ").map(Number) as [number, number, number, number];
  const maxRssMiB = kib / 1024;
  return { name, wallS: wall, cpuS: user + sys, maxRssMiB, rssOverTrace: (maxRssMiB * 2 ** 20) / traceBytes };
}

/** The child bundled by esbuild (no TypeScript loader in the measured process). */
async function bundleChild(): Promise<string> {
  const outfile = join(DIR, "method-trace-child.mjs");
  await build({
    entryPoints: [join(here, "method-trace-child.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
  });
  return outfile;
}

/** The median run of `runs` (by CPU), alternating when given several commands. */
function medianCost(costs: ProcessCost[]): ProcessCost {
  const byCpu = [...costs].sort((a, b) => a.cpuS - b.cpuS);
  return byCpu[Math.floor(byCpu.length / 2)]!;
}

/** A dual-clock v3 trace of `bytes` on `threads` threads written straight to disk in 8 MiB pieces (too big for
 * one buffer). */
function writeBigTrace(path: string, bytes: number, threads = 8) {
  const methods = 64;
  let key = "*version\n3\ndata-file-overflow=false\nclock=dual\nvm=art\n*threads\n";
  for (let t = 1; t <= threads; t++) key += `${t}\tt${t}\n`;
  key += "*methods\n";
  for (let m = 1; m <= methods; m++) key += `0x${(m << 2).toString(16)}\tc.C${m % 8}\tm${m}\t()V\n`;
  key += "*end\n";
  const head = new Uint8Array(32);
  const v = new DataView(head.buffer);
  v.setUint32(0, 0x574f4c53, true); // "SLOW"
  v.setUint16(4, 3, true);
  v.setUint16(6, 32, true);
  v.setUint16(16, 14, true);
  const fd = openSync(path, "w");
  writeSync(fd, new TextEncoder().encode(key));
  writeSync(fd, head);
  let s = 7;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const stacks = Array.from({ length: threads }, () => [] as number[]);
  const cpu = new Array<number>(threads).fill(0);
  let wall = 0;
  const piece = new Uint8Array(14 * 600_000);
  const pv = new DataView(piece.buffer);
  for (let left = Math.floor(bytes / 14); left > 0;) {
    const n = Math.min(left, 600_000);
    for (let i = 0; i < n; i++) {
      const t = Math.floor(rand() * threads);
      const st = stacks[t]!;
      const enter = st.length === 0 || (st.length < 40 && rand() < 0.5);
      const id = enter ? (1 + Math.floor(rand() * methods)) << 2 : st.pop()!;
      if (enter) st.push(id);
      wall += 1 + Math.floor(rand() * 3);
      cpu[t] = cpu[t]! + 1;
      const q = 14 * i;
      pv.setUint16(q, t + 1, true);
      pv.setUint32(q + 2, (id | (enter ? 0 : 1)) >>> 0, true);
      pv.setUint32(q + 6, cpu[t]! >>> 0, true);
      pv.setUint32(q + 10, wall >>> 0, true);
    }
    writeSync(fd, piece, 0, 14 * n);
    left -= n;
  }
  closeSync(fd);
}

interface Results {
  date: string;
  node: string;
  load: { before: number[]; after: number[] };
  reader: Throughput[];
  import: { traceBytes: number; dmtracedump: ProcessCost | null; runs: ProcessCost[]; median: ProcessCost[] };
  big: { traceBytes: number; runs: (ProcessCost & { mbPerS: number })[] } | null;
}

let results: Results | null = null;

async function run(): Promise<Results> {
  mkdirSync(DIR, { recursive: true });
  const loadBefore = loadavg();
  const child = await bundleChild();
  const v3 = syntheticTrace(MB);
  const reader = [throughput("v3 dual", v3)];
  reader.push(throughput("extended compact", syntheticTrace(MB, 1, { compact: true })));
  // The import: our streamed import, the whole-buffer one, and dmtracedump, alternating, 3 runs each.
  const trace = join(DIR, "v3.trace");
  writeFileSync(trace, v3);
  const runs: ProcessCost[] = [];
  const node = (mode: string) => {
    const out = join(DIR, `out-${mode}`);
    rmSync(out, { recursive: true, force: true });
    const r = measured(`jankbook ${mode}`, v3.length, process.execPath, [child, mode, trace, out]);
    rmSync(out, { recursive: true, force: true });
    return r;
  };
  const peer = existsSync(DMTRACEDUMP);
  for (let r = 0; r < 3; r++) {
    runs.push(node("stream"), node("whole"), node("baseline"));
    if (peer) runs.push(measured("dmtracedump", v3.length, DMTRACEDUMP, [trace]));
  }
  rmSync(trace);
  // The same size on one thread: the calls' order and sums are worked out a thread at a time, so this is the
  // import's most memory for a trace of this size.
  const one = join(DIR, "one-thread.trace");
  writeBigTrace(one, v3.length, 1);
  for (let r = 0; r < 3; r++) {
    const out = join(DIR, "out-one");
    runs.push(
      measured("jankbook stream, one thread", v3.length, process.execPath, [child, "stream", one, out]),
    );
    rmSync(out, { recursive: true, force: true });
    if (peer) runs.push(measured("dmtracedump, one thread", v3.length, DMTRACEDUMP, [one]));
  }
  rmSync(one);
  const names = [...new Set(runs.map((r) => r.name))];
  const med = names.map((n) => medianCost(runs.filter((r) => r.name === n)));
  let big: Results["big"] = null;
  if (BIG_GB > 0) {
    const path = join(DIR, "big.trace");
    writeBigTrace(path, BIG_GB * 2 ** 30);
    const size = Number(execFileSync("stat", ["-c", "%s", path], { encoding: "utf8" }));
    const bigRuns = ["reader", "events"].map((mode) => {
      const c = measured(`jankbook ${mode}`, size, process.execPath, [child, mode, path, "/dev/null"]);
      return { ...c, mbPerS: size / 1e6 / c.wallS };
    });
    rmSync(path);
    big = { traceBytes: size, runs: bigRuns };
  }
  return {
    date: new Date().toISOString(),
    node: process.version,
    load: { before: loadBefore, after: loadavg() },
    reader,
    import: {
      traceBytes: v3.length,
      dmtracedump: peer ? med.find((m) => m.name === "dmtracedump")! : null,
      runs,
      median: med,
    },
    big,
  };
}

const ensure = async () => {
  if (!results) {
    results = await run();
    writeFileSync(join(here, "results", "method-trace.json"), JSON.stringify(results, null, 2) + "\n");
  }
  return results;
};

export const benchmarks: Benchmark[] = [
  {
    name: `method-trace/readMethodTraceChunks ${MB} MB v3, time over a byte scan's`,
    unit: "x",
    budget: 3,
    runs: 1,
    measure: async () => (await ensure()).reader[0]!.chunkedOverScan,
  },
  {
    name: `method-trace/import ${MB} MB v3 peak RSS, MiB`,
    unit: "MiB",
    runs: 1,
    measure: async () => (await ensure()).import.median.find((m) => m.name === "jankbook stream")!.maxRssMiB,
  },
];
