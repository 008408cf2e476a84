// SurfaceFlinger FrameTimeline (TracePacket field 76, frameworks/native tracing
// frameworks_native_trace_packet.proto FrameTimelineEvent): start events open a slice under a cookie, FrameEnd
// closes it. Names for present, prediction and jank types as Perfetto's trace processor writes them
// (src/trace_processor/importers/proto/frame_timeline_event_parser.cc).
import { jankTag, severityName } from "./frame-jank-tag";
import { ProtoReader, WIRE_FIXED32, WIRE_LEN, WIRE_VARINT } from "./proto-reader";
import type { FrameTimelineRow } from "./rows";

const PRESENT = [
  "Unspecified Present",
  "On-time Present",
  "Late Present",
  "Early Present",
  "Dropped Frame",
  "Unknown Present",
];
const PREDICTION = ["Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction"];
// JankType bits in declaration order of the parser's string list (it tests them in this order).
const JANK_BITS: readonly [number, string][] = [
  [2, "SurfaceFlinger Scheduling"],
  [4, "Prediction Error"],
  [8, "Display HAL"],
  [16, "SurfaceFlinger CPU Deadline Missed"],
  [32, "SurfaceFlinger GPU Deadline Missed"],
  [64, "App Deadline Missed"],
  [4096, "App Resynced Jitter"],
  [128, "Buffer Stuffing"],
  [256, "Unknown Jank"],
  [512, "SurfaceFlinger Stuffing"],
  [1024, "Dropped Frame"],
  [2048, "Non Animating"],
  [8192, "Display not ON"],
  [16384, "ModeChange in progress"],
  [32768, "PowerModeChange in progress"],
];

/** Perfetto's jank type text for a JankType bitmask: 'None', 'Unspecified', or names joined with ', '. */
export function jankTypeName(mask: number): string {
  if (mask === 0) return "Unspecified";
  if (mask === 1) return "None";
  const names = JANK_BITS.filter(([bit]) => (mask & bit) !== 0).map(([, name]) => name);
  return names.length ? names.join(", ") : `Unknown jank bits ${mask}`;
}

// Timestamps this close to int64 max are SurfaceFlinger's "no value" (trace processor kBadTimestamp, b/185978397).
const BAD_TS = 9.223372026854776e18;

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
function float32(bits: number): number {
  U32[0] = bits;
  return F32[0]!;
}

export class FrameTimeline {
  readonly rows: FrameTimelineRow[] = [];
  private open = new Map<number, FrameTimelineRow>();
  badTimestamps = 0;
  unmatchedEnds = 0;

  /** One FrameTimelineEvent message at packet time `ts` (already converted to the trace's clock). */
  event(r: ProtoReader, ts: number): void {
    while (r.more()) {
      const t = r.tag();
      const field = t >>> 3;
      if ((t & 7) !== WIRE_LEN || field < 1 || field > 5) {
        r.skip(t & 7);
        continue;
      }
      const m = r.message();
      if (field === 5) this.end(m, ts);
      else this.start(m, field, ts);
    }
  }

  private start(m: ProtoReader, kind: number, ts: number) {
    const surface = kind === 3 || kind === 4;
    const actual = kind === 2 || kind === 4;
    const row: FrameTimelineRow = {
      scope: surface ? "surface" : "display",
      timeline: actual ? "actual" : "expected",
      ts,
      dur: null,
      token: 0,
      display_frame_token: null,
      pid: null,
      layer_name: null,
      present_type: null,
      on_time_finish: null,
      gpu_composition: null,
      jank_type: null,
      prediction_type: null,
      jank_tag: null,
      jank_severity_type: null,
      jank_severity_score: null,
    };
    let cookie: number | null = null;
    // Field numbers differ between the display and the surface messages (display: pid 3, present 4 ...).
    const off = surface ? 2 : 0;
    let mask = 0;
    let present: number | null = null;
    let severity: number | null = null;
    while (m.more()) {
      const t = m.tag();
      const f = t >>> 3;
      const wt = t & 7;
      if (wt === WIRE_LEN && surface && f === 5) {
        row.layer_name = m.string();
        continue;
      }
      // jank_severity_score: float, display 11, surface 15.
      if (wt === WIRE_FIXED32 && actual && f === (surface ? 15 : 11)) {
        row.jank_severity_score = float32(m.fixed32());
        continue;
      }
      if (wt !== WIRE_VARINT) {
        m.skip(wt);
        continue;
      }
      if (f === 1) cookie = m.int64();
      else if (f === 2) row.token = m.int64();
      else if (surface && f === 3) row.display_frame_token = m.int64();
      else if (f === 3 + (surface ? 1 : 0)) row.pid = m.int64();
      else if (!actual) m.skip(wt);
      else if (f === 4 + off) row.present_type = PRESENT[(present = m.varint())] ?? "Unknown Present";
      else if (f === 5 + off) row.on_time_finish = m.varint() !== 0;
      else if (f === 6 + off) row.gpu_composition = m.varint() !== 0;
      else if (f === 7 + off) row.jank_type = jankTypeName((mask = m.int64()));
      else if (f === 8 + off) row.prediction_type = PREDICTION[m.varint()] ?? "Unknown Prediction";
      else if (f === (surface ? 12 : 9)) severity = m.varint();
      else m.skip(wt);
    }
    if (actual) {
      row.jank_tag = jankTag(surface, mask, present);
      row.jank_severity_type = severityName(severity, mask);
    }
    if (Math.abs(ts) >= BAD_TS) {
      this.badTimestamps++;
      return;
    }
    this.rows.push(row);
    if (cookie !== null) this.open.set(cookie, row);
  }

  private end(m: ProtoReader, ts: number) {
    let cookie: number | null = null;
    while (m.more()) {
      const t = m.tag();
      if (t === 8) cookie = m.int64();
      else m.skip(t & 7);
    }
    const row = cookie === null ? undefined : this.open.get(cookie);
    if (!row) {
      this.unmatchedEnds++;
      return;
    }
    this.open.delete(cookie!);
    if (Math.abs(ts) >= BAD_TS) {
      this.badTimestamps++;
      return;
    }
    row.dur = ts - row.ts;
  }
}
