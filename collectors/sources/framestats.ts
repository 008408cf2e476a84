// `dumpsys gfxinfo <pkg> framestats`: the ---PROFILEDATA--- sections, one per window. The header line
// names the columns, so every Android version's layout is read the same way (AOSP libs/hwui/FrameInfo.cpp).

/** Column layouts of FrameInfo.cpp's FrameInfoNames across releases (what the header line prints). */
export const FRAMESTATS_LAYOUTS: readonly {
  since_api: number;
  release: string;
  columns: readonly string[];
}[] = [
  {
    since_api: 23, // framestats first printed in Android 6.0
    release: "6.0-7.1",
    columns: [
      "Flags",
      "IntendedVsync",
      "Vsync",
      "OldestInputEvent",
      "NewestInputEvent",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
    ],
  },
  {
    since_api: 26,
    release: "8.0-9",
    columns: [
      "Flags",
      "IntendedVsync",
      "Vsync",
      "OldestInputEvent",
      "NewestInputEvent",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
    ],
  },
  {
    since_api: 29,
    release: "10-11",
    columns: [
      "Flags",
      "IntendedVsync",
      "Vsync",
      "OldestInputEvent",
      "NewestInputEvent",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
    ],
  },
  {
    since_api: 31,
    release: "12-12L",
    columns: [
      "Flags",
      "FrameTimelineVsyncId",
      "IntendedVsync",
      "Vsync",
      "InputEventId",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "FrameDeadline",
      "FrameStartTime",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
      "SwapBuffersCompleted",
      "DisplayPresentTime",
    ],
  },
  {
    since_api: 33,
    release: "13",
    columns: [
      "Flags",
      "FrameTimelineVsyncId",
      "IntendedVsync",
      "Vsync",
      "InputEventId",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "FrameDeadline",
      "FrameStartTime",
      "FrameInterval",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
      "SwapBuffersCompleted",
      "DisplayPresentTime",
    ],
  },
  {
    since_api: 34,
    release: "14",
    columns: [
      "Flags",
      "FrameTimelineVsyncId",
      "IntendedVsync",
      "Vsync",
      "InputEventId",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "FrameDeadline",
      "FrameStartTime",
      "FrameInterval",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
      "SwapBuffersCompleted",
      "DisplayPresentTime",
      "CommandSubmissionCompleted",
    ],
  },
  {
    since_api: 35,
    release: "15",
    columns: [
      "Flags",
      "FrameTimelineVsyncId",
      "IntendedVsync",
      "Vsync",
      "InputEventId",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "FrameDeadline",
      "FrameStartTime",
      "FrameInterval",
      "WorkloadTarget",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
      "SwapBuffersCompleted",
      "DisplayPresentTime",
      "CommandSubmissionCompleted",
    ],
  },
  {
    since_api: 36,
    release: "16",
    columns: [
      "Flags",
      "FrameTimelineVsyncId",
      "IntendedVsync",
      "Vsync",
      "InputEventId",
      "HandleInputStart",
      "AnimationStart",
      "PerformTraversalsStart",
      "DrawStart",
      "FrameDeadline",
      "FrameStartTime",
      "FrameInterval",
      "WorkloadTarget",
      "AnimationTime",
      "SyncQueued",
      "SyncStart",
      "IssueDrawCommandsStart",
      "SwapBuffers",
      "FrameCompleted",
      "DequeueBufferDuration",
      "QueueBufferDuration",
      "GpuCompleted",
      "SwapBuffersCompleted",
      "DisplayPresentTime",
      "CommandSubmissionCompleted",
    ],
  },
];

/** The layout a device of this API level prints (null below API 23: no framestats). */
export function framestatsLayoutFor(api: number): readonly string[] | null {
  let found: readonly string[] | null = null;
  for (const l of FRAMESTATS_LAYOUTS) if (api >= l.since_api) found = l.columns;
  return found;
}

/** FrameInfo column name -> frames table column (IntendedVsync -> intended_vsync). */
export function frameColumnName(header: string): string {
  return header.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

export interface FrameRecord {
  window: string | null;
  /** frames-table column name -> value, ns (durations for *_duration) */
  values: Record<string, bigint>;
  /** 1-based line in the text it came from */
  line: number;
}

export interface FramestatsSection {
  window: string | null;
  columns: string[];
  frames: FrameRecord[];
  line: number;
}

export interface FramestatsResult {
  sections: FramestatsSection[];
  /** everything that could not be read, each naming file and line; valid rows are kept */
  warnings: string[];
  /** "Failure while dumping" or "No process found": the dump itself failed */
  failure: string | null;
}

const PROFILE_MARK = "---PROFILEDATA---";
const WINDOW_LINE = /^\s*(\S+\/\S+?)\s*(?:\(visibility=\d+\))?\s*$/;

/** Parses every PROFILEDATA section; rows that do not fit their header are reported and skipped. */
export function parseFramestats(text: string, file = "framestats"): FramestatsResult {
  const lines = text.split(/\r?\n/);
  const sections: FramestatsSection[] = [];
  const warnings: string[] = [];
  let failure: string | null = null;
  let window: string | null = null;
  let section: FramestatsSection | null = null;
  let expectHeader = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    const where = `${file} line ${i + 1}`;
    if (/Failure while dumping|No process found for/.test(line)) failure ??= `${where}: ${line}`;
    if (line === PROFILE_MARK) {
      if (section) {
        sections.push(section);
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
      section = { window, columns, frames: [], line: i + 1 };
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
      for (let c = 0; c < fields.length; c++) {
        const f = fields[c]!.trim();
        if (!/^-?\d+$/.test(f)) {
          bad = c;
          break;
        }
        values[frameColumnName(section.columns[c]!)] = BigInt(f);
      }
      if (bad >= 0) {
        warnings.push(`${where}: field ${section.columns[bad]} is not an integer ("${fields[bad]}")`);
        continue;
      }
      section.frames.push({ window: section.window, values, line: i + 1 });
      continue;
    }
    const w = WINDOW_LINE.exec(raw);
    if (w && /^\s/.test(raw)) window = w[1]!;
  }
  if (section) {
    warnings.push(
      `${file} line ${lines.length}: PROFILEDATA section opened at line ${section.line - 1} never closed; kept its ${section.frames.length} rows`,
    );
    sections.push(section);
  }
  return { sections, warnings, failure };
}
