// Splits `Trace { repeated TracePacket packet = 1; }` (protos/perfetto/trace/trace.proto) into packets as chunks
// arrive. Only bytes actually received are kept: a corrupt length that claims more than the file holds is reported
// when the input ends, never allocated.
import { PerfettoFormatError } from "./proto-reader";

export type PacketHandler = (buf: Uint8Array, start: number, end: number, offset: number) => void;

export class TraceSplitter {
  private pending: Uint8Array | null = null;
  /** absolute offset of the first byte not yet consumed */
  private consumed = 0;
  /** bytes in top-level fields other than `packet` */
  otherFields = 0;

  constructor(private readonly onPacket: PacketHandler) {}

  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.pending) {
      buf = new Uint8Array(this.pending.length + chunk.length);
      buf.set(this.pending);
      buf.set(chunk, this.pending.length);
      this.pending = null;
    }
    let p = 0;
    const n = buf.length;
    while (p < n) {
      // One-byte tags and lengths below 2^21 inline (every packet of a real trace); the rest through readVarint.
      let t = buf[p]!;
      let afterTag = p + 1;
      if (t >= 0x80) {
        const tag = readVarint(buf, p, n, this.consumed);
        if (tag === null) break;
        t = tag[0];
        afterTag = tag[1];
      }
      const wt = t % 8;
      const field = Math.floor(t / 8);
      if (field === 0 || wt === 3 || wt === 4 || wt > 5)
        throw new PerfettoFormatError(
          this.consumed + p,
          `not a Perfetto trace here: invalid field tag ${t} (field ${field}, wire type ${wt})`,
        );
      if (field === 1 && wt !== 2)
        throw new PerfettoFormatError(this.consumed + p, `packet field with wire type ${wt}, expected 2`);
      if (wt === 2) {
        let size = 0;
        let start = afterTag;
        const b0 = afterTag < n ? buf[afterTag]! : 0x80;
        const b1 = afterTag + 1 < n ? buf[afterTag + 1]! : 0x80;
        const b2 = afterTag + 2 < n ? buf[afterTag + 2]! : 0x80;
        if (b0 < 0x80) {
          size = b0;
          start = afterTag + 1;
        } else if (b1 < 0x80) {
          size = (b0 & 0x7f) | (b1 << 7);
          start = afterTag + 2;
        } else if (b2 < 0x80) {
          size = (b0 & 0x7f) | ((b1 & 0x7f) << 7) | (b2 << 14);
          start = afterTag + 3;
        } else {
          const len = readVarint(buf, afterTag, n, this.consumed);
          if (len === null) break;
          size = len[0];
          start = len[1];
        }
        if (start + size > n) break;
        if (field === 1) this.onPacket(buf, start, start + size, this.consumed + start);
        else this.otherFields++;
        p = start + size;
      } else if (wt === 0) {
        const v = readVarint(buf, afterTag, n, this.consumed);
        if (v === null) break;
        this.otherFields++;
        p = v[1];
      } else {
        const size = wt === 1 ? 8 : 4;
        if (afterTag + size > n) break;
        this.otherFields++;
        p = afterTag + size;
      }
    }
    this.consumed += p;
    if (p < n) this.pending = buf.slice(p);
  }

  /** Throws when the input stopped inside a packet, naming where that packet began. */
  end(): void {
    const rest = this.pending;
    if (!rest || rest.length === 0) return;
    const at = this.consumed;
    const len = readVarint(rest, 1, rest.length, at);
    const claim = len ? `claims ${len[0]} bytes, ` : "";
    throw new PerfettoFormatError(
      at,
      `trace truncated: the packet starting here ${claim}but the file ends ${rest.length} bytes later`,
    );
  }
}

/** [value, next position], or null when the varint is cut off by `end`; longer than 10 bytes is an error. */
function readVarint(buf: Uint8Array, p: number, end: number, base: number): [number, number] | null {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (p + i >= end) return null;
    const b = buf[p + i]!;
    v += (b & 0x7f) * mul;
    if (b < 0x80) return [v, p + i + 1];
    mul *= 128;
  }
  throw new PerfettoFormatError(base + p, "varint longer than 10 bytes");
}
