// `dumpsys gfxinfo <pkg> framestats`: the ---PROFILEDATA--- sections, one per window. The header line
// names the columns, so every Android version's layout is read the same way (AOSP libs/hwui/FrameInfo.cpp).
// Linear time in the input: lines are split once and every check is a scan, no backtracking pattern.
export { FRAMESTATS_LAYOUTS, framestatsLayoutFor, frameColumnName } from "./framestats-layouts";
import { frameColumnName } from "./framestats-layouts";
import { farTimestamps, fixIntervalOrder, frameSuspect, MAX_PLAUSIBLE_FRAME_NS } from "./frame-checks";
export { farTimestamps, frameEnd, incompleteWhy, MAX_PLAUSIBLE_FRAME_NS } from "./frame-checks";

export interface FrameRecord {
  window: string | null;
  /** frames-table column name -> value, ns (durations for *_duration) */
  values: Record<string, bigint>;
  /** 1-based line in the text it came from */
  line: number;
  /** why the row's times are impossible (frames.suspect); absent when plausible */
  suspect?: string;
}

export interface FramestatsSection {
  window: string | null;
  columns: string[];
  frames: FrameRecord[];
  line: number;
  /** which dumpsys output of the file the section came from (0-based): a saved polling session holds several */
  dump: number;
}

export interface FramestatsResult {
  sections: FramestatsSection[];
  /** everything that could not be read, each naming file and line; valid rows are kept */
  warnings: string[];
  /** what was read but corrected or flagged (column order fixed, suspect rows); the data is still whole */
  notices: string[];
  /** "Failure while dumping" or "No process found": the dump itself failed */
  failure: string | null;
  /** rows flagged suspect, by reason kind */
  suspect: {
    negative: number;
    tooLong: number;
    overflow: number;
    notATime: number;
    incomplete: number;
    impossible: number;
  };
}

const PROFILE_MARK = "---PROFILEDATA---";
/** Each dumpsys gfxinfo output starts with this line (GraphicsStatsService / ActivityManagerService). */
const DUMP_START = "Applications Graphics Acceleration Info:";
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * The window a line of `dumpsys gfxinfo` names, or null: an indented `<pkg>/<activity>/android.view.ViewRootImpl@x`
 * with an optional ` (visibility=N)`. Checked by hand, not by a regular expression, so that a 300 KB token costs
 * one pass over it (a backtracking pattern such as \S+\/\S+? is quadratic in it).
 */
export function windowOfLine(raw: string): string | null {
  if (raw.length === 0 || (raw[0] !== " " && raw[0] !== "\t")) return null;
  let t = raw.trim();
  const vis = t.lastIndexOf(" (visibility=");
  if (vis > 0 && t.endsWith(")")) {
    const digits = t.slice(vis + 13, -1);
    if (digits.length > 0 && isDigits(digits, 0)) t = t.slice(0, vis).trimEnd();
  }
  const slash = t.indexOf("/");
  if (slash <= 0 || slash === t.length - 1) return null;
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) <= 32) return null;
  return t;
}

function isDigits(s: string, from: number): boolean {
  if (from >= s.length) return false;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function isInteger(s: string): boolean {
  return isDigits(s, s[0] === "-" ? 1 : 0);
}

/** Parses every PROFILEDATA section; rows that do not fit their header are reported and skipped. */
export function parseFramestats(text: string, file = "framestats"): FramestatsResult {
  const lines = text.split(/\r\n|\n|\r/);
  const sections: FramestatsSection[] = [];
  const warnings: string[] = [];
  const notices: string[] = [];
  const suspect = { negative: 0, tooLong: 0, overflow: 0, notATime: 0, incomplete: 0, impossible: 0 };
  let failure: string | null = null;
  let window: string | null = null;
  let section: FramestatsSection | null = null;
  let keys: string[] = []; // the section's frames-table column names, worked out once per header
  let expectHeader = false;
  let dump = 0;
  let dumpStarted = false;
  let sectionInDump = false;
  const windowsInDump = new Set<string>();
  const farAway = new Map<string, number>(); // timestamp column -> rows where it is far from IntendedVsync
  const close = (s: FramestatsSection) => {
    fixIntervalOrder(s, `${file} line ${s.line}`, notices);
    for (const f of s.frames) {
      const why = frameSuspect(f.values);
      if (why) {
        suspect[why.kind]++;
        f.suspect = f.suspect ? `${f.suspect}; ${why.why}` : why.why;
      } else for (const c of farTimestamps(f.values)) farAway.set(c, (farAway.get(c) ?? 0) + 1);
    }
    sections.push(s);
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    const where = `${file} line ${i + 1}`;
    if (line.includes("Failure while dumping") || line.includes("No process found for"))
      failure ??= `${where}: ${line.slice(0, 200)}`;
    if (line === PROFILE_MARK) {
      if (section) {
        close(section);
        section = null;
      } else expectHeader = true;
      continue;
    }
    if (expectHeader) {
      expectHeader = false;
      const columns = line.split(",").filter((c) => c.length > 0);
      if (!columns.includes("IntendedVsync")) {
        warnings.push(
          `${where}: expected a framestats header naming IntendedVsync, got "${line.slice(0, 60)}"`,
        );
        // skip to the closing marker
        while (i + 1 < lines.length && lines[i + 1]!.trim() !== PROFILE_MARK) i++;
        i++;
        continue;
      }
      // One dump prints each window once: the same window again is the next dump of a saved polling session.
      if (windowsInDump.has(window ?? "")) ((dump += 1), windowsInDump.clear());
      windowsInDump.add(window ?? "");
      sectionInDump = true;
      section = { window, columns, frames: [], line: i + 1, dump };
      keys = columns.map(frameColumnName);
      continue;
    }
    if (section) {
      if (line === "") continue;
      const fields = line.split(",");
      if (fields[fields.length - 1] === "") fields.pop(); // hwui ends each row with a comma
      if (fields.length !== section.columns.length) {
        warnings.push(`${where}: expected ${section.columns.length} fields, got ${fields.length}`);
        continue;
      }
      const values: Record<string, bigint> = {};
      let bad = -1;
      const overflow: string[] = [];
      for (let c = 0; c < fields.length; c++) {
        const f = fields[c]!.trim();
        if (!isInteger(f)) {
          bad = c;
          break;
        }
        const v = BigInt(f);
        const name = section.columns[c]!;
        const key = keys[c]!;
        // A value beyond int64 would wrap in the Arrow column: drop it and say so.
        if (v > INT64_MAX || v < INT64_MIN) overflow.push(`${name} overflows int64 (${f.slice(0, 30)})`);
        else values[key] = v;
      }
      if (bad >= 0) {
        warnings.push(
          `${where}: field ${section.columns[bad]} is not an integer ("${fields[bad]!.slice(0, 40)}")`,
        );
        continue;
      }
      if (values.intended_vsync === undefined) {
        warnings.push(`${where}: ${overflow.join("; ")}: the row cannot be placed in time; left out`);
        continue;
      }
      const rec: FrameRecord = { window: section.window, values, line: i + 1 };
      if (overflow.length) {
        suspect.overflow++;
        rec.suspect = overflow.join("; ");
      }
      section.frames.push(rec);
      continue;
    }
    if (line === DUMP_START) {
      if (dumpStarted || sectionInDump) dump++;
      dumpStarted = true;
      sectionInDump = false;
      windowsInDump.clear();
      window = null;
      continue;
    }
    if (line.startsWith("** Graphics info for pid ")) {
      window = null;
      continue;
    }
    const w = windowOfLine(raw);
    if (w !== null) window = w;
  }
  if (section) {
    warnings.push(
      `${file} line ${lines.length}: PROFILEDATA section opened at line ${section.line - 1} never closed; kept its ${section.frames.length} rows`,
    );
    close(section);
  } else if (expectHeader)
    warnings.push(`${file} line ${lines.length}: the file ends right after a PROFILEDATA marker`);
  if (farAway.size)
    notices.push(
      `${file}: timestamps more than ${Number(MAX_PLAUSIBLE_FRAME_NS) / 1e9} s from their frame's IntendedVsync, ` +
        `kept as printed (stale or sentinel values; durations do not use them): ` +
        [...farAway].map(([c, n]) => `${c} in ${n} rows`).join(", "),
    );
  let flagged = 0;
  for (const sec of sections) for (const f of sec.frames) if (f.suspect) flagged++;
  if (flagged)
    notices.push(
      `${file}: ${flagged} frame rows flagged suspect (frames.suspect) and left out of analyses by default (a row may have several reasons): ` +
        `${suspect.negative} negative duration, ${suspect.tooLong} longer than ${Number(MAX_PLAUSIBLE_FRAME_NS) / 1e9} s, ` +
        `${suspect.overflow} int64 overflow, ${suspect.notATime} IntendedVsync not a time, ` +
        `${suspect.incomplete} not completed when dumped` +
        (suspect.impossible
          ? `, ${suspect.impossible} with a pipeline timestamp or buffer duration no frame can have`
          : ""),
    );
  return { sections, warnings, notices, failure, suspect };
}
