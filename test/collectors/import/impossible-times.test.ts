// Impossible values flagged where they enter: a corrupt Perfetto packet timestamp (0x4000000000000000 ns, 146
// years) and framestats columns no frame can have (int64-max IssueDrawCommandsStart, negative DequeueBufferDuration).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importPerfetto } from "../../../collectors/import/perfetto";
import { parseFramestats } from "../../../collectors/sources/framestats";
import { trace, type Field } from "../perfetto/pb";

const CORRUPT = 0x4000000000000000n; // one flipped bit: 4,611,686,018 s = 146 years
const PID = 4242;
const MS = 1_000_000;
const T0 = 5_000_000_000_000; // 5,000 s of uptime

/** FrameTimelineEvent (TracePacket 76) surface frames: expected (3) and actual (4) starts, FrameEnd (5). */
const surface = (kind: 3 | 4, ts: bigint | number, cookie: number, token: number): Field[] => [
  { f: 8, v: ts },
  {
    f: 76,
    m: [
      {
        f: kind,
        m: [
          { f: 1, v: cookie },
          { f: 2, v: token },
          ...(kind === 4 ? [{ f: 3, v: token + 100 }] : []),
          { f: 4, v: PID },
          { f: 5, s: "com.example.app/MainActivity#0" },
          ...(kind === 4 ? [{ f: 6, v: 1 }] : []),
        ],
      },
    ],
  },
];
const end = (ts: bigint | number, cookie: number): Field[] => [
  { f: 8, v: ts },
  { f: 76, m: [{ f: 5, m: [{ f: 1, v: cookie }] }] },
];

/** Three 16.67 ms frames; the actual start of the second has `actualStart` as its packet timestamp. */
function frames(actualStart: bigint | number): Uint8Array {
  const packets: Field[][] = [];
  for (let i = 0; i < 3; i++) {
    const t = T0 + i * 16.67 * MS;
    packets.push(surface(3, Math.round(t), 10 * i + 1, i + 1));
    packets.push(surface(4, i === 1 ? actualStart : Math.round(t + MS), 10 * i + 2, i + 1));
    packets.push(end(Math.round(t + 12 * MS), 10 * i + 1), end(Math.round(t + 14 * MS), 10 * i + 2));
  }
  return trace(packets);
}

describe("a corrupt Perfetto packet timestamp", () => {
  it("makes the frame it lands on suspect and warns, naming the 146 years; the other frames are untouched", () => {
    const r = importPerfetto(frames(CORRUPT), "bad.pftrace", "r");
    const f = r.tables.frames!;
    expect(f.numRows).toBe(3);
    // frames come in actual-start order: the corrupt one (token 2) is last
    expect([...f.getChild("frame_timeline_vsync_id")!].map(Number)).toEqual([1, 3, 2]);
    const suspect = [...f.getChild("suspect")!];
    expect(suspect[0]).toBeNull();
    expect(suspect[1]).toBeNull();
    expect(suspect[2]).toMatch(
      /^impossible time: vsync 4611686018427387904 ns is 146 years from the trace's median time$/,
    );
    expect(r.warnings).toContain(
      "bad.pftrace: frames: 1 row with an impossible time (first frame 2: vsync 4611686018427387904 ns is 146 years from the trace's median time; a corrupt packet timestamp?): marked suspect, left out of analyses",
    );
    expect(
      r.warnings.some((w) =>
        /^bad\.pftrace: frame_timeline: 1 row with an impossible time \(first row \d+: ts 4611686018427387904 ns, 146 years/.test(
          w,
        ),
      ),
    ).toBe(true);
  });

  it("a FrameEnd at 146 years: the frame is suspect for its duration and the timeline row's dur is named", () => {
    const packets: Field[][] = [
      surface(3, T0, 1, 1),
      surface(4, T0 + MS, 2, 1),
      end(T0 + 12 * MS, 1),
      end(CORRUPT, 2),
      surface(3, T0 + 17 * MS, 3, 2),
      surface(4, T0 + 18 * MS, 4, 2),
      end(T0 + 29 * MS, 3),
      end(T0 + 31 * MS, 4),
    ];
    const r = importPerfetto(trace(packets), "end.pftrace", "r");
    const suspect = [...r.tables.frames!.getChild("suspect")!];
    expect(suspect[0]).toMatch(/impossible time: frame_completed 4611686018427387904 ns is 146 years/);
    expect(suspect[1]).toBeNull();
    expect(
      r.warnings.some((w) => w.startsWith("end.pftrace: frame_timeline: 1 row with an impossible time")),
    ).toBe(true);
  });

  it("a clean trace gets no such warning and no suspect frame (every Perfetto fixture)", () => {
    const r = importPerfetto(frames(Math.round(T0 + 16.67 * MS + MS)), "ok.pftrace", "r");
    expect([...r.tables.frames!.getChild("suspect")!]).toEqual([null, null, null]);
    for (const name of [
      "difftest_android_jank_cuj.pftrace",
      "difftest_frame_timeline_events.pftrace",
      "difftest_monotonic_trace_clock.pftrace",
    ]) {
      const t = importPerfetto(new Uint8Array(readFileSync(`test/fixtures/perfetto/${name}`)), name, "r");
      expect(
        t.warnings.filter((w) => w.includes("impossible")),
        name,
      ).toEqual([]);
    }
  });
});

const HEADER =
  "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,GpuCompleted,SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,";

/** One Android 14 frame row starting at `iv`, with `patch` replacing named columns. */
function row(iv: bigint, patch: Record<string, bigint> = {}): string {
  const cols = HEADER.split(",").filter(Boolean);
  const v: Record<string, bigint> = {
    Flags: 0n,
    FrameTimelineVsyncId: 1n,
    IntendedVsync: iv,
    Vsync: iv,
    InputEventId: 0n,
    HandleInputStart: iv + 500_000n,
    AnimationStart: iv + 600_000n,
    PerformTraversalsStart: iv + 700_000n,
    DrawStart: iv + 1_000_000n,
    FrameDeadline: iv + 16_666_667n,
    FrameInterval: 16_666_667n,
    FrameStartTime: iv + 400_000n,
    SyncQueued: iv + 3_000_000n,
    SyncStart: iv + 3_100_000n,
    IssueDrawCommandsStart: iv + 3_200_000n,
    SwapBuffers: iv + 5_000_000n,
    FrameCompleted: iv + 9_000_000n,
    DequeueBufferDuration: 40_000n,
    QueueBufferDuration: 300_000n,
    GpuCompleted: iv + 9_000_000n,
    SwapBuffersCompleted: iv + 5_500_000n,
    DisplayPresentTime: iv + 25_000_000n,
    CommandSubmissionCompleted: iv + 5_000_000n,
    ...patch,
  };
  // FrameInfo.h writes FrameStartTime's value before FrameInterval's (frame-checks.ts fixIntervalOrder)
  return (
    cols
      .map((c) =>
        String(v[c === "FrameInterval" ? "FrameStartTime" : c === "FrameStartTime" ? "FrameInterval" : c]),
      )
      .join(",") + ","
  );
}

describe("framestats columns no frame can have", () => {
  it("int64-max IssueDrawCommandsStart and negative DequeueBufferDuration mark their rows suspect; the plain row is kept as is", () => {
    const iv = 25_810_000_000_000n;
    const text = [
      "Applications Graphics Acceleration Info:",
      "** Graphics info for pid 1 [com.example.feed] **",
      "Window: com.example.feed/com.example.feed.MainActivity",
      "---PROFILEDATA---",
      HEADER,
      row(iv),
      row(iv + 16_666_667n, { IssueDrawCommandsStart: 9223372036854775807n }),
      row(iv + 33_333_334n, { DequeueBufferDuration: -40_000n }),
      "---PROFILEDATA---",
      "Total ViewRootImpl: 1",
    ].join("\n");
    const r = parseFramestats(text, "fs.txt");
    const rows = r.sections.flatMap((s) => s.frames);
    expect(rows.map((f) => f.suspect ?? null)).toEqual([
      null,
      "impossible value: issue_draw_commands_start 9223372036854775807 is 9.223e+9 s from IntendedVsync",
      "impossible value: dequeue_buffer_duration -40000 ns is negative",
    ]);
    expect(r.suspect.impossible).toBe(2);
    expect(r.notices.join("\n")).toContain(
      "2 with a pipeline timestamp or buffer duration no frame can have",
    );
  });

  it("every real framestats fixture reads with no row impossible", () => {
    for (const name of [
      "jankbook_android14_two-windows_framestats.txt",
      "droid-monitor_api28_chrome_gfxinfo.txt",
      "droid-monitor_api24_settings_gfxinfo.txt",
    ]) {
      const r = parseFramestats(readFileSync(`test/fixtures/gfxinfo/${name}`, "utf8"), name);
      expect(r.suspect.impossible, name).toBe(0);
    }
  });
});
