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

function field(body: string, key: string): bigint | null {
  const at = body.indexOf(`${key}=`);
  if (at < 0) return null;
  const m = /^-?\d{1,19}/.exec(body.slice(at + key.length + 1, at + key.length + 22));
  return m ? BigInt(m[0]) : null;
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
    const jank = /isJank=(true|false)/.exec(
      body.slice(body.indexOf("isJank="), body.indexOf("isJank=") + 13),
    );
    if (start === null || ui === null || !jank || body.indexOf("isJank=") < 0) {
      warnings.push(
        `${file} line ${l.lineNo}: a JankStats FrameData line without frameStartNanos, frameDurationUiNanos or isJank`,
      );
      continue;
    }
    const s = body.indexOf("states=[");
    frames.push({
      start,
      ui,
      cpu: field(body, "frameDurationCpuNanos"),
      total: field(body, "frameDurationTotalNanos"),
      overrun: field(body, "frameOverrunNanos"),
      isJank: jank[1] === "true",
      states: s < 0 ? "" : body.slice(s + 8, body.lastIndexOf("]")),
      lineNo: l.lineNo,
    });
  }
  return { frames, warnings };
}
