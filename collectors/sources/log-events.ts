// The logcat lines that matter for jank, typed. Message texts from AOSP:
// - Choreographer.java doFrame: "Skipped <n> frames!  The application may be doing too much work on its main thread."
// - art runtime/gc/heap.cc LogGC: "<cause> <collector> GC freed ..., paused <d>[,<d>...] total <d>"
//   (Dalvik vm/alloc/Heap.cpp: "GC_CONCURRENT freed ..., paused 2ms+3ms, total 33ms")
// - libs/hwui/JankTracker.cpp: "Davey! duration=<ms>ms; Flags=0, IntendedVsync=<ns>, ..."
// - ActivityManager (AnrHelper / AppErrors): "ANR in <process> (<component>)", then "Reason: ..."
// - Looper.java showSlowLog: "Slow dispatch took <ms>ms <thread> h=<handler> c=<callback> m=<what>"
import type { LogRecord } from "./logcat";

export type LogEventKind =
  "skipped_frames" | "gc_pause" | "davey" | "anr" | "slow_dispatch" | "slow_delivery";

export interface LogEvent {
  /** when the line was logged, CLOCK_MONOTONIC ns; for Davey! without a line clock, IntendedVsync + duration */
  ts: bigint | null;
  wall_time: string | null;
  pid: number | null;
  tid: number | null;
  kind: LogEventKind;
  dur: bigint | null;
  count: number | null;
  detail: string | null;
  lineNo: number;
}

const MS = 1_000_000;
const INT64_MAX = (1n << 63n) - 1n;

/** ART PrettyDuration ("123us", "45.678ms", "1.2s", "567ns") or Dalvik "2ms" to ns; null if not a duration. */
export function parseDuration(text: string): bigint | null {
  const m = /^(\d{1,12})(?:\.(\d{1,9}))?(ns|us|ms|s)$/.exec(text.trim());
  if (!m) return null;
  const scale = { ns: 1, us: 1_000, ms: MS, s: 1_000_000_000 }[m[3] as "ns" | "us" | "ms" | "s"];
  const frac = m[2] ?? "";
  // exact integer arithmetic: whole * scale + fraction * scale / 10^digits; beyond int64 is no duration
  const ns =
    BigInt(m[1]!) * BigInt(scale) + (BigInt(frac || "0") * BigInt(scale)) / 10n ** BigInt(frac.length);
  return ns <= INT64_MAX ? ns : null;
}

function gcPause(message: string): { dur: bigint; detail: string } | null {
  const freed = message.indexOf(" freed ");
  const paused = message.indexOf("paused ");
  if (freed <= 0 || paused < 0 || message.length > 2000) return null;
  const art = message.indexOf(" GC freed ");
  const dalvik = /^GC_\w+ freed /.test(message);
  if (art < 0 && !dalvik) return null;
  const cause = art >= 0 ? message.slice(0, art) : message.slice(0, freed);
  const totalAt = message.indexOf("total ", paused);
  const pauseText = message.slice(paused + 7, totalAt < 0 ? undefined : totalAt).replace(/[ ,]+$/, "");
  let dur = 0n;
  for (const part of pauseText.split(/\s*[,+]\s*/)) {
    const d = parseDuration(part);
    if (d === null) return null;
    dur += d;
  }
  if (dur > INT64_MAX) return null;
  const total = totalAt < 0 ? null : message.slice(totalAt + 6).split(/[\s,]/)[0]!;
  return { dur, detail: `${cause} GC${total ? `, total ${total}` : ""}, paused ${pauseText}` };
}

/** The typed events in log order; an ANR's "Reason:" line from the same thread within 20 lines is added. */
export function logEvents(lines: readonly LogRecord[]): LogEvent[] {
  const out: LogEvent[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const msg = l.message;
    const base = {
      ts: l.mono_ns,
      wall_time: l.wall,
      pid: l.pid >= 0 ? l.pid : null,
      tid: l.tid,
      lineNo: l.lineNo,
      dur: null,
      count: null,
      detail: null,
    };
    if (msg.startsWith("Skipped ")) {
      const m = /^Skipped (\d{1,9}) frames!/.exec(msg.slice(0, 40));
      if (m) out.push({ ...base, kind: "skipped_frames", count: Number(m[1]) });
    } else if (msg.startsWith("Davey! duration=")) {
      const m = /^Davey! duration=(\d{1,12})ms/.exec(msg.slice(0, 60));
      if (!m) continue;
      const dur = BigInt(m[1]!) * BigInt(MS);
      const ivText = /IntendedVsync=(\d{1,19})(?!\d)/.exec(msg.slice(0, 400))?.[1];
      const iv = ivText !== undefined && BigInt(ivText) + dur <= INT64_MAX ? ivText : undefined;
      const ts = base.ts ?? (iv !== undefined ? BigInt(iv) + dur : null);
      out.push({ ...base, ts, kind: "davey", dur, detail: iv !== undefined ? `IntendedVsync=${iv}` : null });
    } else if (msg.startsWith("ANR in ")) {
      let detail = msg.slice(7);
      for (let j = i + 1; j < Math.min(lines.length, i + 20); j++) {
        const r = lines[j]!;
        if (r.pid === l.pid && r.tid === l.tid && r.message.startsWith("Reason: ")) {
          detail += `; ${r.message}`;
          break;
        }
      }
      out.push({ ...base, kind: "anr", detail });
    } else if (msg.startsWith("Slow dispatch took ") || msg.startsWith("Slow delivery took ")) {
      const m = /^Slow (dispatch|delivery) took (\d{1,12})ms ?/.exec(msg.slice(0, 60));
      if (!m) continue;
      out.push({
        ...base,
        kind: m[1] === "dispatch" ? "slow_dispatch" : "slow_delivery",
        dur: BigInt(m[2]!) * BigInt(MS),
        detail: msg.slice(m[0].length) || null,
      });
    } else if (msg.includes(" freed ")) {
      const gc = gcPause(msg);
      if (gc) out.push({ ...base, kind: "gc_pause", dur: gc.dur, detail: gc.detail });
    }
  }
  return out;
}
