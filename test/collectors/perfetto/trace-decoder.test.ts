// Decoder behaviour on hand-built traces (pb.ts encoder, field numbers from Perfetto's .proto files) and on the
// diff-test fixtures cut, chunked, compressed and corrupted.
import { readFileSync } from "node:fs";
import { deflateSync, inflateSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sliceRows, threadStateRows } from "../../../collectors/sources/perfetto/rows";
import { decodePerfetto, PerfettoDecoder } from "../../../collectors/sources/perfetto/trace-decoder";
import { generate } from "../../../bench/perfetto.bench";
import { trace, walk, type Field } from "./pb";

const inflate = (b: Uint8Array) => new Uint8Array(inflateSync(b));
const fixture = (name: string) =>
  new Uint8Array(readFileSync(`test/fixtures/perfetto/difftest_${name}.pftrace`));
const FIXTURES = [
  "android_jank_cuj",
  "frame_timeline_events",
  "crop_compact_sched",
  "track_event_with_atrace",
];

// TracePacket fields (trace_packet.proto): timestamp 8, trusted_packet_sequence_id 10, interned_data 12,
// sequence_flags 13, ftrace_events 1, process_tree 2, clock_snapshot 6, track_event 11, compressed_packets 50.
const ftrace = (cpu: number, events: Field[][]): Field[] => [
  { f: 1, m: [{ f: 1, v: cpu }, ...events.map((e) => ({ f: 2, m: e }))] },
];
const print = (ts: number, tid: number, buf: string): Field[] => [
  { f: 1, v: ts },
  { f: 2, v: tid },
  { f: 3, m: [{ f: 2, s: buf }] },
];
const sw = (ts: number, prev: number, prevState: number, next: number, nextComm: string): Field[] => [
  { f: 1, v: ts },
  {
    f: 4,
    m: [
      { f: 2, v: prev },
      { f: 4, v: prevState },
      { f: 5, s: nextComm },
      { f: 6, v: next },
    ],
  },
];
const waking = (ts: number, pid: number): Field[] => [
  { f: 1, v: ts },
  { f: 20, m: [{ f: 2, v: pid }] },
];
const snapshot = (boot: number, mono: number): Field[] => [
  {
    f: 6,
    m: [
      {
        f: 1,
        m: [
          { f: 1, v: 6 },
          { f: 2, v: boot },
        ],
      },
      {
        f: 1,
        m: [
          { f: 1, v: 3 },
          { f: 2, v: mono },
        ],
      },
    ],
  },
];

describe("decodePerfetto", () => {
  it("property: any split into chunks decodes like the whole file", () => {
    const whole = new Map(FIXTURES.map((f) => [f, JSON.stringify(decodePerfetto(fixture(f)).rows)]));
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(fc.nat(), { maxLength: 6 }), (name, cuts) => {
        const bytes = fixture(name);
        const points = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        const d = new PerfettoDecoder();
        let prev = 0;
        for (const p of [...points, bytes.length]) {
          d.push(bytes.slice(prev, p));
          prev = p;
        }
        expect(JSON.stringify(d.end().rows)).toBe(whole.get(name));
      }),
      { numRuns: 60 },
    );
  });

  it("property: a trace cut anywhere keeps every whole packet before the cut and names the byte", () => {
    const bytes = fixture("android_jank_cuj");
    // Packet boundaries by the independent walker.
    const ends: number[] = [];
    let p = 0;
    for (const x of walk(bytes)) {
      const lenBytes = encodeLen(x.b!.length);
      p += 1 + lenBytes + x.b!.length;
      ends.push(p);
    }
    expect(p).toBe(bytes.length);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: bytes.length - 1 }), (cut) => {
        const d = decodePerfetto(bytes.subarray(0, cut));
        const whole = ends.filter((e) => e <= cut).length;
        expect(d.packets).toBe(whole);
        const boundary = whole ? ends[whole - 1]! : 0;
        if (boundary === cut) expect(d.complete).toBe(true);
        else {
          expect(d.complete).toBe(false);
          expect(d.failure!.offset).toBe(boundary);
          expect(d.warnings[0]).toMatch(
            new RegExp(`^byte ${boundary}: trace truncated: the packet starting here`),
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it("fuzz: random bytes and corrupted fixtures never throw, never hang", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const d = decodePerfetto(bytes, { inflate });
        expect(typeof d.complete).toBe("boolean");
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...FIXTURES),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (name, flips) => {
          const bytes = fixture(name).slice();
          for (const [i, v] of flips) bytes[i % bytes.length] = v;
          const d = decodePerfetto(bytes, { inflate });
          expect(Array.isArray(sliceRows(d.rows.sliceColumns!))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a corrupt length claiming a terabyte is reported, not allocated", () => {
    // Tag 0x0a then varint 2^40.
    const d = decodePerfetto(Uint8Array.from([0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x08, 0x01]));
    expect(d.complete).toBe(false);
    expect(d.failure!.message).toBe(
      "byte 0: trace truncated: the packet starting here claims 1099511627776 bytes, but the file ends 9 bytes later",
    );
  });

  it("a packet that does not parse is skipped with its offset; the packets after it still count", () => {
    // Packet 2 holds a nested length that runs past the packet (field 1 LEN 9 with 1 byte).
    const bad = Uint8Array.from([0x0a, 0x03, 0x0a, 0x09, 0x00]);
    const t = trace([ftrace(0, [print(10, 7, "B|7|ok\n"), print(20, 7, "E|7\n")])]);
    const d = decodePerfetto(new Uint8Array([...t, ...bad, ...t]));
    expect(d.complete).toBe(false);
    expect(d.warnings[0]).toBe(
      `packet at byte ${t.length + 2} skipped: byte ${t.length + 3}: length 9 runs past the end of its message (1 bytes left)`,
    );
    expect(sliceRows(d.rows.sliceColumns!)).toHaveLength(2);
  });

  it("compressed_packets inflate to the same rows; without inflate, or zstd, they are refused and said", () => {
    const inner = fixture("frame_timeline_events");
    const wrapped = trace([[{ f: 50, b: new Uint8Array(deflateSync(inner)) }]]);
    const plain = decodePerfetto(inner);
    const d = decodePerfetto(wrapped, { inflate });
    expect(d.rows.frameTimeline).toEqual(plain.rows.frameTimeline);
    expect(d.complete).toBe(true);
    const none = decodePerfetto(wrapped);
    expect(none.complete).toBe(false);
    expect(none.warnings).toContain("1 compressed_packets batches not read: no zlib inflate available");
    const zstd = decodePerfetto(trace([[{ f: 133, b: Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd]) }]]));
    expect(zstd.complete).toBe(false);
    expect(zstd.warnings[0]).toMatch(/^1 zstd_compressed_packets batches not read: zstd is not supported/);
  });

  it("unknown packet kinds and ftrace events are skipped and counted", () => {
    const d = decodePerfetto(
      trace([
        [{ f: 999, m: [{ f: 1, v: 1 }] }],
        [{ f: 35, m: [] }],
        [{ f: 35, m: [] }],
        ftrace(0, [
          [
            { f: 1, v: 5 },
            // cpu_frequency_limits (12): not read.
            { f: 12, m: [{ f: 1, v: 3 }] },
          ],
        ]),
      ]),
    );
    expect(d.complete).toBe(true);
    expect(d.warnings).toContain("packet kinds not read, skipped: field 999 1, trace_stats 2");
    const extra = decodePerfetto(new Uint8Array([...trace([[{ f: 35, m: [] }]]), 0x10, 0x01]));
    expect(extra.warnings).toContain("1 top-level fields other than Trace.packet (1) skipped");
    expect(d.warnings).toContain("ftrace events not read, skipped (FtraceEvent field: count): field 12 1");
  });

  it("interned names are per sequence and start over when the sequence is cleared", () => {
    const te = (
      ts: number,
      seq: number,
      nameIid: number,
      type = 3,
      flags = 0,
      interned?: Field[],
    ): Field[] => [
      { f: 8, v: ts },
      { f: 10, v: seq },
      ...(flags ? [{ f: 13, v: flags }] : []),
      ...(interned ? [{ f: 12, m: interned }] : []),
      {
        f: 11,
        m: [
          { f: 9, v: type },
          { f: 10, v: nameIid },
          { f: 3, v: 1 },
          { f: 11, v: 42 },
        ],
      },
    ];
    const names = (pairs: [number, string][]): Field[] =>
      pairs.map(([iid, name]) => ({
        f: 2,
        m: [
          { f: 1, v: iid },
          { f: 2, s: name },
        ],
      }));
    const cats: Field[] = [
      {
        f: 1,
        m: [
          { f: 1, v: 1 },
          { f: 2, s: "gfx" },
        ],
      },
    ];
    const d = decodePerfetto(
      trace([
        te(5, 1, 1, 3, 2), // needs incremental state before any clear: dropped
        te(10, 1, 1, 3, 1 | 2, [...names([[1, "draw"]]), ...cats]),
        te(20, 2, 1, 3, 1 | 2, names([[1, "other sequence"]])),
        te(30, 1, 1, 3, 2),
        te(40, 1, 1, 3, 1 | 2, names([[1, "redefined"]])),
        te(50, 1, 7, 3, 2),
      ]),
    );
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.name, s.category, s.track])).toEqual([
      [10, "draw", "track_event:gfx", "track 42"],
      [20, "other sequence", "track_event", "track 42"],
      [30, "draw", "track_event:gfx", "track 42"],
      [40, "redefined", "track_event", "track 42"],
      [50, "[unnamed]", "track_event", "track 42"],
    ]);
    expect(d.warnings).toContain(
      "1 packets needing incremental state before their sequence was cleared: skipped",
    );
    // iid 7 never defined; category iid 1 undefined after the second clear on sequence 1 (and on sequence 2).
    expect(d.warnings).toContain("4 track_event names or categories referring to interned ids never defined");
  });

  it("BOOTTIME to MONOTONIC through the nearest snapshot when the device suspended", () => {
    // Offset MONOTONIC - BOOTTIME: -1000 at boot 1000, -5001000 at boot 10 s (5 ms asleep in between).
    const d = decodePerfetto(
      trace([
        snapshot(1000, 0),
        ftrace(0, [print(2000, 3, "C|3|x|1\n"), print(6e9, 3, "C|3|x|2\n"), print(9.9e9, 3, "C|3|x|3\n")]),
        snapshot(10e9, 10e9 - 5_001_000),
      ]),
    );
    expect(d.rows.counters.map((c) => c.ts)).toEqual([2000 - 1000, 6e9 - 5_001_000, 9.9e9 - 5_001_000]);
    expect(d.clock).toMatchObject({
      converted: true,
      offsetNs: -1000,
      offsets: [-1000, -5_001_000],
      snapshots: 2,
    });
    expect(d.warnings[0]).toMatch(/offset changed during the trace/);
    // Snapshots 300 ns apart in offset are one offset read twice (clocks are read one after the other).
    const jitter = decodePerfetto(trace([snapshot(1000, 0), snapshot(50_000, 48_700)]));
    expect(jitter.clock.offsets).toEqual([-1000]);
    expect(jitter.warnings).toEqual([]);
  });

  it("thread states from switches and wakings, names and pids from the process tree", () => {
    // cpu 0: 10 switches idle->100; 20 100 sleeps (S) -> 200; 25 100 woken; 30 200 blocks (D) -> 100;
    // 40 200 woken; 50 100 preempted (R) -> 200. cpu 1 prints a slice on 100 between 12 and 18.
    const d = decodePerfetto(
      trace([
        [
          {
            f: 2,
            m: [
              {
                f: 1,
                m: [
                  { f: 1, v: 100 },
                  { f: 2, v: 1 },
                  { f: 3, s: "com.example.app" },
                  { f: 5, v: 10123 },
                ],
              },
              {
                f: 2,
                m: [
                  { f: 1, v: 200 },
                  { f: 3, v: 100 },
                  { f: 2, s: "RenderThread" },
                ],
              },
            ],
          },
        ],
        ftrace(0, [
          sw(10, 0, 0, 100, "example.app"),
          sw(20, 100, 1, 200, "RenderThread"),
          waking(25, 100),
          sw(30, 200, 2, 100, "example.app"),
          waking(40, 200),
          sw(50, 100, 0, 200, "RenderThread"),
        ]),
        ftrace(1, [print(12, 100, "B|100|Choreographer#doFrame 1\n"), print(18, 100, "E|100\n")]),
      ]),
    );
    const states = threadStateRows(d.rows.threadStateColumns!).map(
      (s) => `${s.tid} ${s.state} ${s.ts} ${s.dur ?? "open"} ${s.pid} ${s.thread_name}`,
    );
    expect(states).toEqual([
      "100 running 10 10 100 example.app",
      "100 sleeping 20 5 100 example.app",
      "200 running 20 10 100 RenderThread",
      "100 runnable 25 5 100 example.app",
      "200 uninterruptible 30 10 100 RenderThread",
      "100 running 30 20 100 example.app",
      "200 runnable 40 10 100 RenderThread",
      "100 runnable_preempted 50 open 100 example.app",
      "200 running 50 open 100 RenderThread",
    ]);
    expect(d.rows.processes).toEqual([{ pid: 100, ppid: 1, name: "com.example.app", uid: 10123 }]);
    // process_tree's thread name for the main thread is absent, so the sched comm names it.
    expect(d.rows.threads).toEqual([
      { tid: 100, name: "example.app", pid: 100 },
      { tid: 200, name: "RenderThread", pid: 100 },
    ]);
    expect(
      sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.tid, s.pid, s.thread_name, s.depth]),
    ).toEqual([[12, 6, 100, 100, "example.app", 0]]);
  });

  it("compact_sched and plain events of one bundle are merged in time before CPUs are merged", () => {
    // cpu 0: prints at 10 and 40, compact switch idle -> 9 at 5. cpu 1: a waking of 9 at 7, which must come after
    // the switch-in at 5 (so it changes nothing), not before it.
    const compact: Field = {
      f: 4,
      m: [
        { f: 5, s: "worker" },
        { f: 1, b: Uint8Array.of(5) }, // switch_timestamp (packed)
        { f: 2, b: Uint8Array.of(0) }, // switch_prev_state
        { f: 3, b: Uint8Array.of(9) }, // switch_next_pid
        { f: 6, b: Uint8Array.of(0) }, // switch_next_comm_index
      ],
    };
    const d = decodePerfetto(
      trace([
        [
          {
            f: 1,
            m: [
              { f: 1, v: 0 },
              { f: 2, m: print(10, 9, "B|9|work") },
              { f: 2, m: print(40, 9, "E|9") },
              compact,
            ],
          },
        ],
        ftrace(1, [waking(7, 9)]),
      ]),
    );
    expect(threadStateRows(d.rows.threadStateColumns!).map((s) => [s.tid, s.state, s.ts, s.dur])).toEqual([
      [9, "running", 5, null],
    ]);
    expect(sliceRows(d.rows.sliceColumns!).map((s) => [s.ts, s.dur, s.thread_name])).toEqual([
      [10, 30, "worker"],
    ]);
  });

  it("replaying as the trace is read gives what one replay at the end gives", () => {
    // The bench's 4-CPU system trace, 600 KB: ~26,000 ftrace events, replayed every 1,000 or only at the end.
    const bytes = generate(600_000);
    const once = decodePerfetto(bytes, { replayBatch: Infinity });
    const often = decodePerfetto(bytes, { replayBatch: 1000 });
    expect(often.warnings).toEqual(once.warnings);
    expect(sliceRows(often.rows.sliceColumns!)).toEqual(sliceRows(once.rows.sliceColumns!));
    expect(threadStateRows(often.rows.threadStateColumns!)).toEqual(
      threadStateRows(once.rows.threadStateColumns!),
    );
    expect(once.rows.threadStateColumns!.length).toBeGreaterThan(10_000);
    // Replaying after each bundle, before every CPU has been seen, reads some bundles late and says so.
    const eager = decodePerfetto(bytes, { replayBatch: 1 });
    expect(eager.warnings.some((w) => / ftrace bundles older than events already replayed/.test(w))).toBe(
      true,
    );
  });

  it("ftrace bundles on another clock are shifted by their boot timestamp pair", () => {
    // FtraceEventBundle ftrace_clock 5 = GLOBAL (2), ftrace_timestamp 6 = 500, boot_timestamp 7 = 10500.
    const d = decodePerfetto(
      trace([
        [
          {
            f: 1,
            m: [
              { f: 5, v: 2 },
              { f: 6, v: 500 },
              { f: 7, v: 10500 },
              { f: 2, m: print(600, 1, "C|1|c|4") },
            ],
          },
        ],
      ]),
    );
    expect(d.rows.counters.map((c) => c.ts)).toEqual([10600]);
  });
});

function encodeLen(n: number): number {
  let k = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    k++;
  }
  return k;
}
