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
    /** set when `bytes` are only the file's start (enough to detect its kind): the file, read in chunks */
    readonly path: string | null = null,
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

/** A kind of session data detected and read from the file's bytes (binary formats, and text ones that unwrap
 * their own) or from its decoded text. */
function dataKind<From extends "bytes" | "text">(
  from: From,
  kind: string,
  describe: string,
  detect: (content: ImportFile[From]) => boolean,
  read: (content: ImportFile[From], file: string, runId: string) => ImportOutput,
): Importer {
  return { kind, describe, detect: (f) => detect(f[from]), import: (f, o) => read(f[from], f.name, o.runId) };
}

/** A context file: text describing the device, read before the data files and tied to no run. */
function contextKind(
  kind: string,
  describe: string,
  detect: (text: string) => boolean,
  read: (text: string, file: string) => ImportOutput,
): Importer {
  return {
    kind,
    describe,
    context: true,
    detect: (f) => detect(f.text),
    import: (f) => read(f.text, f.name),
  };
}

export const IMPORTERS: readonly Importer[] = [
  dataKind(
    "bytes",
    "method-trace",
    "method trace (dmtrace v1-3, ART streaming, AndroScope extended)",
    detectMethodTrace,
    importMethodTrace,
  ),
  dataKind(
    "bytes",
    "perfetto",
    "Perfetto trace (.perfetto-trace, .pftrace, .trace: FrameTimeline, slices, sched, counters)",
    detectPerfetto,
    importPerfetto,
  ),
  dataKind(
    "bytes",
    "systrace",
    "systrace / atrace (ftrace text, atrace -z .ctrace, systrace .html old and new)",
    detectSystrace,
    importSystrace,
  ),
  {
    kind: "macrobenchmark",
    describe: "androidx.benchmark *-benchmarkData.json (one run per iteration)",
    runs: true,
    detect: (f) => looksLikeBenchmarkData(f.text),
    import: (f, o) => ({ runs: importMacrobenchmark(f.text, f.name, o.runId, o.refreshHz) }),
  },
  dataKind(
    "text",
    "simpleperf-stat",
    "simpleperf stat output (text or --csv)",
    detectSimpleperfStat,
    importSimpleperfStat,
  ),
  dataKind("text", "framestats", "dumpsys gfxinfo <pkg> framestats", detectFramestats, importFramestats),
  dataKind("text", "gfxinfo", "dumpsys gfxinfo <pkg> (summary)", detectGfxinfo, importGfxinfo),
  dataKind(
    "text",
    "logcat",
    "logcat (threadtime, brief, time, process, thread, tag, long, -v monotonic/year/uid, Android Studio copy)",
    detectLogcat,
    importLogcat,
  ),
  contextKind("getprop", "adb shell getprop", looksLikeGetprop, importGetprop),
  contextKind("wm-size", "adb shell wm size", looksLikeWmSize, importWmSize),
  contextKind("dumpsys-display", "adb shell dumpsys display", looksLikeDumpsysDisplay, importDumpsysDisplay),
  contextKind("dumpsys-battery", "adb shell dumpsys battery", looksLikeDumpsysBattery, importDumpsysBattery),
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
