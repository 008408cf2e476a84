// `dumpsys gfxinfo <pkg>` summaries (JankTracker.cpp), the HISTOGRAM line and "Profile data in ms" rows
// (CanvasContext/FrameInfoVisualizer). One summary for the process and, from Android 6, one per window.

export interface GfxSummary {
  /** "process" or the window the block belongs to */
  scope: string;
  line: number;
  stats_since_ns: bigint | null;
  total_frames: number | null;
  janky_frames: number | null;
  janky_percent: number | null;
  /** percentile -> ms (50, 90, 95, 99) */
  percentiles: Record<number, number>;
  /** "Number Missed Vsync: 5" -> missed_vsync: 5 */
  counts: Record<string, number>;
  histogram: { ms: number; count: number }[];
  gpu_histogram: { ms: number; count: number }[];
}

export interface GfxinfoResult {
  pid: number | null;
  package: string | null;
  summaries: GfxSummary[];
  /** "Profile data in ms" rows per window: Draw, Prepare, Process, Execute (or the older three) */
  profile: { window: string; columns: string[]; rows: number[][] }[];
  windows: string[];
  warnings: string[];
}

function parseHistogram(body: string, where: string, warnings: string[]) {
  const out: { ms: number; count: number }[] = [];
  for (const tok of body.trim().split(/\s+/)) {
    if (!tok) continue;
    const m = /^(\d+)ms=(\d+)$/.exec(tok);
    if (!m) {
      warnings.push(`${where}: histogram bucket "${tok}" is not <ms>ms=<count>`);
      continue;
    }
    out.push({ ms: Number(m[1]), count: Number(m[2]) });
  }
  return out;
}

function emptySummary(scope: string, line: number): GfxSummary {
  return {
    scope,
    line,
    stats_since_ns: null,
    total_frames: null,
    janky_frames: null,
    janky_percent: null,
    percentiles: {},
    counts: {},
    histogram: [],
    gpu_histogram: [],
  };
}

export function parseGfxinfo(text: string, file = "gfxinfo"): GfxinfoResult {
  const lines = text.split(/\r?\n/);
  const result: GfxinfoResult = {
    pid: null,
    package: null,
    summaries: [],
    profile: [],
    windows: [],
    warnings: [],
  };
  let current: GfxSummary | null = null;
  let scope = "process";
  let inProfile = false;
  let profileWindow: GfxinfoResult["profile"][number] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    const where = `${file} line ${i + 1}`;
    let m: RegExpExecArray | null;
    if ((m = /^\*\* Graphics info for pid (\d+) \[([^\]]+)\] \*\*$/.exec(line))) {
      result.pid = Number(m[1]);
      result.package = m[2]!;
      continue;
    }
    if (line === "Profile data in ms:") {
      inProfile = true;
      continue;
    }
    if (line === "View hierarchy:") {
      inProfile = false;
      profileWindow = null;
      continue;
    }
    if (inProfile && (m = /^(\S+\/\S+?)\s*(?:\(visibility=\d+\))?$/.exec(line)) && /^\s/.test(raw)) {
      scope = m[1]!;
      result.windows.push(scope);
      profileWindow = null;
      continue;
    }
    if (inProfile && /^Draw\s+(Prepare\s+)?Process\s+Execute$/.test(line)) {
      profileWindow = { window: scope, columns: line.split(/\s+/), rows: [] };
      result.profile.push(profileWindow);
      continue;
    }
    if (profileWindow && /^[\d.]+(\s+[\d.]+)+$/.test(line)) {
      const row = line.split(/\s+/).map(Number);
      if (row.length !== profileWindow.columns.length)
        result.warnings.push(
          `${where}: expected ${profileWindow.columns.length} profile columns, got ${row.length}`,
        );
      else profileWindow.rows.push(row);
      continue;
    }
    if ((m = /^Stats since: (\d+)ns$/.exec(line))) {
      current = emptySummary(inProfile ? scope : "process", i + 1);
      current.stats_since_ns = BigInt(m[1]!);
      result.summaries.push(current);
      continue;
    }
    if ((m = /^Total frames rendered: (\d+)$/.exec(line))) {
      if (!current) {
        current = emptySummary(inProfile ? scope : "process", i + 1);
        result.summaries.push(current);
      }
      current.total_frames = Number(m[1]);
      continue;
    }
    if (!current) continue;
    if ((m = /^Janky frames: (\d+) \(([\d.,]+)%\)$/.exec(line))) {
      current.janky_frames = Number(m[1]);
      current.janky_percent = Number(m[2]!.replace(",", "."));
    } else if ((m = /^(\d+)th percentile: (\d+)ms$/.exec(line)))
      current.percentiles[Number(m[1])] = Number(m[2]);
    else if ((m = /^Number ([A-Za-z ]+): (\d+)$/.exec(line)))
      current.counts[m[1]!.trim().toLowerCase().replace(/\s+/g, "_")] = Number(m[2]);
    else if ((m = /^HISTOGRAM:(.*)$/.exec(line)))
      current.histogram = parseHistogram(m[1]!, where, result.warnings);
    else if ((m = /^GPU HISTOGRAM:(.*)$/.exec(line)))
      current.gpu_histogram = parseHistogram(m[1]!, where, result.warnings);
    else if (/^Janky frames/.test(line) || /percentile/.test(line))
      result.warnings.push(`${where}: could not read "${line}"`);
  }
  return result;
}
