// androidx.metrics.performance JankStats frames that an app logged with FrameData.toString():
// "FrameData(frameStartNanos=.., frameDurationUiNanos=.., [frameDurationCpuNanos=.., [frameDurationTotalNanos=..,]
// frameOverrunNanos=..,] isJank=.., states=[..])" (FrameData.kt, FrameDataApi24.kt, FrameDataApi31.kt).
// frameStartNanos is the frame's intended vsync (FrameMetrics INTENDED_VSYNC_TIMESTAMP), CLOCK_MONOTONIC.
import type { LogRecord } from "./logcat";

export interface JankStatsFrame {
  start: bigint;
  ui: bigint;
  cpu: bigint | null;
  total: bigint | null;
  overrun: bigint | null;
  isJank: boolean;
  states: string;
  lineNo: number;
}

const MARK = "FrameData(frameStartNanos=";

const INT64_MAX = (1n << 63n) - 1n;

/** The key's integer; null when the key is absent; "bad" when it is not an int64 (cut off, overflowing). */
function field(body: string, key: string): bigint | null | "bad" {
  const at = body.indexOf(`${key}=`);
  if (at < 0) return null;
  const m = /^-?\d{1,19}(?![\d.])/.exec(body.slice(at + key.length + 1, at + key.length + 22));
  if (!m) return "bad";
  const v = BigInt(m[0]);
  return v > INT64_MAX || v < -INT64_MAX ? "bad" : v;
}

/** Frames from the lines holding a FrameData; lines that hold one but cannot be read are reported. */
export function jankStatsFrames(
  lines: readonly LogRecord[],
  file: string,
): { frames: JankStatsFrame[]; warnings: string[] } {
  const frames: JankStatsFrame[] = [];
  const warnings: string[] = [];
  for (const l of lines) {
    const at = l.message.indexOf(MARK);
    if (at < 0) continue;
    const body = l.message.slice(at + 10);
    const start = field(body, "frameStartNanos");
    const ui = field(body, "frameDurationUiNanos");
    const cpu = field(body, "frameDurationCpuNanos");
    const total = field(body, "frameDurationTotalNanos");
    const overrun = field(body, "frameOverrunNanos");
    const j = body.indexOf("isJank=");
    const jank = j < 0 ? null : /^isJank=(true|false)/.exec(body.slice(j, j + 13));
    const bad = [cpu, total, overrun].includes("bad");
    if (typeof start !== "bigint" || typeof ui !== "bigint" || !jank || bad) {
      warnings.push(
        `${file} line ${l.lineNo}: a JankStats FrameData line without a readable frameStartNanos, frameDurationUiNanos, isJank or duration`,
      );
      continue;
    }
    const s = body.indexOf("states=[");
    frames.push({
      start,
      ui,
      cpu: cpu as bigint | null,
      total: total as bigint | null,
      overrun: overrun as bigint | null,
      isJank: jank[1] === "true",
      states: s < 0 ? "" : body.slice(s + 8, body.lastIndexOf("]")),
      lineNo: l.lineNo,
    });
  }
  return { frames, warnings };
}
