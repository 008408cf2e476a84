// Strings read from a trace, each kept once: slice names, comms and markers repeat thousands of times, and
// matching the bytes against a hash is cheaper than decoding them again.
import { decodeUtf8, type ProtoReader } from "./proto-reader";

export class StringTable {
  private list: string[] = [];
  private byText = new Map<string, number>();
  // The byte strings seen, each with its id (two byte strings may decode to one text, e.g. invalid UTF-8): an
  // open-addressing table of entry + 1 per slot, and per entry its hash, its bytes' place in `bytes`, and its id.
  private slots = new Int32Array(1024);
  private shift = 22;
  private entries = 0;
  private hashes = new Int32Array(512);
  private starts = new Int32Array(512);
  private lengths = new Int32Array(512);
  private ids = new Int32Array(512);
  private bytes = new Uint8Array(16384);
  private used = 0;

  /** Every string, by id. */
  get all(): readonly string[] {
    return this.list;
  }

  get(id: number): string {
    return this.list[id]!;
  }

  /** The id of a JS string. */
  text(s: string): number {
    let id = this.byText.get(s);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(s);
      this.byText.set(s, id);
    }
    return id;
  }

  /** The id of the UTF-8 bytes [start, end). */
  id(b: Uint8Array, start: number, end: number): number {
    // Four bytes a step (a multiply's latency per step, not per byte), then the rest byte by byte.
    let h = end - start;
    let i = start;
    for (; i + 4 <= end; i += 4) {
      h = Math.imul(h ^ (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)), 0x9e3779b1);
      h = (h << 13) | (h >>> 19);
    }
    for (; i < end; i++) h = Math.imul(h ^ b[i]!, 0x9e3779b1);
    // The slot from the product's top bits (Fibonacci hashing), then the next ones in turn.
    const mask = this.slots.length - 1;
    for (let s = Math.imul(h, 0x9e3779b1) >>> this.shift; ; s = (s + 1) & mask) {
      const e = this.slots[s]! - 1;
      if (e < 0) return this.insert(s, h, b, start, end);
      if (this.hashes[e] === h && this.same(e, b, start, end)) return this.ids[e]!;
    }
  }

  /** Reads the next length-delimited field of `r` as a string id. */
  field(r: ProtoReader): number {
    const start = r.len();
    return this.id(r.buf, start, r.pos);
  }

  private same(e: number, b: Uint8Array, start: number, end: number): boolean {
    const n = end - start;
    if (this.lengths[e] !== n) return false;
    const bytes = this.bytes;
    const from = this.starts[e]!;
    for (let k = 0; k < n; k++) if (bytes[from + k] !== b[start + k]) return false;
    return true;
  }

  // A new entry in empty slot `s`; its id is the text's, which an earlier byte string may have decoded to.
  private insert(s: number, h: number, b: Uint8Array, start: number, end: number): number {
    const id = this.text(decodeUtf8(b, start, end));
    const e = this.entries++;
    if (e === this.ids.length) {
      this.hashes = grown(this.hashes, e * 2);
      this.starts = grown(this.starts, e * 2);
      this.lengths = grown(this.lengths, e * 2);
      this.ids = grown(this.ids, e * 2);
    }
    const n = end - start;
    if (this.used + n > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    this.bytes.set(b.subarray(start, end), this.used);
    this.hashes[e] = h;
    this.starts[e] = this.used;
    this.lengths[e] = n;
    this.ids[e] = id;
    this.used += n;
    this.slots[s] = e + 1;
    // At most half the slots in use, so a probe ends soon at an empty one.
    if (this.entries * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash() {
    const slots = new Int32Array(this.slots.length * 2);
    this.shift--;
    const mask = slots.length - 1;
    for (let e = 0; e < this.entries; e++) {
      let s = Math.imul(this.hashes[e]!, 0x9e3779b1) >>> this.shift;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }
}

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
