// Importer for Perfetto traces (.perfetto-trace, .pftrace, .trace or no name at all: the content decides):
// FrameTimeline, the app's frames, slices, thread states, counters, processes and threads.
import type { Manifest } from "../../bundle/manifest";
import { makeBundleTable } from "../../bundle/table-builder";
import { ProtoReader } from "../sources/perfetto/proto-reader";
import { tracesToTables } from "../sources/perfetto/rows";
import { mainAppPid, timelineFrames } from "../sources/perfetto/timeline-frames";
import { appVersion, busiestAppPid } from "../sources/perfetto/trace-app";
import { decodePerfetto, type PerfettoDecodeOptions } from "../sources/perfetto/trace-decoder";
import type { TextImport } from "./framestats";
import { inflateBounded } from "./bounded-inflate";
import { flagImpossibleTimes } from "./impossible-times";

export interface PerfettoImport extends TextImport {
  /** for the manifest: the domain the timestamps are in and the offset applied to get there */
  clock: Manifest["clock"];
}

/** True when the bytes start like `Trace { packet = 1 }`: whole packets of well-formed protobuf fields. */
export function detectPerfetto(bytes: Uint8Array): boolean {
  if (bytes.length < 2 || bytes[0] !== 0x0a) return false;
  let p = 0;
  let seen = 0;
  try {
    while (p < bytes.length && seen < 8) {
      const r = new ProtoReader(bytes, p, bytes.length);
      if (r.tag() !== 0x0a) return false;
      const n = r.varint();
      const end = r.pos + n;
      // A cut first packet still counts if what there is of it reads as fields.
      walkFields(bytes, r.pos, Math.min(end, bytes.length), end > bytes.length);
      seen++;
      p = end;
    }
  } catch {
    return false;
  }
  return seen > 0;
}

function walkFields(bytes: Uint8Array, start: number, end: number, cut: boolean) {
  const r = new ProtoReader(bytes, start, end);
  try {
    while (r.more()) r.skip(r.tag() & 7);
  } catch (e) {
    if (!cut || !/runs past the end/.test((e as Error).message)) throw e;
  }
}

export function importPerfetto(
  bytes: Uint8Array,
  file: string,
  runId: string,
  options: PerfettoDecodeOptions = { inflate: (b) => inflateBounded(b) },
): PerfettoImport {
  const d = decodePerfetto(bytes, options);
  const warnings = d.warnings.map((w) => `${file}: ${w}`);
  const tables = tracesToTables(d.rows, runId);
  const pid = mainAppPid(d.rows.frameTimeline);
  const appPid = pid ?? busiestAppPid(d.rows);
  const app = d.rows.processes.find((p) => p.pid === appPid)?.name ?? "unknown";
  if (pid !== null) {
    const f = timelineFrames(d.rows.frameTimeline, pid);
    warnings.push(...flagImpossibleTimes(file, tables, f));
    if (f.count) tables.frames = makeBundleTable("frames", runId, f.columns, f.count);
    if (f.unfinished)
      warnings.push(`${file}: ${f.unfinished} app frames still open when the trace ended: not in frames`);
    if (f.unpredicted)
      warnings.push(
        `${file}: ${f.unpredicted} app frames without an expected timeline slice: judged from their own start against 16.67 ms`,
      );
  }
  if (pid === null) warnings.push(...flagImpossibleTimes(file, tables, null));
  if (!d.frameTimeline) {
    // Say what was imported instead only from the tables written: a trace with none of them gets no such claim.
    const other = Object.entries(tables)
      .filter(([name, t]) => name !== "frames" && (t?.numRows ?? 0) > 0)
      .map(([name, t]) => `${name} (${t!.numRows})`);
    warnings.push(
      `${file}: no FrameTimeline in this trace, so no frames: FrameTimeline needs Android 12+ and the android.surfaceflinger.frametimeline data source; ${other.length ? `imported: ${other.join(", ")}` : "nothing else in it was imported either"}`,
    );
  }
  const c = d.clock;
  const clock: Manifest["clock"] = c.converted
    ? {
        domain: "CLOCK_MONOTONIC",
        offset_ns: c.offsetNs,
        note: `Perfetto ${c.source} (clock 6) + offset_ns = MONOTONIC, from ${c.snapshots} ClockSnapshots${c.offsets.length > 1 ? ` (${c.offsets.length} offsets: device suspended; nearest snapshot per timestamp)` : ""}`,
      }
    : {
        domain: "CLOCK_BOOTTIME",
        offset_ns: 0,
        note: "Perfetto trace without a BOOTTIME/MONOTONIC ClockSnapshot",
      };
  return {
    context: {
      ...d.system.context(),
      app,
      app_version: app === "unknown" ? null : appVersion(d.rows, d.system, appPid, app),
      scenario: `import ${file}`,
    },
    tables,
    warnings,
    complete: d.complete,
    source: { kind: "perfetto", origin: file },
    clock,
  };
}
