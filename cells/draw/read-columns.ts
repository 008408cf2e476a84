// Reading Arrow columns of render_ops fast and without instanceof (tables may come from DuckDB-WASM's own
// apache-arrow instance): typed values straight from each chunk's buffers, and warnings counted by kind.
import type { Vector } from "apache-arrow";

/** Codes of a string column against known words (-1 for null or other), reading UTF-8 bytes directly. */
export function wordCodes(vector: Vector, words: readonly string[]): Int8Array {
  const out = new Int8Array(vector.length);
  const enc = words.map((w) => new TextEncoder().encode(w));
  let row = 0;
  for (const data of vector.data as unknown as {
    length: number;
    valueOffsets?: Int32Array;
    values: Uint8Array;
    dictionary?: Vector;
    nullCount: number;
  }[]) {
    if (data.dictionary) {
      const dcodes = Array.from({ length: data.dictionary.length }, (_, k) =>
        words.indexOf(String(data.dictionary!.get(k))),
      );
      const idx = data.values as unknown as ArrayLike<number>;
      for (let i = 0; i < data.length; i++) out[row + i] = dcodes[idx[i]!] ?? -1;
    } else {
      const off = data.valueOffsets!;
      const bytes = data.values;
      for (let i = 0; i < data.length; i++) {
        const a = off[i]!;
        const len = off[i + 1]! - a;
        let code = -1;
        for (let w = 0; w < enc.length && code < 0; w++) {
          const e = enc[w]!;
          if (e.length !== len) continue;
          let k = 0;
          while (k < len && bytes[a + k] === e[k]) k++;
          if (k === len) code = w;
        }
        out[row + i] = code;
      }
    }
    row += data.length;
  }
  for (let i = 0; i < vector.length; i++) if (out[i]! >= 0 && !vector.isValid(i)) out[i] = -1;
  return out;
}

export const asInt32 = (v: Vector): Int32Array => Int32Array.from(v.toArray() as ArrayLike<number>);
/** Bool column as 0/1 bytes, read from the bitmaps (null reads as false). */
export const asBool = (v: Vector): Uint8Array => {
  const out = new Uint8Array(v.length);
  let row = 0;
  for (const data of v.data as unknown as {
    length: number;
    offset: number;
    values: Uint8Array;
    nullBitmap?: Uint8Array;
    nullCount: number;
  }[]) {
    const bits = data.values;
    const nulls = data.nullCount > 0 ? data.nullBitmap : undefined;
    for (let i = 0; i < data.length; i++) {
      const b = data.offset + i;
      const set = (bits[b >> 3]! >> (b & 7)) & 1;
      out[row + i] = nulls && !((nulls[b >> 3]! >> (b & 7)) & 1) ? 0 : set;
    }
    row += data.length;
  }
  return out;
};
/** Validity per row (1 = not null), from the null bitmaps. */
export const validity = (v: Vector): Uint8Array => {
  const out = new Uint8Array(v.length).fill(1);
  if (v.nullCount === 0) return out;
  let row = 0;
  for (const data of v.data as unknown as {
    length: number;
    offset: number;
    nullBitmap?: Uint8Array;
    nullCount: number;
  }[]) {
    if (data.nullCount > 0 && data.nullBitmap && data.nullBitmap.length > 0)
      for (let i = 0; i < data.length; i++) {
        const b = data.offset + i;
        out[row + i] = (data.nullBitmap[b >> 3]! >> (b & 7)) & 1;
      }
    else if (data.nullCount === data.length) out.fill(0, row, row + data.length);
    row += data.length;
  }
  return out;
};
export const asNumber = (v: Vector): Float64Array => {
  const a = v.toArray() as BigInt64Array;
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Number(a[i]!);
  return out;
};

/** Warnings counted per kind, each reported once with its count and first example. */
export class Warnings {
  private seen = new Map<string, { count: number; first: string }>();
  add(kind: string, example: string): void {
    const w = this.seen.get(kind);
    if (w) w.count++;
    else this.seen.set(kind, { count: 1, first: example });
  }
  list(): string[] {
    return [...this.seen].map(([kind, w]) => `render_ops: ${w.count} ${kind} (first: ${w.first})`);
  }
}
