// A small protobuf encoder (https://protobuf.dev/programming-guides/encoding/): varints, fixed64, doubles,
// strings and nested messages into one growing buffer. A nested message's length is written as a 4-byte
// redundant varint and patched when the message ends, as Perfetto's protozero does, so nothing is copied twice.

const TEXT = new TextEncoder();
const NESTED_MAX = 1 << 28; // the largest length four varint bytes hold

export class ProtoWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  private open: number[] = [];

  constructor(initialBytes = 1 << 16) {
    this.buf = new Uint8Array(initialBytes);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  private room(n: number) {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private rawVarint(v: number) {
    if (this.pos + 10 > this.buf.length) this.room(10);
    const b = this.buf;
    let p = this.pos;
    if (v < 0x80000000) {
      while (v > 0x7f) {
        b[p++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      b[p++] = v;
    } else {
      // Up to 2^53 as two 32-bit halves (ToUint32 keeps the low half exactly), shifted seven bits at a time.
      let lo = v >>> 0;
      let hi = (v - lo) / 4294967296;
      while (hi > 0 || lo > 0x7f) {
        b[p++] = (lo & 0x7f) | 0x80;
        lo = ((lo >>> 7) | (hi << 25)) >>> 0;
        hi >>>= 7;
      }
      b[p++] = lo;
    }
    this.pos = p;
  }

  private tag(field: number, wire: number) {
    this.rawVarint(field * 8 + wire);
  }

  /** uint32/uint64/int32/int64/bool/enum; negative values take ten bytes (two's complement), as protobuf says. */
  varint(field: number, value: number | bigint | boolean): this {
    this.tag(field, 0);
    if (typeof value === "boolean") this.rawVarint(value ? 1 : 0);
    else if (typeof value === "number" && value >= 0 && Number.isSafeInteger(value)) this.rawVarint(value);
    else {
      let v = BigInt.asUintN(64, BigInt(value));
      this.room(10);
      while (v >= 0x80n) {
        this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      this.buf[this.pos++] = Number(v);
    }
    return this;
  }

  fixed64(field: number, value: bigint | number): this {
    this.tag(field, 1);
    this.room(8);
    this.view.setBigUint64(this.pos, BigInt.asUintN(64, BigInt(value)), true);
    this.pos += 8;
    return this;
  }

  double(field: number, value: number): this {
    this.tag(field, 1);
    this.room(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
    return this;
  }

  string(field: number, value: string): this {
    // At most three bytes per UTF-16 unit; encodeInto writes in place.
    this.tag(field, 2);
    this.room(value.length * 3 + 5);
    const at = this.pos;
    this.pos += 4;
    const { written } = TEXT.encodeInto(value, this.buf.subarray(this.pos));
    this.pos += written;
    this.patchLength(at, written);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.rawVarint(value.length);
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  /** Opens a nested message on `field`; every begin needs its end. */
  begin(field: number): this {
    this.tag(field, 2);
    this.room(4);
    this.open.push(this.pos);
    this.pos += 4;
    return this;
  }

  end(): this {
    const at = this.open.pop();
    if (at === undefined) throw new Error("ProtoWriter.end() without begin()");
    this.patchLength(at, this.pos - at - 4);
    return this;
  }

  private patchLength(at: number, n: number) {
    if (n >= NESTED_MAX) throw new Error(`ProtoWriter: nested message of ${n} bytes is over 256 MiB`);
    this.buf[at] = (n & 0x7f) | 0x80;
    this.buf[at + 1] = ((n >>> 7) & 0x7f) | 0x80;
    this.buf[at + 2] = ((n >>> 14) & 0x7f) | 0x80;
    this.buf[at + 3] = (n >>> 21) & 0x7f;
  }

  /** The bytes written so far (a view, not a copy); all messages must be closed. */
  finish(): Uint8Array {
    if (this.open.length) throw new Error(`ProtoWriter.finish(): ${this.open.length} message(s) not ended`);
    return this.buf.subarray(0, this.pos);
  }
}
