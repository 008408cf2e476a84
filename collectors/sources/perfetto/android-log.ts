// The logcat inside a trace: AndroidLogPacket (TracePacket field 39, protos/perfetto/trace/android/android_log.proto).
// Its event timestamps are CLOCK_REALTIME (trace processor's android_log parser converts them from clock 1), so
// they are kept as they are until the trace's ClockSnapshots are all read.
import type { LogRecord } from "../logcat";
import type { ProtoReader } from "./proto-reader";

// AndroidLogPriority (protos/perfetto/common/android_log_constants.proto) 2..7 as logcat's letters.
const LEVELS = ["?", "?", "V", "D", "I", "W", "E", "F"];

export interface TraceLogLine {
  /** CLOCK_REALTIME ns */
  realtime: number;
  pid: number | null;
  tid: number | null;
  level: string;
  tag: string;
  message: string;
}

export class AndroidLog {
  readonly lines: TraceLogLine[] = [];

  packet(r: ProtoReader): void {
    while (r.more()) {
      const t = r.tag();
      if (t === 10) this.event(r.message());
      else r.skip(t & 7);
    }
  }

  private event(m: ProtoReader) {
    const line: TraceLogLine = { realtime: 0, pid: null, tid: null, level: "?", tag: "", message: "" };
    const args: string[] = [];
    while (m.more()) {
      const t = m.tag();
      if (t === 16) line.pid = m.int64();
      else if (t === 24) line.tid = m.int64();
      else if (t === 40) line.realtime = m.varint();
      else if (t === 50) line.tag = m.string();
      else if (t === 56) line.level = LEVELS[m.varint()] ?? "?";
      else if (t === 66) line.message = m.string();
      else if (t === 74) args.push(arg(m.message()));
      else m.skip(t & 7);
    }
    // Binary (event log) entries carry args instead of a message: written name=value as logcat -b events does.
    if (!line.message && args.length) line.message = args.join(" ");
    this.lines.push(line);
  }

  /** The lines as logcat records, in time order, with `toMonotonic` from CLOCK_REALTIME (null: not relatable). */
  records(toMonotonic: (realtime: number) => number | null): LogRecord[] {
    const out = this.lines.map((l, i) => {
      const mono = toMonotonic(l.realtime);
      return {
        mono_ns: mono === null ? null : BigInt(Math.round(mono)),
        wall: wallTime(l.realtime),
        pid: l.pid ?? -1,
        tid: l.tid,
        uid: null,
        level: l.level,
        tag: l.tag,
        message: l.message,
        lineNo: i + 1,
      };
    });
    return out.sort((a, b) => (a.mono_ns !== null && b.mono_ns !== null ? Number(a.mono_ns - b.mono_ns) : 0));
  }
}

function arg(m: ProtoReader): string {
  let name = "";
  let value = "";
  while (m.more()) {
    const t = m.tag();
    if (t === 10) name = m.string();
    else if (t === 16) value = String(m.int64());
    else if (t === 29) {
      const bits = m.fixed32();
      F32U[0] = bits;
      value = String(F32[0]);
    } else if (t === 34) value = m.string();
    else m.skip(t & 7);
  }
  return `${name}=${value}`;
}
const F32 = new Float32Array(1);
const F32U = new Uint32Array(F32.buffer);

// CLOCK_REALTIME as UTC `YYYY-MM-DD HH:MM:SS.mmm` (the trace does not say the phone's time zone for certain).
function wallTime(realtime: number): string | null {
  if (!(realtime > 0)) return null;
  const iso = new Date(Math.floor(realtime / 1e6)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}
