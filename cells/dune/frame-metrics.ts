// Frame rendering metrics per run and per UI-event bucket (DUNE §5.1, §5.2.2): frames, janky frames,
// smooth ratio = 1 − janky/frames, mean, p90 and p99 frame time (nearest rank). N UI events give N + 1
// buckets: bucket 0 holds the frames whose IntendedVsync is before the first event, bucket k those from
// event k (1-based) until the next. Frame time is the `duration` column (FrameCompleted − IntendedVsync).
// Jank goes beyond the paper's fixed 16 ms: a frame is janky when its duration exceeds its deadline, which is
//   1. "frame_deadline": FrameDeadline − IntendedVsync, where framestats has it (Android 12+);
//   2. "frame_interval": FrameInterval, the frame's vsync period, where only that is present;
//   3. "refresh_rate": one refresh period of the device (runs.refresh_hz, or options.refreshHz);
//   4. "fixed": options.fixedDeadlineMs, default DUNE.fixedDeadlineMs (defaults.ts).
// Each run reports how many frames each rule judged (`rule`) and a sentence saying so (`ruleText`).
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import type { Table } from "apache-arrow";
import { float64, int32, int64, optional, readColumns, utf8 } from "../../bundle/read-columns";
import { suspectRows } from "../common/suspect-rows";
import { DUNE } from "./defaults";
import type { RunMetrics } from "./deviation-labels";

export type JankRule = "frame_deadline" | "frame_interval" | "refresh_rate" | "fixed";

export interface FrameMetricsOptions {
  /** ui_events table (run_id, ts, seq, kind): enables the per-event buckets. */
  uiEvents?: Table;
  /** runs table (run_id, refresh_hz): the device refresh rate per run. */
  runs?: Table;
  /** Refresh rate used when a run has none in `runs` (Hz). */
  refreshHz?: number;
  /** Last-resort deadline in ms; default DUNE.fixedDeadlineMs (defaults.ts, §5.2.2). */
  fixedDeadlineMs?: number;
  /**
   * Leave out frames whose framestats Flags are non-zero (WindowLayoutChanged, SkippedFrame, ...), as the
   * Android framestats documentation advises for frame-time statistics. Default false: the paper counts
   * every frame gfxinfo reports (§5.1).
   */
  skipFlaggedFrames?: boolean;
  /**
   * Count frames whose times are impossible or unfinished (frames.suspect set on import: negative or
   * over-a-minute duration, overflow, FrameCompleted unset). Default false: they are left out and counted.
   */
  includeSuspect?: boolean;
}

export interface FrameStats {
  frames: number;
  jankyFrames: number;
  /** 1 − janky/frames; NaN for no frames. */
  smoothRatio: number;
  meanFrameMs: number;
  p90FrameMs: number;
  p99FrameMs: number;
}

export interface BucketStats extends FrameStats {
  bucket: number;
  /** The event that opens the bucket (null for bucket 0). */
  event: { ts: number; seq: number; kind: string } | null;
}

export interface RunFrameMetrics {
  runId: string;
  rule: Record<JankRule, number>;
  /** Frames left out because their Flags were non-zero (skipFlaggedFrames). */
  flaggedSkipped: number;
  /** Frames left out because frames.suspect is set (unless includeSuspect). */
  suspectSkipped: number;
  ruleText: string;
  /** the last-resort deadline (ms) the "fixed" rule used */
  fixedDeadlineMs: number;
  total: FrameStats;
  buckets: BucketStats[];
  /** Per frame, in IntendedVsync order: start (ns), duration and deadline (ms), jank (0/1). */
  timeline: { start: Float64Array; durationMs: Float64Array; deadlineMs: Float64Array; jank: Uint8Array };
}

const RULE_TEXT: Record<JankRule, string> = {
  frame_deadline: "FrameDeadline − IntendedVsync (Android 12+)",
  frame_interval: "FrameInterval (vsync period)",
  refresh_rate: "one refresh period (runs.refresh_hz)",
  fixed: "fixed deadline",
};

function stats(durations: number[], janky: number): FrameStats {
  const n = durations.length;
  const s = Float64Array.from(durations).sort();
  const rank = (p: number) => (n === 0 ? NaN : s[Math.max(0, Math.ceil(p * n) - 1)]!);
  let sum = 0;
  for (const d of durations) sum += d;
  return {
    frames: n,
    jankyFrames: janky,
    smoothRatio: n === 0 ? NaN : 1 - janky / n,
    meanFrameMs: n === 0 ? NaN : sum / n,
    p90FrameMs: rank(0.9),
    p99FrameMs: rank(0.99),
  };
}

function groupRows(table: Table | undefined, name: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (!table) return out;
  const ids = table.getChild("run_id")!;
  for (let i = 0; i < table.numRows; i++) {
    const id = String(ids.get(i));
    let rows = out.get(id);
    if (!rows) out.set(id, (rows = []));
    rows.push(i);
  }
  if (out.size === 0 && table.numRows > 0) throw new Error(`no run_id values in ${name}`);
  return out;
}

/** The sentence a run's metrics carry: which rule judged how many frames, and which frames were left out. */
export function ruleSentence(
  rule: Record<JankRule, number>,
  fixedMs: number,
  flaggedSkipped: number,
  suspectSkipped: number,
): string {
  const used = (Object.keys(rule) as JankRule[]).filter((r) => rule[r] > 0);
  const ruleText =
    used
      .map(
        (r) =>
          `${r === "fixed" ? `${RULE_TEXT.fixed} ${fixedMs} ms` : RULE_TEXT[r]} for ${rule[r]} frame${rule[r] === 1 ? "" : "s"}`,
      )
      .join("; ") || "no frames";
  const skipped =
    (flaggedSkipped > 0 ? `; ${flaggedSkipped} frame(s) with non-zero Flags left out` : "") +
    (suspectSkipped > 0 ? `; ${suspectSkipped} suspect frame(s) (impossible times) left out` : "");
  return `jank = duration > deadline, deadline from ${ruleText}${skipped}`;
}

/** Each run's refresh rate (Hz) from the runs table, where it has a positive one. */
export function refreshRates(runs: Table | undefined): Map<string, number> {
  const refresh = new Map<string, number>();
  if (!runs) return refresh;
  const r = readColumns(runs, "runs", { run_id: utf8(), refresh_hz: float64() });
  for (let i = 0; i < runs.numRows; i++)
    if (r.refresh_hz[i]! > 0) refresh.set(String(r.run_id.get(i)), r.refresh_hz[i]!);
  return refresh;
}

/** Each run's UI events in the order that opens the buckets (§5.2.2): by time, then sequence number. */
export function eventsByRun(
  uiEvents: Table | undefined,
): Map<string, { ts: number; seq: number; kind: string }[]> {
  if (!uiEvents) return new Map();
  const { ts, seq, kind } = readColumns(uiEvents, "ui_events", {
    run_id: utf8(),
    ts: int64(0),
    seq: int32(),
    kind: utf8(),
  });
  return new Map(
    [...groupRows(uiEvents, "ui_events")].map(([id, rows]) => [
      id,
      rows
        .map((i) => ({ ts: ts[i]!, seq: seq[i]!, kind: String(kind.get(i)) }))
        .sort((a, b) => a.ts - b.ts || a.seq - b.seq),
    ]),
  );
}

export function frameMetrics(frames: Table, options: FrameMetricsOptions = {}): RunFrameMetrics[] {
  const f = readColumns(frames, "frames", {
    run_id: utf8(),
    intended_vsync: int64(),
    duration: int64(),
    frame_deadline: optional(int64()),
    frame_interval: optional(int64()),
  });
  const fixedMs = options.fixedDeadlineMs ?? DUNE.fixedDeadlineMs;
  const rowsTotal = frames.numRows;
  const absent = () => new Float64Array(rowsTotal).fill(NaN);
  const vsync = f.intended_vsync;
  const duration = f.duration;
  const frameDeadline = f.frame_deadline ?? absent();
  const frameInterval = f.frame_interval ?? absent();
  const suspect = options.includeSuspect ? null : suspectRows(frames);
  const flags =
    (options.skipFlaggedFrames ? readColumns(frames, "frames", { flags: optional(int64()) }).flags : null) ??
    absent();

  const refresh = refreshRates(options.runs);
  const events = eventsByRun(options.uiEvents);

  const out: RunFrameMetrics[] = [];
  for (const [runId, rowsUnsorted] of groupRows(frames, "frames")) {
    const plausible = suspect ? rowsUnsorted.filter((r) => suspect[r] === 0) : rowsUnsorted;
    const suspectSkipped = rowsUnsorted.length - plausible.length;
    // flags[r] > 0 is false for null (NaN) and for 0
    const rows = plausible.filter((r) => !(flags[r]! > 0)).sort((a, b) => vsync[a]! - vsync[b]!);
    const flaggedSkipped = plausible.length - rows.length;
    const hz = refresh.get(runId) ?? options.refreshHz;
    const rule: Record<JankRule, number> = {
      frame_deadline: 0,
      frame_interval: 0,
      refresh_rate: 0,
      fixed: 0,
    };
    const n = rows.length;
    const timeline = {
      start: new Float64Array(n),
      durationMs: new Float64Array(n),
      deadlineMs: new Float64Array(n),
      jank: new Uint8Array(n),
    };
    const evs = events.get(runId) ?? [];
    const bucketDur: number[][] = evs.map(() => []).concat([[]]);
    const bucketJank = new Int32Array(evs.length + 1);
    const all: number[] = [];
    let janky = 0;
    let b = 0;
    rows.forEach((row, j) => {
      const start = vsync[row]!;
      const dur = duration[row]!;
      const fd = frameDeadline[row]!;
      const fi = frameInterval[row]!;
      let deadline: number;
      if (fd > start) ((deadline = fd - start), rule.frame_deadline++);
      else if (fi > 0) ((deadline = fi), rule.frame_interval++);
      else if (hz !== undefined && hz > 0) ((deadline = 1e9 / hz), rule.refresh_rate++);
      else ((deadline = fixedMs * 1e6), rule.fixed++);
      const jank = dur > deadline ? 1 : 0;
      timeline.start[j] = start;
      timeline.durationMs[j] = dur / 1e6;
      timeline.deadlineMs[j] = deadline / 1e6;
      timeline.jank[j] = jank;
      janky += jank;
      all.push(dur / 1e6);
      while (b < evs.length && evs[b]!.ts <= start) b++; // §5.2.2: frames from event b until the next
      bucketDur[b]!.push(dur / 1e6);
      bucketJank[b]! += jank;
    });
    out.push({
      runId,
      rule,
      flaggedSkipped,
      suspectSkipped,
      ruleText: ruleSentence(rule, fixedMs, flaggedSkipped, suspectSkipped),
      fixedDeadlineMs: fixedMs,
      total: stats(all, janky),
      buckets: bucketDur.map((d, k) => ({
        bucket: k,
        event: k === 0 ? null : evs[k - 1]!,
        ...stats(d, bucketJank[k]!),
      })),
      timeline,
    });
  }
  return out;
}

/** A run's metrics in the shape deviationLabels compares (coarse plus one set per bucket). */
export function toRunMetrics(run: RunFrameMetrics): RunMetrics {
  const pick = (s: FrameStats) => ({
    frames: s.frames,
    smoothRatio: s.smoothRatio,
    meanFrameMs: s.meanFrameMs,
    p90FrameMs: s.p90FrameMs,
    p99FrameMs: s.p99FrameMs,
  });
  return { ...pick(run.total), events: run.buckets.map(pick) };
}

/** Figure 3: each frame as a bar at its start time (s), janky ones red, the deadline dashed, UI events as rules. */
export function frameMetricsPlot(result: RunFrameMetrics[], options: { runId?: string } = {}): ChartSpec {
  const run = options.runId === undefined ? result[0] : result.find((r) => r.runId === options.runId);
  if (!run) throw new Error(`no frame metrics for run ${options.runId ?? "(any)"}`);
  const t0 = run.timeline.start[0] ?? 0;
  const frames = Array.from(run.timeline.start, (s, i) => ({
    t: (s - t0) / 1e9,
    ms: run.timeline.durationMs[i]!,
    deadline: run.timeline.deadlineMs[i]!,
    jank: run.timeline.jank[i] ? "janky" : "smooth",
  }));
  const events = run.buckets
    .filter((b) => b.event)
    .map((b) => ({ t: (b.event!.ts - t0) / 1e9, name: `E${b.bucket} ${b.event!.kind}` }));
  return chartSpec("frameMetricsPlot", {
    mark: "ruleX",
    data: frames,
    x: "t",
    stroke: "jank",
    options: { y1: 0, y2: "ms" },
    title: `${run.runId}: ${run.total.frames} frames, ${run.total.jankyFrames} janky (${run.ruleText})`,
    layout: {
      x: { label: "time (s)" },
      y: { label: "frame time (ms)", grid: true },
      color: { domain: ["smooth", "janky"], range: ["#4c78a8", "#d62728"], legend: true },
    },
    over: [
      {
        mark: "line",
        data: frames,
        options: { x: "t", y: "deadline", stroke: "#444", strokeDasharray: "4,3", curve: "step-after" },
      },
      { mark: "ruleX", data: events, options: { x: "t", stroke: "#999", strokeDasharray: "2,2" } },
      {
        mark: "text",
        data: events,
        options: { x: "t", text: "name", frameAnchor: "top", rotate: -90, textAnchor: "end", dx: -3 },
      },
    ],
  });
}
