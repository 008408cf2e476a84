// `dumpsys gfxinfo <pkg>` summaries (AOSP libs/hwui/JankTracker.cpp dumpData), the HISTOGRAM and GPU HISTOGRAM
// lines and "Profile data in ms" rows (FrameInfoVisualizer). One summary per process and, from Android 6, one per
// window (after the window's line in "Profile data in ms:", or after `Window: <name>` from Android 12). A dump of
// every process (`dumpsys gfxinfo` without a package) holds one "** Graphics info for pid" block per process; a
// bare excerpt starting at `Stats since:` is one process-wide summary. Linear time: prefix checks and splits only.
import { windowOfLine } from "./framestats";

export interface GfxSummary {
  /** "process" or the window the block belongs to */
  scope: string;
  /** the window, null for the process-wide summary */
  window: string | null;
  pid: number | null;
  package: string | null;
  line: number;
  stats_since_ns: bigint | null;
  total_frames: number | null;
  janky_frames: number | null;
  janky_percent: number | null;
  /** "Janky frames (legacy)" (Android 12+: the count against the old fixed deadline) */
  janky_frames_legacy: number | null;
  /** percentile -> ms (50, 90, 95, 99) */
  percentiles: Record<number, number>;
  /** "50th gpu percentile: 7ms" (Android 10+) */
  gpu_percentiles: Record<number, number>;
  /** "Number Missed Vsync: 5" -> missed_vsync: 5; "(legacy)" counts get a _legacy suffix */
  counts: Record<string, number>;
  histogram: { ms: number; count: number }[];
  gpu_histogram: { ms: number; count: number }[];
}

export interface GfxinfoResult {
  /** the first process of the dump (most dumps hold one) */
  pid: number | null;
  package: string | null;
  processes: { pid: number; package: string; line: number }[];
  summaries: GfxSummary[];
  /** "Profile data in ms" rows per window: Draw, Prepare, Process, Execute (or the older three) */
  profile: { window: string; columns: string[]; rows: number[][] }[];
  windows: string[];
  warnings: string[];
  /** the last process block ends before its "Total ViewRootImpl" line: the file was cut short (null when whole) */
  truncated: string | null;
  /** figures that cannot all be true (more janky than rendered frames, a HISTOGRAM not adding up), by line */
  inconsistent: string[];
}

const MAX_QUOTE = 60;
const quote = (s: string) => (s.length > MAX_QUOTE ? `${s.slice(0, MAX_QUOTE)}...` : s);

function isDigits(s: string): boolean {
  if (s.length === 0 || s.length > 15) return false; // beyond 15 digits a count is not exact as a double
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** "12" -> 12, "1,234" (some locales group digits) -> 1234, else null. */
function count(s: string): number | null {
  const t = s.trim();
  if (isDigits(t)) return Number(t);
  const plain = t.replaceAll(",", "").replaceAll(".", "");
  return /^\d{1,3}([,.]\d{3})+$/.test(t) && isDigits(plain) ? Number(plain) : null;
}

/** "12.34" or "12,34" (the device's locale) -> 12.34; "nan", "-nan" (0 of 0 frames) -> null. */
function decimal(s: string): number | null {
  const t = s.trim().replace(",", ".");
  if (t.length === 0 || t.length > 20) return null;
  const n = Number(t);
  return /^\d+(\.\d+)?$/.test(t) && Number.isFinite(n) ? n : null;
}

/** "363 (10.77%)" -> [363, 10.77]; the percentage may be missing or "nan". */
function countAndPercent(s: string): [number | null, number | null] {
  const open = s.indexOf(" (");
  if (open < 0) return [count(s), null];
  const pct = s.endsWith("%)") ? decimal(s.slice(open + 2, -2)) : null;
  return [count(s.slice(0, open)), pct];
}

/** "5ms" -> 5 */
function ms(s: string): number | null {
  const t = s.trim();
  return t.endsWith("ms") ? decimal(t.slice(0, -2)) : null;
}

function parseHistogram(body: string, where: string, warnings: string[]) {
  const out: { ms: number; count: number }[] = [];
  for (const tok of body.trim().split(/\s+/)) {
    if (!tok) continue;
    const eq = tok.indexOf("ms=");
    const bucket = eq > 0 ? decimal(tok.slice(0, eq)) : null;
    const n = eq > 0 ? count(tok.slice(eq + 3)) : null;
    if (bucket === null || n === null) {
      warnings.push(`${where}: histogram bucket "${quote(tok)}" is not <ms>ms=<count>`);
      continue;
    }
    out.push({ ms: bucket, count: n });
  }
  return out;
}

function emptySummary(
  window: string | null,
  line: number,
  proc: { pid: number; package: string } | null,
): GfxSummary {
  return {
    scope: window ?? "process",
    window,
    pid: proc?.pid ?? null,
    package: proc?.package ?? null,
    line,
    stats_since_ns: null,
    total_frames: null,
    janky_frames: null,
    janky_percent: null,
    janky_frames_legacy: null,
    percentiles: {},
    gpu_percentiles: {},
    counts: {},
    histogram: [],
    gpu_histogram: [],
  };
}

/** "** Graphics info for pid 2720 [com.android.chrome] **" -> pid and package */
function processHeader(line: string): { pid: number; package: string } | null {
  const head = "** Graphics info for pid ";
  if (!line.startsWith(head) || !line.endsWith("] **")) return null;
  const rest = line.slice(head.length, -4);
  const sp = rest.indexOf(" [");
  if (sp <= 0 || !isDigits(rest.slice(0, sp))) return null;
  return { pid: Number(rest.slice(0, sp)), package: rest.slice(sp + 2) };
}

function isProfileRow(line: string): number[] | null {
  const toks = line.split(/\s+/);
  if (toks.length < 2) return null;
  const row: number[] = [];
  for (const t of toks) {
    const v = decimal(t);
    if (v === null) return null;
    row.push(v);
  }
  return row;
}

/** JankTracker counts every frame in HISTOGRAM and at most every frame in GPU HISTOGRAM; janky ones are a subset. */
function checkSummary(s: GfxSummary, file: string, out: string[]) {
  const where = `${file} line ${s.line}`;
  const total = s.total_frames;
  if (total === null) return;
  const sum = (h: { count: number }[]) => h.reduce((a, b) => a + b.count, 0);
  if (s.janky_frames !== null && s.janky_frames > total)
    out.push(`${where}: ${s.janky_frames} janky frames of ${total} rendered`);
  if (s.janky_frames_legacy !== null && s.janky_frames_legacy > total)
    out.push(`${where}: ${s.janky_frames_legacy} janky frames (legacy) of ${total} rendered`);
  if (s.histogram.length && sum(s.histogram) !== total)
    out.push(`${where}: HISTOGRAM holds ${sum(s.histogram)} frames, Total frames rendered says ${total}`);
  if (s.gpu_histogram.length && sum(s.gpu_histogram) > total)
    out.push(`${where}: GPU HISTOGRAM holds ${sum(s.gpu_histogram)} frames of ${total} rendered`);
}

/** "Total ViewRootImpl: 1" or "Total ViewRootImpl   : 0" (WindowManagerGlobal.dumpGfxInfo) */
function isViewRootTotal(line: string): boolean {
  if (!line.startsWith("Total ViewRootImpl")) return false;
  const rest = line.slice(18).trim();
  return rest.startsWith(":") && isDigits(rest.slice(1).trim());
}

export function parseGfxinfo(text: string, file = "gfxinfo"): GfxinfoResult {
  const lines = text.split(/\r\n|\n|\r/);
  const result: GfxinfoResult = {
    pid: null,
    package: null,
    processes: [],
    summaries: [],
    profile: [],
    windows: [],
    warnings: [],
    truncated: null,
    inconsistent: [],
  };
  let totalsSeen = false;
  let proc: { pid: number; package: string } | null = null;
  let current: GfxSummary | null = null;
  let window: string | null = null;
  let inProfile = false;
  let profileWindow: GfxinfoResult["profile"][number] | null = null;
  const open = (i: number) => {
    current = emptySummary(window, i + 1, proc);
    result.summaries.push(current);
    return current;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    const where = `${file} line ${i + 1}`;
    const header = processHeader(line);
    if (header) {
      proc = header;
      result.processes.push({ ...header, line: i + 1 });
      totalsSeen = false;
      if (result.pid === null) ((result.pid = header.pid), (result.package = header.package));
      ((current = null), (window = null), (inProfile = false), (profileWindow = null));
      continue;
    }
    if (line === "Profile data in ms:") {
      inProfile = true;
      continue;
    }
    if (line === "View hierarchy:") {
      ((inProfile = false), (profileWindow = null));
      continue;
    }
    if (line === "---PROFILEDATA---") {
      profileWindow = null; // framestats rows follow; the next window's line may come after them
      continue;
    }
    if (line.startsWith("Window: ")) {
      window = line.slice(8).trim() || null;
      current = null;
      continue;
    }
    const w = inProfile ? windowOfLine(raw) : null;
    if (w !== null) {
      window = w;
      result.windows.push(w);
      ((profileWindow = null), (current = null));
      continue;
    }
    const cols = inProfile && line.startsWith("Draw") ? line.split(/\s+/) : null;
    if (cols && cols.at(-1) === "Execute" && cols.length >= 3 && cols.length <= 4) {
      profileWindow = { window: window ?? "process", columns: cols, rows: [] };
      result.profile.push(profileWindow);
      continue;
    }
    const prow = profileWindow ? isProfileRow(line) : null;
    if (profileWindow && prow) {
      if (prow.length !== profileWindow.columns.length)
        result.warnings.push(
          `${where}: expected ${profileWindow.columns.length} profile columns, got ${prow.length}`,
        );
      else profileWindow.rows.push(prow);
      continue;
    }
    if (isViewRootTotal(line)) totalsSeen = true;
    const colon = line.indexOf(": ");
    if (colon < 0) continue;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2);
    if (key === "Stats since") {
      const ns = value.endsWith("ns") ? value.slice(0, -2) : "";
      const s = open(i);
      if (/^\d{1,19}$/.test(ns)) s.stats_since_ns = BigInt(ns);
      else result.warnings.push(`${where}: could not read "${quote(line)}"`);
      continue;
    }
    if (key === "Total frames rendered") {
      const s: GfxSummary = current && (current as GfxSummary).total_frames === null ? current : open(i);
      s.total_frames = count(value);
      if (s.total_frames === null) result.warnings.push(`${where}: could not read "${quote(line)}"`);
      continue;
    }
    const s = current as GfxSummary | null;
    if (!s) continue;
    let ok = true;
    if (key === "Janky frames") [s.janky_frames, s.janky_percent] = countAndPercent(value);
    else if (key === "Janky frames (legacy)") {
      s.janky_frames_legacy = countAndPercent(value)[0];
      ok = s.janky_frames_legacy !== null;
    } else if (key.endsWith("th percentile") || key.endsWith("th gpu percentile")) {
      const p = Number(key.slice(0, key.indexOf("th")));
      const v = ms(value);
      if (v === null || !Number.isInteger(p)) ok = false;
      else if (key.includes(" gpu ")) s.gpu_percentiles[p] = v;
      else s.percentiles[p] = v;
    } else if (key.startsWith("Number ")) {
      const n = count(value);
      const name = key.slice(7).trim().toLowerCase().replace(" (legacy)", "_legacy").replaceAll(" ", "_");
      if (n === null) ok = false;
      else s.counts[name] = n;
    } else if (line.startsWith("HISTOGRAM:"))
      s.histogram = parseHistogram(line.slice(10), where, result.warnings);
    else if (line.startsWith("GPU HISTOGRAM:"))
      s.gpu_histogram = parseHistogram(line.slice(14), where, result.warnings);
    if (key === "Janky frames" && s.janky_frames === null) ok = false;
    if (!ok) result.warnings.push(`${where}: could not read "${quote(line)}"`);
  }
  for (const x of result.summaries) checkSummary(x, file, result.inconsistent);
  const last = result.processes.at(-1);
  // Each process block ends with WindowManagerGlobal.dumpGfxInfo's "Total ViewRootImpl: N" (Android 4.1+).
  if (last && !totalsSeen)
    result.truncated =
      `${file} line ${lines.length}: the dump of pid ${last.pid} [${last.package}] (line ${last.line}) ends ` +
      `before its "Total ViewRootImpl" line: the file was cut short`;
  return result;
}
