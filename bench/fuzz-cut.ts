// The fuzz bench's notion of a cut "inside a record" (bench/fuzz.bench.ts): where a prefix of a real
// file is known to be incomplete, so that an import calling it complete is wrong silently.
import { inflateSync } from "node:zlib";

/** Whether cutting the original `src` to its first `at` bytes cuts inside a record or line, so that an import
 * calling the prefix complete is wrong. Text: cut after something other than a newline, removing more than
 * trailing blanks and full stops ("... seconds." cut to "... seconds" loses nothing). Perfetto: not at a
 * boundary between the original's top-level fields (Trace.packet, perfetto_trace.proto; a prefix ending at
 * one is a valid shorter trace). `atrace -z`: before the end of the zlib stream (bytes after it are no record).
 * Other binary: anywhere. */
export function cutInside(name: string, src: Uint8Array, at: number): boolean {
  if (at <= 0 || at >= src.length) return false;
  if (/\.(pftrace|perfetto-trace|pb)$/.test(name)) {
    const ends = protoFieldEnds(src);
    if (ends) return !ends.has(at);
  }
  const head = new TextDecoder("latin1").decode(src.subarray(0, 8));
  if (head.startsWith("TRACE:\n") && src[7] === 0x78) {
    const r = inflateSync(src.subarray(7), { info: true }) as unknown as { engine: { bytesWritten: number } };
    return at < 7 + r.engine.bytesWritten;
  }
  const text = src.every((b) => b === 9 || b === 10 || b === 13 || b >= 32);
  const nl = src.indexOf(0x0a, at);
  const lost = new TextDecoder().decode(src.subarray(at, nl < 0 ? undefined : nl));
  return !text || (src[at - 1] !== 0x0a && /[^\s.]/.test(lost));
}

/** The offsets where the top-level protobuf fields of `b` end (protobuf encoding: varint tag, wire type 0, 1,
 * 2 or 5), or null when `b` does not walk as a protobuf message to its last byte. */
function protoFieldEnds(b: Uint8Array): Set<number> | null {
  const ends = new Set<number>();
  let i = 0;
  const varint = (): number | null => {
    let v = 0;
    for (let s = 0; s < 64 && i < b.length; s += 7) {
      const x = b[i++]!;
      v += (x & 0x7f) * 2 ** s;
      if (x < 0x80) return v;
    }
    return null;
  };
  while (i < b.length) {
    const tag = varint();
    if (tag === null) return null;
    const wire = tag % 8;
    if (wire === 0) {
      if (varint() === null) return null;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const n = varint();
      if (n === null) return null;
      i += n;
    } else return null;
    if (i > b.length) return null;
    ends.add(i);
  }
  return ends;
}
