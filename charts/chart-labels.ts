// What the chart theme (chart-theme.ts) knows about columns and text: human axis labels with units for the
// column names the bundle (docs/tables.md), the cells and the notebooks use, which columns hold nanoseconds
// (every bundle timestamp is int64 ns: docs/tables.md), words for boolean legends, and an estimate of how
// wide a label is drawn at Plot's default 10 px font, so margins can be sized without a DOM.

/** A column's unit when it is not what the chart should show: ns instants become s, ns durations ms. */
export type NsKind = "instant" | "duration";

interface Known {
  label: string;
  ns?: NsKind;
}

/** Known columns: bundle tables (raw ns), then the names cells and notebooks give their derived columns. */
const KNOWN: Record<string, Known> = {
  intended_vsync: { label: "time (s)", ns: "instant" },
  vsync: { label: "vsync (s)", ns: "instant" },
  ts: { label: "time (s)", ns: "instant" },
  scheduled: { label: "scheduled (s)", ns: "instant" },
  started: { label: "started (s)", ns: "instant" },
  ended: { label: "ended (s)", ns: "instant" },
  enter: { label: "enter (s)", ns: "instant" },
  exit: { label: "exit (s)", ns: "instant" },
  start: { label: "start (s)", ns: "instant" },
  frame_completed: { label: "frame completed (s)", ns: "instant" },
  duration: { label: "frame duration (ms)", ns: "duration" },
  dur: { label: "duration (ms)", ns: "duration" },
  deadline: { label: "deadline (ms)", ns: "duration" },
  inclusive: { label: "inclusive time (ms)", ns: "duration" },
  exclusive: { label: "exclusive time (ms)", ns: "duration" },
  t_s: { label: "time (s)" },
  t_ms: { label: "time (ms)" },
  t: { label: "time (s)" },
  ms: { label: "frame time (ms)" },
  duration_ms: { label: "frame duration (ms)" },
  deadline_ms: { label: "deadline (ms)" },
  worstMs: { label: "worst of Mq, Me (ms)" },
  mqMs: { label: "longest queuing Mq (ms)" },
  meMs: { label: "longest execution Me (ms)" },
  meanFrameMs: { label: "mean frame time (ms)" },
  p90FrameMs: { label: "90th percentile frame time (ms)" },
  p99FrameMs: { label: "99th percentile frame time (ms)" },
  smoothRatio: { label: "smooth ratio (1 − janky/frames)" },
  jankyFrames: { label: "janky frames" },
  frames: { label: "frames" },
  maxDepth: { label: "deepest overdraw (draws per pixel)" },
  meanDepth: { label: "mean overdraw (draws per pixel)" },
  depth: { label: "overdraw depth (draws per pixel)" },
  inclusiveMs: { label: "inclusive time (ms)" },
  exclusiveMs: { label: "exclusive time (ms)" },
  cpuMs: { label: "thread CPU time (ms)" },
  megacycles: { label: "CPU cycles (millions)" },
  ipc: { label: "instructions per cycle" },
  res: { label: "RES (visible pixel·s + 1) / s" },
  run_id: { label: "run" },
  label: { label: "" },
  name: { label: "" },
  weight: { label: "similarity weight" },
};

/** Legend words for a boolean column: [true, false]. */
const BOOLEAN_WORDS: Record<string, [string, string]> = {
  jank: ["janky", "smooth"],
  decoded: ["decoded a bitmap", "no decode"],
  complete: ["complete", "incomplete"],
  open: ["still running", "ended"],
  suspect: ["suspect", "valid"],
};

const UNIT_SUFFIXES: [RegExp, string][] = [
  [/(?:_ms|Ms)$/, "ms"],
  [/_s$/, "s"],
  [/(?:_px|Px)$/, "px"],
  [/(?:_pct|Pct)$/, "%"],
];

/** `meanFrameMs` → "mean frame", `render_ops` → "render ops": camelCase and snake_case as words. */
function words(name: string): string {
  return name
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Is this text one of the column names the dictionary knows (a raw column name used as a label)? */
export function isKnownColumn(name: string): boolean {
  return Object.hasOwn(KNOWN, name);
}

/**
 * The human label of a column: the dictionary's, else its words with the unit its suffix names; "" for generic
 * names (`label`, `name`) whose values speak for themselves.
 */
export function columnLabel(name: string): string {
  if (isKnownColumn(name)) return KNOWN[name]!.label;
  for (const [suffix, unit] of UNIT_SUFFIXES)
    if (suffix.test(name) && name.replace(suffix, "") !== "")
      return `${words(name.replace(suffix, ""))} (${unit})`;
  return words(name);
}

/** Whether a column holds nanoseconds by its name, and whether they are instants or durations. */
export function nsKind(name: string): NsKind | undefined {
  if (isKnownColumn(name)) return KNOWN[name]!.ns;
  if (/(?:_ns|Ns)$/.test(name)) return "duration";
  return undefined;
}

/**
 * Values that really are the raw nanoseconds a ns-named column stands for: int64 from Arrow (bigint), or integers of
 * at least a millisecond (1e6 ns). A notebook's own `start` in seconds (e.g. 12.5) is left alone.
 */
export function looksLikeNs(values: readonly unknown[]): boolean {
  let seen = false;
  for (const v of values) {
    if (v == null) continue;
    if (typeof v === "bigint") return true;
    if (typeof v !== "number" || !Number.isInteger(v)) return false;
    if (Math.abs(v) >= 1e6) seen = true;
  }
  return seen;
}

/** Label of a ns column once the theme converted it: instants in s, durations in ms, whatever the dictionary said. */
export function nsLabel(name: string, kind: NsKind): string {
  const base = columnLabel(name).replace(/\s*\((?:ns|ms|s)\)$/, "");
  return `${base} (${kind === "instant" ? "s" : "ms"})`;
}

/** The scale transform for a ns column: instants to s, durations to ms (bigint-safe). */
export function nsTransform(kind: NsKind): (v: unknown) => number {
  const div = kind === "instant" ? 1e9 : 1e6;
  return (v) => (v == null ? NaN : Number(v) / div);
}

/** Legend words for a boolean column: [word for true, word for false]. */
export function booleanWords(name: string | undefined): [string, string] {
  if (name && BOOLEAN_WORDS[name]) return BOOLEAN_WORDS[name];
  const w = name ? columnLabel(name) : "yes";
  return name ? [w, `not ${w}`] : ["yes", "no"];
}

// Advance widths at a 10 px sans-serif font, px: generous, DejaVu Sans (Debian's system-ui) being wider than
// Helvetica, so a margin sized by them does not clip.
const NARROW = new Set([..."iljtfI.,:;'|!()[] "]);
const WIDE = new Set([..."mwMW@%=+<>~"]);

/** Estimated drawn width in px of `text` at `fontSize` px in a sans-serif font. */
export function textWidth(text: string, fontSize = 10): number {
  let w = 0;
  for (const ch of text) {
    if (NARROW.has(ch)) w += 3.3;
    else if (WIDE.has(ch)) w += 9.4;
    else if (ch >= "A" && ch <= "Z") w += 7.2;
    else if (ch >= "0" && ch <= "9") w += 6.4;
    else if (ch.charCodeAt(0) > 0x2000) w += 10;
    else w += 6.1;
  }
  return (w * fontSize) / 10;
}

/**
 * `text` shortened in the middle (keeping its start and its end, which for run names and class names are what
 * tell them apart) so that it is at most `maxPx` wide; the text itself when it fits.
 */
export function truncateMiddle(text: string, maxPx: number, fontSize = 10): string {
  if (textWidth(text, fontSize) <= maxPx) return text;
  const chars = [...text];
  let keep = chars.length - 1;
  while (keep > 1) {
    const head = Math.ceil(keep / 2);
    const candidate = `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (keep - head)).join("")}`;
    if (textWidth(candidate, fontSize) <= maxPx) return candidate;
    keep--;
  }
  return `${chars[0] ?? ""}…`;
}
