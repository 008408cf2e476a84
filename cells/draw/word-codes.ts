// render_ops' string columns as codes against known words, read from the UTF-8 bytes without instanceof
// (tables may come from DuckDB-WASM's own apache-arrow instance), and warnings counted by kind.
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
