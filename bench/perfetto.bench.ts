// `npm run bench -- perfetto`: Perfetto import throughput on a generated >= 100 MB Android system trace: per-CPU
// ftrace bundles (compact_sched switches and wakings, atrace B/E/C prints), FrameTimeline packets for the app and
// SurfaceFlinger every 16.67 ms, a process tree and BOOTTIME/MONOTONIC clock snapshots (budgets from
// docs/budgets.md: decoder >= 100 MB/s, whole import with the Arrow tables >= 50 MB/s). The decoder's peer is a
// flat varint walk of the same buffer (ratio: decode MB/s over walk MB/s; 0.05 is 20 times the walk's time).
import { inflateSync } from "node:zlib";
import { importPerfetto } from "../collectors/import/perfetto";
import { decodePerfetto } from "../collectors/sources/perfetto/trace-decoder";
import type { Benchmark } from "./harness";

const TARGET_BYTES = Number(process.env.PERFETTO_BENCH_MB ?? 104) * 1024 * 1024;

class Writer {
  buf: Uint8Array;
  n = 0;
  constructor(size = 256) {
    this.buf = new Uint8Array(size);
  }
  private ensure(k: number) {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  varint(v: number) {
    this.ensure(10);
    while (v >= 128) {
      this.buf[this.n++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.n++] = v;
  }
  tag(field: number, wt: number) {
    this.varint(field * 8 + wt);
  }
  uint(field: number, v: number) {
    this.tag(field, 0);
    this.varint(v);
  }
  bytes(field: number, b: Uint8Array) {
    this.tag(field, 2);
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
  /** A nested message written by `body` into a scratch writer. */
  msg(field: number, body: (w: Writer) => void) {
    const w = new Writer();
    body(w);
    this.bytes(field, w.buf.subarray(0, w.n));
  }
}

const enc = new TextEncoder();
const NAMES = [
  "Choreographer#doFrame",
  "traversal",
  "draw",
  "RV Scroll",
  "Record View#draw()",
  "inflate",
  "bindView",
];
const APP = 4321;
const THREADS = [APP, APP + 20, APP + 21, APP + 22, 1200, 1201, 1500];

/** An Android system trace of about `bytes` bytes (4 CPUs, an app at pid 4321 and SurfaceFlinger), with `sched`
 * switches and as many wakings per CPU per millisecond. */
export function generate(bytes = TARGET_BYTES, sched = 40): Uint8Array {
  const out = new Writer(bytes + (1 << 20));
  let ts = 1_000_000_000_000;
  const packet = (body: (w: Writer) => void) => out.msg(1, body);
  const snapshot = (t: number) =>
    packet((p) =>
      p.msg(6, (s) => {
        s.msg(1, (c) => (c.uint(1, 6), c.uint(2, t)));
        s.msg(1, (c) => (c.uint(1, 3), c.uint(2, t - 3_000_000_000)));
      }),
    );
  snapshot(ts);
  packet((p) =>
    p.msg(2, (tree) => {
      tree.msg(1, (pr) => (pr.uint(1, APP), pr.uint(2, 1), pr.bytes(3, enc.encode("com.example.feed"))));
      tree.msg(
        1,
        (pr) => (pr.uint(1, 1200), pr.uint(2, 1), pr.bytes(3, enc.encode("/system/bin/surfaceflinger"))),
      );
      for (const tid of THREADS) tree.msg(2, (th) => (th.uint(1, tid), th.uint(3, tid >= 1200 ? 1200 : APP)));
    }),
  );
  let frame = 0;
  let cookie = 1;
  let nextFrame = ts;
  while (out.n < bytes) {
    // 4 CPUs, each a bundle of ~1 ms: 25 B/E pairs, a counter, `sched` switches and wakings (compact_sched).
    for (let cpu = 0; cpu < 4; cpu++) {
      packet((p) =>
        p.msg(1, (b) => {
          b.uint(1, cpu);
          let t = ts + cpu * 1000;
          for (let i = 0; i < 25; i++) {
            const tid = THREADS[(i + cpu) % THREADS.length]!;
            const pid = tid >= 1200 ? 1200 : APP;
            const name = `${NAMES[i % NAMES.length]} ${frame}`;
            b.msg(
              2,
              (e) => (
                e.uint(1, t),
                e.uint(2, tid),
                e.msg(3, (pr) => pr.bytes(2, enc.encode(`B|${pid}|${name}`)))
              ),
            );
            t += 7_000;
            b.msg(
              2,
              (e) => (e.uint(1, t), e.uint(2, tid), e.msg(3, (pr) => pr.bytes(2, enc.encode(`E|${pid}`)))),
            );
            t += 30_000;
          }
          b.msg(
            2,
            (e) => (
              e.uint(1, t),
              e.uint(2, APP),
              e.msg(3, (pr) => pr.bytes(2, enc.encode(`C|${APP}|aq:pending|${frame % 7}`)))
            ),
          );
          b.msg(4, (c) => {
            for (const s of THREADS) c.bytes(5, enc.encode(`t${s}`));
            const packed = (field: number, values: number[]) => {
              const w = new Writer();
              for (const v of values) w.varint(v);
              c.bytes(field, w.buf.subarray(0, w.n));
            };
            const n = sched;
            packed(
              1,
              Array.from({ length: n }, (_, i) => (i === 0 ? ts + cpu * 500 : 24_000)),
            );
            packed(
              2,
              Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : i % 7 === 0 ? 2 : 0)),
            );
            packed(
              3,
              Array.from({ length: n }, (_, i) => THREADS[(i * 3 + cpu) % THREADS.length]!),
            );
            packed(
              4,
              Array.from({ length: n }, () => 120),
            );
            packed(
              6,
              Array.from({ length: n }, (_, i) => (i * 3 + cpu) % THREADS.length),
            );
            packed(
              7,
              Array.from({ length: n }, (_, i) => (i === 0 ? ts + cpu * 500 + 9_000 : 24_000)),
            );
            packed(
              8,
              Array.from({ length: n }, (_, i) => THREADS[(i * 5 + cpu) % THREADS.length]!),
            );
            packed(
              9,
              Array.from({ length: n }, () => cpu),
            );
            packed(
              10,
              Array.from({ length: n }, () => 120),
            );
            packed(
              11,
              Array.from({ length: n }, (_, i) => (i * 5 + cpu) % THREADS.length),
            );
          });
        }),
      );
    }
    ts += 1_000_000;
    if (ts >= nextFrame) {
      // One app surface frame and one display frame: expected and actual starts, then their ends.
      const token = 10_000 + frame;
      const late = frame % 9 === 0;
      const start = (kind: number, fields: (w: Writer) => void) =>
        packet((p) => (p.uint(8, ts), p.msg(76, (ev) => ev.msg(kind, fields))));
      const end = (c: number, at: number) =>
        packet((p) => (p.uint(8, at), p.msg(76, (ev) => ev.msg(5, (f) => f.uint(1, c)))));
      const c0 = cookie++;
      const c1 = cookie++;
      const c2 = cookie++;
      start(
        3,
        (f) => (
          f.uint(1, c0),
          f.uint(2, token),
          f.uint(3, token + 1),
          f.uint(4, APP),
          f.bytes(5, enc.encode("com.example.feed/MainActivity#0"))
        ),
      );
      start(4, (f) => {
        for (const [k, v] of [
          [1, c1],
          [2, token],
          [3, token + 1],
          [4, APP],
        ] as const)
          f.uint(k, v);
        f.bytes(5, enc.encode("com.example.feed/MainActivity#0"));
        // present_type 6 (2 late, 1 on time), on_time_finish 7, gpu_composition 8, jank_type 9 (64 app deadline), prediction 10
        for (const [k, v] of [
          [6, late ? 2 : 1],
          [7, late ? 0 : 1],
          [8, 0],
          [9, late ? 64 : 1],
          [10, 1],
        ] as const)
          f.uint(k, v);
      });
      start(
        2,
        (f) => (
          f.uint(1, c2),
          f.uint(2, token + 1),
          f.uint(3, 1200),
          f.uint(4, 1),
          f.uint(5, 1),
          f.uint(7, 1),
          f.uint(8, 1)
        ),
      );
      end(c0, ts + 16_600_000);
      end(c1, ts + (late ? 30_000_000 : 12_000_000));
      end(c2, ts + 16_000_000);
      frame++;
      nextFrame += 16_666_667;
    }
  }
  snapshot(ts);
  return out.buf.slice(0, out.n);
}

const inflate = (b: Uint8Array) => new Uint8Array(inflateSync(b));

/** The byte-scan peer: every byte of the trace read as part of a flat run of varints (no fields, no messages),
 * the least any protobuf decoder does per byte. */
function varintWalk(b: Uint8Array): number {
  let sum = 0;
  let v = 0;
  let mul = 1;
  for (let i = 0; i < b.length; i++) {
    const byte = b[i]!;
    if (byte < 0x80) {
      sum += v + byte * mul;
      v = 0;
      mul = 1;
    } else {
      v += (byte & 0x7f) * mul;
      mul = mul < 2 ** 63 ? mul * 128 : 1;
    }
  }
  return sum;
}
// The machine is shared: beside each wall-clock figure, the process's CPU time (all threads, GC included).
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// Two mixes: "dense" has 40 switches and 40 wakings per CPU-millisecond, ten times what a busy phone schedules,
// so most bytes become thread states (the worst case per byte); "typical" has 6 of each (a few thousand
// switches a second per CPU). Both carry the same atrace prints and FrameTimeline.
function pair(mix: string, sched: number): Benchmark[] {
  let trace: Uint8Array | null = null;
  const setup = () => {
    trace ??= generate(TARGET_BYTES, sched);
    process.stderr.write(`  ${mix} trace ${(trace.length / 1e6).toFixed(1)} MB\n`);
  };
  const rate = (ms: number) => trace!.length / 1e6 / (ms / 1000);
  const timed = (work: () => void) => {
    const t0 = performance.now();
    const c0 = cpuMs();
    work();
    const ms = performance.now() - t0;
    process.stderr.write(
      `  wall ${rate(ms).toFixed(1)} MB/s, cpu-time ${rate(cpuMs() - c0).toFixed(1)} MB/s\n`,
    );
    return rate(ms);
  };
  return [
    {
      name: `perfetto/decode >=100 MB trace, ${mix} sched`,
      unit: "MB/s",
      budget: 100,
      higherIsBetter: true,
      runs: 5,
      setup,
      measure: () =>
        timed(() => {
          const d = decodePerfetto(trace!, { inflate });
          if (!d.complete || !d.rows.sliceColumns?.length)
            throw new Error(`generated trace did not decode: ${d.warnings[0]}`);
        }),
      peer: {
        name: "flat varint walk of the same buffer",
        measure: () =>
          timed(() => {
            if (!(varintWalk(trace!) > 0)) throw new Error("varint walk read nothing");
          }),
      },
    },
    {
      name: `perfetto/import with Arrow tables >=100 MB trace, ${mix} sched`,
      unit: "MB/s",
      budget: 50,
      higherIsBetter: true,
      runs: 5,
      setup,
      measure: () =>
        timed(() => {
          const r = importPerfetto(trace!, "bench.perfetto-trace", "bench", { inflate });
          if (!r.tables.frames || !r.tables.thread_states)
            throw new Error("generated trace imported without frames");
        }),
    },
  ];
}

export const benchmarks: Benchmark[] = [...pair("dense", 40), ...pair("typical", 6)];
