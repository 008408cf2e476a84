// The registry of file importers behind `jankbook import`: each entry detects its kind from the content
// (never the file name) and reads the file. To add a kind, write collectors/import/<kind>.ts and add one
// line to IMPORTERS; binary kinds go before the text ones, which see decoded text.
import type { TextImport } from "./framestats";
import { decodeText, type DecodedText } from "../sources/text-decode";
import { importDumpsysBattery, importDumpsysDisplay, importGetprop, importWmSize } from "./device-context";
import { detectFramestats, importFramestats } from "./framestats";
import { detectGfxinfo, importGfxinfo } from "./gfxinfo";
import { detectLogcat, importLogcat } from "./logcat";
import { importMacrobenchmark, type BenchmarkRun } from "./macrobenchmark";
import { detectMethodTrace, importMethodTrace } from "./method-trace";
import { detectPerfetto, importPerfetto } from "./perfetto";
import { detectSystrace, importSystrace } from "./systrace";
import { detectSimpleperfStat, importSimpleperfStat } from "./simpleperf";
import {
  looksLikeDumpsysBattery,
  looksLikeDumpsysDisplay,
  looksLikeGetprop,
  looksLikeWmSize,
} from "../sources/device-props";
import { looksLikeBenchmarkData } from "../sources/macrobenchmark";

/** One file to import: its bytes, and its text decoded once on first use. */
export class ImportFile {
  private decoded: DecodedText | null = null;
  constructor(
    readonly name: string,
    readonly bytes: Uint8Array,
  ) {}
  get text(): string {
    this.decoded ??= decodeText(this.bytes);
    return this.decoded.text;
  }
  get encoding(): DecodedText | null {
    return this.decoded;
  }
}

export interface ImportOptions {
  runId: string;
  /** display refresh rate known from the context files or --context, for deadlines */
  refreshHz: number | null;
}

/** A file holding one session's data (merged into one run), or a folder of runs (Macrobenchmark). */
export type ImportOutput = (TextImport & { files?: Record<string, string> }) | { runs: BenchmarkRun[] };

export interface Importer {
  kind: string;
  /** shown in the list of accepted kinds */
  describe: string;
  /** true when the file is context only (getprop, wm size, ...): read before the data files */
  context?: boolean;
  /** true when the file is a folder of runs of its own (Macrobenchmark), not part of a session's run */
  runs?: boolean;
  detect(f: ImportFile): boolean;
  import(f: ImportFile, o: ImportOptions): ImportOutput;
}

export const IMPORTERS: readonly Importer[] = [
  {
    kind: "method-trace",
    describe: "method trace (dmtrace v1-3, ART streaming, AndroScope extended)",
    detect: (f) => detectMethodTrace(f.bytes),
    import: (f, o) => importMethodTrace(f.bytes, f.name, o.runId),
  },
  {
    kind: "perfetto",
    describe: "Perfetto trace (.perfetto-trace, .pftrace, .trace: FrameTimeline, slices, sched, counters)",
    detect: (f) => detectPerfetto(f.bytes),
    import: (f, o) => importPerfetto(f.bytes, f.name, o.runId),
  },
  {
    kind: "systrace",
    describe: "systrace / atrace (ftrace text, atrace -z .ctrace, systrace .html old and new)",
    detect: (f) => detectSystrace(f.bytes),
    import: (f, o) => importSystrace(f.bytes, f.name, o.runId),
  },
  {
    kind: "macrobenchmark",
    describe: "androidx.benchmark *-benchmarkData.json (one run per iteration)",
    runs: true,
    detect: (f) => looksLikeBenchmarkData(f.text),
    import: (f, o) => ({ runs: importMacrobenchmark(f.text, f.name, o.runId, o.refreshHz) }),
  },
  {
    kind: "simpleperf-stat",
    describe: "simpleperf stat output (text or --csv)",
    detect: (f) => detectSimpleperfStat(f.text),
    import: (f, o) => importSimpleperfStat(f.text, f.name, o.runId),
  },
  {
    kind: "framestats",
    describe: "dumpsys gfxinfo <pkg> framestats",
    detect: (f) => detectFramestats(f.text),
    import: (f, o) => importFramestats(f.text, f.name, o.runId),
  },
  {
    kind: "gfxinfo",
    describe: "dumpsys gfxinfo <pkg> (summary)",
    detect: (f) => detectGfxinfo(f.text),
    import: (f, o) => importGfxinfo(f.text, f.name, o.runId),
  },
  {
    kind: "logcat",
    describe:
      "logcat (threadtime, brief, time, process, thread, tag, long, -v monotonic/year/uid, Android Studio copy)",
    detect: (f) => detectLogcat(f.text),
    import: (f, o) => importLogcat(f.text, f.name, o.runId),
  },
  {
    kind: "getprop",
    describe: "adb shell getprop",
    context: true,
    detect: (f) => looksLikeGetprop(f.text),
    import: (f) => importGetprop(f.text, f.name),
  },
  {
    kind: "wm-size",
    describe: "adb shell wm size",
    context: true,
    detect: (f) => looksLikeWmSize(f.text),
    import: (f) => importWmSize(f.text, f.name),
  },
  {
    kind: "dumpsys-display",
    describe: "adb shell dumpsys display",
    context: true,
    detect: (f) => looksLikeDumpsysDisplay(f.text),
    import: (f) => importDumpsysDisplay(f.text, f.name),
  },
  {
    kind: "dumpsys-battery",
    describe: "adb shell dumpsys battery",
    context: true,
    detect: (f) => looksLikeDumpsysBattery(f.text),
    import: (f) => importDumpsysBattery(f.text, f.name),
  },
];

/** The first 48 bytes, printable: text as a JSON string, other bytes as \xNN. */
export function describeStart(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 48);
  let s = "";
  for (const b of head)
    s +=
      b >= 32 && b < 127
        ? String.fromCharCode(b)
        : b === 10
          ? "\\n"
          : b === 13
            ? "\\r"
            : b === 9
              ? "\\t"
              : `\\x${b.toString(16).padStart(2, "0")}`;
  return `"${s}"${bytes.length > 48 ? "..." : ""} (${bytes.length} bytes)`;
}

export class ImportError extends Error {}

/** The importer for a file; an empty file or one of no known kind is an ImportError saying why. */
export function detectImporter(f: ImportFile, importers: readonly Importer[] = IMPORTERS): Importer {
  if (f.bytes.length === 0) throw new ImportError(`${f.name}: the file is empty`);
  if (f.text.trim() === "") throw new ImportError(`${f.name}: the file holds only blank space`);
  const found = importers.find((i) => i.detect(f));
  if (found) return found;
  const gz = f.bytes[0] === 0x1f && f.bytes[1] === 0x8b ? " (gzip-compressed: gunzip it first)" : "";
  const zip = f.bytes[0] === 0x50 && f.bytes[1] === 0x4b ? " (a zip archive: unzip it first)" : "";
  throw new ImportError(
    `${f.name}: not a kind jankbook imports${gz}${zip}; it starts with ${describeStart(f.bytes)}. Accepted: ${importers.map((i) => i.describe).join("; ")}`,
  );
}
