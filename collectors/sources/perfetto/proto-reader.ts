// A protobuf wire-format reader (protobuf.dev/programming-guides/encoding): varint, fixed32/64 and
// length-delimited fields over one Uint8Array. Every length is checked against the enclosing message's end before
// it is used, so a corrupt length never reads or allocates past the buffer; errors name the byte offset.

/** Bad or truncated Perfetto data; `offset` is the byte in the file (or in the inflated compressed_packets). */
export class PerfettoFormatError extends Error {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`byte ${offset}: ${detail}`);
    this.name = "PerfettoFormatError";
  }
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

const TWO32 = 4294967296;
const SCRATCH_F64 = new Float64Array(1);
const SCRATCH_BYTES = new Uint8Array(SCRATCH_F64.buffer);
const utf8 = new TextDecoder("utf-8", { fatal: false });
/** The varint ProtoReader.readVarint() read last. */
export const VARINT = new Float64Array(1);

export class ProtoReader {
  pos: number;
  /** high 32 bits of the last varint longer than 4 bytes (sign for int64), else 0 */
  private hi = 0;
  /** low 32 bits of that varint */
  private lo = 0;

  /** `base` is the absolute offset of buf[0], so errors point into the file. */
  constructor(
    public buf: Uint8Array,
    start: number,
    public end: number,
    public base = 0,
  ) {
    this.pos = start;
  }

  /** Points this reader at the next length-delimited field of `r` (reused in hot loops instead of message()). */
  enter(r: ProtoReader): this {
    const start = r.len();
    this.buf = r.buf;
    this.base = r.base;
    this.pos = start;
    this.end = r.pos;
    return this;
  }

  /** Points this reader at [start, end) of `buf` (reused per packet instead of a new reader). */
  reset(buf: Uint8Array, start: number, end: number, base: number): this {
    this.buf = buf;
    this.base = base;
    this.pos = start;
    this.end = end;
    return this;
  }

  more(): boolean {
    return this.pos < this.end;
  }

  fail(detail: string, at = this.pos): never {
    throw new PerfettoFormatError(this.base + at, detail);
  }

  /** Next field's tag (field number << 3 | wire type); groups and unknown wire types are errors. */
  tag(): number {
    // One-byte tags (fields 1-15) of a wire type read here inline; the rest (and every error) in tagOf().
    const p = this.pos;
    if (p < this.end) {
      const t = this.buf[p]!;
      const wt = t & 7;
      if (t < 0x80 && t >= 8 && (wt <= 2 || wt === 5)) {
        this.pos = p + 1;
        return t;
      }
    }
    return this.tagOf();
  }

  private tagOf(): number {
    const at = this.pos;
    const t = this.varint();
    const wt = t & 7;
    if (t < 8 || wt === 3 || wt === 4 || wt > 5)
      this.fail(`invalid field tag ${t} (field ${Math.floor(t / 8)}, wire type ${wt})`, at);
    return t;
  }

  /** Unsigned varint as a number (exact below 2^53: timestamps, ids, lengths). */
  varint(): number {
    // A one-byte varint inline (small enough for V8 to inline at every call); longer ones in varintOf().
    const p = this.pos;
    if (p < this.end) {
      const byte = this.buf[p]!;
      if (byte < 0x80) {
        this.pos = p + 1;
        this.hi = 0;
        return byte;
      }
    }
    return this.varintOf();
  }

  /** A varint into VARINT[0], for a caller too big for V8 to inline varint() into: a double returned from a call
   * that is not inlined is a heap number each (40 MB per 109 MB trace of ftrace timestamps, sampling heap
   * profiler). Up to 7 bytes (times in ns below 2^49) are decoded here, so that no call returns one. */
  readVarint(): void {
    const b = this.buf;
    const p = this.pos;
    if (p + 7 <= this.end) {
      let v = 0;
      let mul = 1;
      for (let k = 0; k < 7; k++) {
        const byte = b[p + k]!;
        v += (byte & 0x7f) * mul;
        if (byte < 0x80) {
          this.pos = p + k + 1;
          this.hi = 0;
          VARINT[0] = v;
          return;
        }
        mul *= 128;
      }
    }
    VARINT[0] = this.varint();
  }

  private varintOf(): number {
    const b = this.buf;
    let p = this.pos;
    const end = this.end;
    if (p >= end) this.fail("varint runs past the end of its message");
    let byte = b[p++]!;
    if (byte < 0x80) {
      this.pos = p;
      this.hi = 0;
      return byte;
    }
    let lo = byte & 0x7f;
    for (let shift = 7; shift < 28; shift += 7) {
      if (p >= end) this.fail("varint runs past the end of its message");
      byte = b[p++]!;
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        this.hi = 0;
        return lo >>> 0;
      }
    }
    // Bytes 5..7 (timestamps in ns take 6) by multiplication, exact below 2^49; hi stays 0 as int64() expects of
    // anything shorter than 10 bytes.
    let v = lo >>> 0;
    let mul = 268435456;
    for (let k = 0; k < 3; k++) {
      if (p >= end) this.fail("varint runs past the end of its message");
      byte = b[p++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) {
        this.pos = p;
        this.hi = 0;
        return v;
      }
      mul *= 128;
    }
    return this.long(p - 3, lo);
  }

  /** Bytes 5..10 of a varint (from `p`, `lo` holding bits 0..27) as 32-bit halves, then as a number. */
  private long(p: number, lo: number): number {
    const b = this.buf;
    const end = this.end;
    let byte = 0;
    // Bytes 5..10: bits 28..63.
    if (p >= end) this.fail("varint runs past the end of its message");
    byte = b[p++]!;
    lo = (lo | ((byte & 0x0f) << 28)) >>> 0;
    let hi = (byte & 0x7f) >> 4;
    if (byte >= 0x80) {
      let shift = 3;
      for (let i = 0; ; i++) {
        if (i === 5) this.fail("varint longer than 10 bytes", this.pos);
        if (p >= end) this.fail("varint runs past the end of its message");
        byte = b[p++]!;
        hi |= (byte & 0x7f) << shift;
        shift += 7;
        if (byte < 0x80) break;
      }
    }
    this.pos = p;
    this.hi = hi;
    this.lo = lo;
    return (hi >>> 0) * TWO32 + lo;
  }

  /** int64/int32 (two's complement, negative values take 10 bytes). */
  int64(): number {
    const v = this.varint();
    if (this.hi & 0x80000000) return (this.hi | 0) * TWO32 + this.lo;
    return v;
  }

  /** sint32/sint64 (zigzag). */
  sint(): number {
    const v = this.varint();
    const half = Math.floor(v / 2);
    return v % 2 === 0 ? half : -half - 1;
  }

  fixed32(): number {
    const p = this.advance(4, "fixed32");
    const b = this.buf;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  fixed64(): number {
    const lo = this.fixed32();
    const hi = this.fixed32();
    return hi * TWO32 + lo;
  }

  double(): number {
    const p = this.advance(8, "double");
    // Through one shared 8-byte scratch (a little-endian host, as protobuf's doubles): no DataView per value.
    const b = this.buf;
    for (let i = 0; i < 8; i++) SCRATCH_BYTES[i] = b[p + i]!;
    return SCRATCH_F64[0]!;
  }

  /** Moves past a fixed-size value of `size` bytes, checked against this message's end; returns its start. */
  private advance(size: number, what: string): number {
    const p = this.pos;
    if (p + size > this.end) this.fail(`${what} runs past the end of its message`);
    this.pos = p + size;
    return p;
  }

  /** A length-delimited field's bounds [start, end), checked against this message's end. */
  len(): number {
    // A length below 128 that fits inline; any other (and every error) in lenOf().
    const p = this.pos;
    if (p < this.end) {
      const n = this.buf[p]!;
      if (n < 0x80 && n < this.end - p) {
        this.pos = p + 1 + n;
        return p + 1;
      }
    }
    return this.lenOf();
  }

  private lenOf(): number {
    const at = this.pos;
    const n = this.varint();
    if (n > this.end - this.pos)
      this.fail(`length ${n} runs past the end of its message (${this.end - this.pos} bytes left)`, at);
    const start = this.pos;
    this.pos += n;
    return start;
  }

  /** Skips fields up to the next length-delimited one numbered `a` or `b` and returns its number (its value is
   * what comes next); 0 at the end of the message. */
  nextLen(a: number, b: number): number {
    while (this.more()) {
      const t = this.tag();
      const f = t >>> 3;
      if ((t & 7) === WIRE_LEN && (f === a || f === b)) return f;
      this.skip(t & 7);
    }
    return 0;
  }

  /** A sub-reader over the next length-delimited field. */
  message(): ProtoReader {
    const start = this.len();
    return new ProtoReader(this.buf, start, this.pos, this.base);
  }

  string(): string {
    const start = this.len();
    return decodeUtf8(this.buf, start, this.pos);
  }

  /** Skips a field's value of the given wire type. */
  skip(wireType: number): void {
    if (wireType === WIRE_VARINT) this.varint();
    else if (wireType === WIRE_LEN) this.len();
    else if (wireType === WIRE_FIXED64) this.advance(8, "fixed64");
    else if (wireType === WIRE_FIXED32) this.advance(4, "fixed32");
    else this.fail(`unsupported wire type ${wireType}`);
  }

  /** A packed repeated varint field (or one unpacked element) appended to `out` (packedInto, into an array). */
  packedVarints(wireType: number, out: number[], signed = false): void {
    const column = new VarintColumn();
    packedInto(this, wireType, column, signed);
    for (let i = 0; i < column.n; i++) out.push(column.values[i]!);
  }
}

/** A reusable column of varints read from packed fields: `values[0, n)`. */
export class VarintColumn {
  values = new Float64Array(64);
  n = 0;

  push(v: number): void {
    if (this.n === this.values.length) {
      const next = new Float64Array(this.n * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.n++] = v;
  }
}

/** Appends a packed repeated varint field (or one unpacked element) of `r` to `out`: what packedVarints does, into
 * a typed column (room for one value per byte reserved first, so the loop only decodes). */
export function packedInto(r: ProtoReader, wireType: number, out: VarintColumn, signed: boolean): void {
  if (wireType === WIRE_VARINT) {
    out.push(signed ? r.int64() : r.varint());
    return;
  }
  if (wireType !== WIRE_LEN) r.fail(`expected a packed varint field, got wire type ${wireType}`);
  const start = r.len();
  const end = r.pos;
  if (out.n + (end - start) > out.values.length) {
    const next = new Float64Array(Math.max(out.values.length * 2, out.n + (end - start)));
    next.set(out.values.subarray(0, out.n));
    out.values = next;
  }
  const values = out.values;
  let n = out.n;
  const b = r.buf;
  let p = start;
  while (p < end) {
    let byte = b[p++]!;
    if (byte < 0x80) {
      values[n++] = byte;
      continue;
    }
    let v = byte & 0x7f;
    let shift = 7;
    do {
      byte = b[p++]!;
      v |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80 && shift < 28 && p < end);
    if (byte < 0x80) {
      values[n++] = v >>> 0;
      continue;
    }
    // 5 bytes or more (timestamps, negative int64s): through the reader, bounded by this field's end.
    // (A throw abandons the packet, so r's bounds need no restoring then.)
    const saved = r.end;
    r.pos = p - shift / 7;
    r.end = end;
    values[n++] = signed ? r.int64() : r.varint();
    p = r.pos;
    r.pos = end;
    r.end = saved;
  }
  out.n = n;
}

/** UTF-8 text; short ASCII strings (comm, slice names) without TextDecoder's call cost. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let ascii = true;
    for (let i = start; i < end; i++) if (buf[i]! >= 0x80) ascii = false;
    if (ascii) return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  }
  return utf8.decode(buf.subarray(start, end));
}
