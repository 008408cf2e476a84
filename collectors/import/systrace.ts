// Importer for legacy systrace and atrace output (plain ftrace text, `atrace -z` .ctrace, systrace HTML old and
// new, JS-escaped text) into slices, thread_states, counter_samples, threads and processes.
//
// Clock: ftrace prints its trace_clock, which atrace sets to `boot` when the kernel has it, else `mono`, else
// `global` (AOSP frameworks/native/cmds/atrace/atrace.cpp, setClock). So Android 9+ files are CLOCK_BOOTTIME,
// older ones CLOCK_MONOTONIC; the text carries no snapshot relating the two (trace_event_clock_sync gives only
// a parent or realtime clock), so times are kept as printed and the manifest says so.
import type { Manifest } from "../../bundle/manifest";
import { tracesToTables } from "../sources/perfetto/rows";
import { parseSystraceText, type SystraceParse } from "../sources/systrace/parse-systrace";
import { sniffSystrace, unwrapSystrace } from "../sources/systrace/unwrap-systrace";
import { decodeText, sniffEncoding } from "../sources/text-decode";
import { inflateKeepBounded } from "./bounded-inflate";
import type { TextImport } from "./framestats";

export type SystraceImport = TextImport & { clock: Manifest["clock"] };

export function detectSystrace(bytes: Uint8Array): boolean {
  return sniffSystrace(asUtf8(bytes).bytes) !== null;
}

/** Systrace text saved as UTF-16 (PowerShell 5's `>`, a Windows editor) as the UTF-8 the unwrapper reads;
 * binary .ctrace and UTF-8 pass untouched (text-decode.ts tells them apart by BOM and zero bytes). */
function asUtf8(bytes: Uint8Array): { bytes: Uint8Array; note?: string } {
  const { encoding, bom } = sniffEncoding(bytes);
  if (encoding === "utf-8") return { bytes };
  const d = decodeText(bytes);
  return {
    bytes: new TextEncoder().encode(d.text),
    note: `read as ${encoding.toUpperCase()} (${bom ? "byte order mark" : "zero bytes between characters"})${d.invalid ? `; ${d.invalid} invalid code units replaced by U+FFFD` : ""}`,
  };
}

export function importSystrace(raw: Uint8Array, file: string, runId: string): SystraceImport {
  const { bytes, note } = asUtf8(raw);
  const u = unwrapSystrace(bytes, file, (b) => inflateKeepBounded(b));
  const p = parseSystraceText(u.texts.join("\n"), file);
  const warnings = [...(note ? [`${file}: ${note}`] : []), ...u.warnings, ...p.warnings];
  if (p.ignored.size)
    warnings.push(
      `${file}: kernel events not kept: ${[...p.ignored].map(([k, n]) => `${k} ${n}`).join(", ")}`,
    );
  return {
    context: { app: mainApp(p) ?? "unknown", scenario: `import ${file}` },
    tables: tracesToTables(p.rows, runId),
    warnings,
    complete: p.complete && !u.partial,
    source: { kind: `systrace-${u.flavour}`, origin: file },
    clock: {
      domain: "ftrace trace_clock",
      offset_ns: 0,
      note:
        "times as printed: CLOCK_BOOTTIME when atrace chose `boot` (Android 9+), CLOCK_MONOTONIC with `mono`; " +
        "systrace text holds no snapshot to convert them, so they may be ahead of CLOCK_MONOTONIC by the time the device slept",
    },
  };
}

// The process with the most slices: what the trace was taken for, as far as the file can tell.
function mainApp(p: SystraceParse): string | null {
  const count = new Map<number, number>();
  for (const s of p.rows.slices) if (s.pid !== null) count.set(s.pid, (count.get(s.pid) ?? 0) + 1);
  const top = [...count].sort((a, b) => b[1] - a[1])[0];
  return top ? (p.rows.processes.find((x) => x.pid === top[0])?.name ?? null) : null;
}
