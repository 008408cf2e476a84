// The text parts of a method trace: the key section (*version, key=value lines, *threads, *methods,
// *end), method definition lines, and a description of bytes that are not a trace, for errors.
// Format: AOSP art runtime/trace.cc and tools/dmtracedump; Dalvik vm/Profile.c.
import type { TraceMethod, TraceThread } from "./method-trace";

export interface Key {
  version: number;
  properties: Record<string, string>;
  threads: TraceThread[];
  methods: TraceMethod[];
  warnings: string[];
}

/** Parses the key text; `at` is its byte offset in the file, for messages. */
export function parseKey(text: string, at: number): Key {
  const key: Key = { version: 0, properties: {}, threads: [], methods: [], warnings: [] };
  let section = "";
  let lineNo = 0;
  for (const raw of text.split("\n")) {
    lineNo++;
    const line = raw.replace(/\r$/, "");
    if (line.startsWith("*")) {
      section = line.slice(1);
      if (section === "end") break;
      continue;
    }
    if (line === "") continue;
    const where = `key section (byte ${at}) line ${lineNo}`;
    if (section === "version") {
      if (/^\d+$/.test(line) && key.version === 0) key.version = Number(line);
      else {
        const eq = line.indexOf("=");
        if (eq > 0) key.properties[line.slice(0, eq)] = line.slice(eq + 1);
        else key.warnings.push(`${where}: unexpected ${JSON.stringify(line.slice(0, 40))}`);
      }
    } else if (section === "threads") {
      const tab = line.indexOf("\t");
      const id = Number(line.slice(0, tab));
      if (tab > 0 && Number.isInteger(id)) key.threads.push({ id, name: line.slice(tab + 1) });
      else
        key.warnings.push(
          `${where}: expected "<thread id>\\t<name>", got ${JSON.stringify(line.slice(0, 40))}`,
        );
    } else if (section === "methods") {
      const m = parseMethodLine(line);
      if (m) key.methods.push(m);
      else
        key.warnings.push(
          `${where}: expected "<id>\\t<class>\\t<method>\\t<signature>", got ${JSON.stringify(line.slice(0, 60))}`,
        );
    }
  }
  if (key.version === 0) key.warnings.push(`key section (byte ${at}): no version number after *version`);
  return key;
}

/** "<id>\t<class>\t<method>\t<signature>[\t<source file>[\t<line>]]", or null. */
export function parseMethodLine(line: string): TraceMethod | null {
  const f = line.split("\t");
  if (f.length < 4) return null;
  const id = Number(f[0]); // "0x62830738", or "0" (ART prints %#x)
  if (!Number.isInteger(id) || id < 0) return null;
  const m: TraceMethod = { id, className: f[1]!, methodName: f[2]!, signature: f[3]! };
  if (f[4] !== undefined && f[4] !== "") m.sourceFile = f[4];
  if (f[5] !== undefined && /^-?\d+$/.test(f[5])) m.line = Number(f[5]);
  return m;
}

/** Offset of the "*end" line that closes the key section, or -1. */
export function findKeyEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = bytes.indexOf(0x2a); i >= 0 && i + 5 <= n; i = bytes.indexOf(0x2a, i + 1)) {
    if ((i === 0 || bytes[i - 1] === 0x0a) && startsWith(bytes, i, "*end\n")) return i;
  }
  return -1;
}

export function startsWith(bytes: Uint8Array, at: number, s: string): boolean {
  if (at + s.length > bytes.length) return false;
  for (let i = 0; i < s.length; i++) if (bytes[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** A short description of what the bytes at `at` look like, for errors. */
export function describeBytes(bytes: Uint8Array, at: number): string {
  if (bytes.length === 0) return "an empty file (0 bytes)";
  if (at >= bytes.length) return `nothing: the file ends at byte ${bytes.length}`;
  const head = bytes.subarray(at, at + 48);
  const perfetto = perfettoPacket(bytes, at);
  if (perfetto > 0)
    return `a Perfetto trace (protobuf Trace: field 1 TracePacket of ${perfetto} bytes at byte ${at}), not this format`;
  // atrace -z / systrace: the "TRACE:" marker line, then zlib data (header 78 01, 78 5e, 78 9c or 78 da).
  const marker = startsWith(bytes, at, "TRACE:\n") ? 7 : startsWith(bytes, at, "TRACE:\r\n") ? 8 : 0;
  if (marker && bytes[at + marker] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(bytes[at + marker + 1]!))
    return `a compressed systrace ("TRACE:" then zlib data at byte ${at + marker}), not this format`;
  const hex = Array.from(head.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ");
  if (head[0] === 0x1f && head[1] === 0x8b)
    return `gzip-compressed data (magic 1f 8b at byte ${at}; a compressed systrace or a .gz saved as .trace? gunzip it first)`;
  if (head[0] === 0x50 && head[1] === 0x4b) return `a zip archive (magic "PK" at byte ${at})`;
  const printable =
    head.length > 0 && head.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  if (printable) {
    const s = new TextDecoder().decode(head);
    if (/^\s*#?\s*tracer:|TRACE:/.test(s)) return `systrace/ftrace text at byte ${at}: ${JSON.stringify(s)}`;
    return `text at byte ${at}: ${JSON.stringify(s)}`;
  }
  return `binary bytes at byte ${at}: ${hex}`;
}

/**
 * The length of the TracePacket a Perfetto trace starts with at `at`, or 0: tag 0x0a (Trace field 1,
 * length-delimited; perfetto protos/perfetto/trace/trace.proto), a varint length that fits in the file, and
 * a first packet byte that is itself a valid tag (field >= 1, wire type 0, 1, 2 or 5).
 */
function perfettoPacket(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== 0x0a) return 0;
  let len = 0;
  let q = at + 1;
  for (let shift = 0; shift < 35; shift += 7, q++) {
    const b = bytes[q];
    if (b === undefined) return 0;
    len += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) break;
  }
  q++;
  if (len === 0 || q + len > bytes.length) return 0;
  const tag = bytes[q]!;
  return tag >> 3 >= 1 && [0, 1, 2, 5].includes(tag & 7) ? len : 0;
}
