// How tables show a value, so raw int64 ns never reach a reader: nanosecond columns in ms or s with units,
// numbers with thousands separators, long ids cut in the middle. Shared by <jb-table> and published reports
// (publish.ts).
import { TABLES } from "../bundle/schema";

/** Timestamps and durations the bundle stores in ns whose docs do not say so (bundle/schema.ts). */
const NS_UNDOCUMENTED = [
  "vsync",
  "oldest_input_event",
  "newest_input_event",
  "frame_start_time",
  "animation_time",
  "display_present_time",
  "started",
  "ended",
];

/** int64 columns of the bundle documented as nanoseconds, or as a framestats timestamp (FrameInfo.cpp names). */
const NS_COLUMNS = new Set<string>([
  ...NS_UNDOCUMENTED,
  ...TABLES.flatMap((t) =>
    t.columns
      .filter(
        (c) =>
          c.type === "int64" &&
          (/\bns\b/.test(c.doc) ||
            /^[A-Z][A-Za-z]*(Start|Vsync|Completed|Buffers|Queued|Deadline)\b/.test(c.doc)),
      )
      .map((c) => c.name),
  ),
]);

/** Whether a column holds nanoseconds: `*_ns`, `ts`/`*_ts`, `dur`/`*_dur`, or a known ns column of the bundle. */
export function isTimeColumn(name: string): boolean {
  return /(^|_)(ts|dur)$|_ns$/.test(name) || NS_COLUMNS.has(name);
}

const grouped = (maxFraction: number) =>
  new Intl.NumberFormat("en-US", { maximumFractionDigits: maxFraction, useGrouping: true });
const INTEGER = grouped(0);
const MS = grouped(2);
const S = grouped(3);
const SMALL = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 });

/** A nanosecond count in ms below one second (2 decimals, 3 significant digits under 1 ms), else in s. */
export function formatDuration(ns: number | bigint): string {
  const ms = Number(ns) / 1e6;
  if (Math.abs(ms) >= 1000) return `${S.format(ms / 1000)} s`;
  if (ms === 0 || Math.abs(ms) >= 1) return `${MS.format(ms)} ms`;
  return `${SMALL.format(ms)} ms`;
}

/** Integers grouped by thousands; fractions to 3 decimals, or 3 significant digits when under 1. */
export function formatNumber(v: number | bigint): string {
  if (typeof v === "bigint") return INTEGER.format(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return INTEGER.format(v);
  return Math.abs(v) >= 1 ? S.format(v) : SMALL.format(v);
}

/** Point-in-time columns on the device's CLOCK_MONOTONIC: documented so in bundle/schema.ts, framestats timestamps, `ts`/`*_ts`. */
const INSTANT_COLUMNS = new Set<string>([
  "vsync",
  "oldest_input_event",
  "newest_input_event",
  "frame_start_time",
  ...TABLES.flatMap((t) =>
    t.columns
      .filter(
        (c) =>
          c.type === "int64" &&
          (/CLOCK_MONOTONIC/.test(c.doc) ||
            // a framestats timestamp, not a difference of two (frames.duration is "FrameCompleted - IntendedVsync")
            /^[A-Z][A-Za-z]*(Start|Vsync|Completed|Buffers|Queued)\b(?! -)/.test(c.doc) ||
            /^FrameDeadline\b/.test(c.doc)),
      )
      .map((c) => c.name),
  ),
]);

/** Whether a column holds a moment on the run's clock (not a duration): shown from the run's start. */
export function isInstantColumn(name: string): boolean {
  return /(^|_)ts$/.test(name) || INSTANT_COLUMNS.has(name);
}

/** A moment as time since `origin` (the run's start), e.g. "+1.235 s". */
export function formatInstant(ns: number | bigint, origin: number): string {
  return `+${formatDuration(Number(ns) - origin)}`;
}

/**
 * A value as table text; `column` picks time formatting for nanosecond columns. With `origin` (the run's start,
 * ns), a moment at or after it reads as time since it: a trace's clock counts from boot, which says nothing.
 */
export function formatValue(v: unknown, column = "", origin?: number): string {
  if (v === null || v === undefined) return "∅";
  if (
    origin !== undefined &&
    (typeof v === "number" || typeof v === "bigint") &&
    isInstantColumn(column) &&
    Number(v) >= origin
  )
    return formatInstant(v, origin);
  if (typeof v === "number" || typeof v === "bigint")
    return isTimeColumn(column) ? formatDuration(v) : formatNumber(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && "toArray" in v)
    return jsonText([...(v as { toArray(): unknown[] }).toArray()]);
  if (typeof v === "object") return jsonText(v);
  return String(v);
}

/** JSON with int64 values written as numbers' digits (JSON.stringify throws on a bigint). */
function jsonText(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? x.toString() : x));
}

/** `text` in at most `max` characters, cut in the middle so both ends of an id stay readable. */
export function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return "…";
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return chars.slice(0, head).join("") + "…" + (tail > 0 ? chars.slice(-tail).join("") : "");
}
