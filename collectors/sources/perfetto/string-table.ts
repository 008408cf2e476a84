// Strings read from a trace, each kept once: slice names, comms and markers repeat thousands of times, and
// matching the bytes against a hash is cheaper than decoding them again.
import { decodeUtf8, type ProtoReader } from "./proto-reader";

export class StringTable {
  private list: string[] = [];
  private byHash = new Map<number, number>();
  private byText = new Map<string, number>();

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
    // FNV-1a over the bytes.
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    // 30 bits: a small-integer Map key, never a boxed number.
    h &= 0x3fffffff;
    const seen = this.byHash.get(h);
    if (seen !== undefined && sameBytes(this.list[seen]!, b, start, end)) return seen;
    const id = this.text(decodeUtf8(b, start, end));
    if (seen === undefined) this.byHash.set(h, id);
    return id;
  }

  /** Reads the next length-delimited field of `r` as a string id. */
  field(r: ProtoReader): number {
    const start = r.len();
    return this.id(r.buf, start, r.pos);
  }
}

// ASCII strings compare by char code; anything else never matches and is decoded afresh.
function sameBytes(s: string, b: Uint8Array, start: number, end: number): boolean {
  if (s.length !== end - start) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== b[start + i]) return false;
  return true;
}
