// A chunk's long strings (over 12 bytes, held through a pointer) copied out of DuckDB's memory a span at a time
// instead of one binding call each. get_data_from_pointer(buffer, offset, n) reads a pointer from `buffer` and
// copies n bytes from there (the bindings are built with NODE_API_NO_EXTERNAL_BUFFERS_ALLOWED, so every Buffer
// they return is a copy): a span read in one call must lie on mapped pages only. A span is planned so that each
// 4 KiB page it touches holds a byte of one of its strings, which DuckDB keeps alive while the chunk lives.
import duckdb from "@duckdb/node-bindings";

/** The smallest page size of the platforms Node runs on: each larger page is whole 4 KiB pages. */
export const PAGE = 4096;
/** The most bytes one read copies, unless a single string is longer. */
export const MAX_SPAN = 16 << 20;
/** A pointer's high 32 bits under this keep the address exact in a double (below 2^53). */
const EXACT_HIGH = 1 << 21;

/**
 * Reads planned for some strings (or pieces) of a vector. `order` lists them by address; read r covers
 * order[groups[r]] to order[groups[r + 1] - 1], starting at the first one's address and `span[r]` bytes long;
 * `at[k]` is string (or piece) k's offset in its read.
 */
export interface ReadPlan {
  order: Int32Array;
  groups: Int32Array;
  span: Float64Array;
  at: Float64Array;
}

/** Room for the plans of up to n strings, reused from chunk to chunk (fresh arrays add to the external memory
 * that sets off full garbage collections). */
export interface PlanSpace {
  address: Float64Array;
  length: Float64Array;
  order: Int32Array;
  at: Float64Array;
  first: Int32Array;
}

export function planSpace(n: number): PlanSpace {
  return {
    address: new Float64Array(n),
    length: new Float64Array(n),
    order: new Int32Array(n),
    at: new Float64Array(n),
    first: new Int32Array(n),
  };
}

/**
 * Plans the reads of the strings whose string_t (16 bytes: length, prefix, pointer) start at `entries` in `data`.
 * Sorted by address, the strings go into one read while the next one starts on the page after the last byte read
 * or before (no page between holds none of their bytes) and the span stays within twice the bytes the strings
 * cover plus two pages, and within MAX_SPAN. Pointers beyond 2^53 are read one by one.
 */
export function planReads(
  data: Uint8Array,
  entries: Int32Array,
  space: PlanSpace = planSpace(entries.length),
): ReadPlan {
  const n = entries.length;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const address = space.address.subarray(0, n);
  const length = space.length.subarray(0, n);
  for (let k = 0; k < n; k++) {
    const e = entries[k]!;
    const high = view.getUint32(e + 12, true);
    if (high >= EXACT_HIGH) return onePerString(n, view, entries);
    address[k] = high * 2 ** 32 + view.getUint32(e + 8, true);
    length[k] = view.getUint32(e, true);
  }
  return planPieces(address, length, space);
}

/** The plan for pieces of memory (strings, or strings lying one after the other) at `address`, `length` long. */
function planPieces(address: Float64Array, length: Float64Array, space: PlanSpace): ReadPlan {
  const n = address.length;
  const runs = [0];
  // a new run where the addresses go down or jump over a page: a block of rows ends there
  for (let k = 1; k < n; k++)
    if (address[k]! < address[k - 1]! || address[k]! > address[k - 1]! + length[k - 1]! + PAGE) runs.push(k);
  const order = byAddress(address, runs, space.order.subarray(0, n));
  const groups: number[] = [];
  const span: number[] = [];
  const at = space.at.subarray(0, n);
  let i = 0;
  while (i < n) {
    const first = order[i]!;
    const start = address[first]!;
    let end = start + length[first]!;
    let covered = length[first]!;
    let j = i + 1;
    for (; j < n; j++) {
      const k = order[j]!;
      const from = address[k]!;
      const to = from + length[k]!;
      if (Math.floor(from / PAGE) > Math.floor((end - 1) / PAGE) + 1) break;
      const grown = to > end ? to - Math.max(from, end) : 0;
      const reach = Math.max(end, to) - start;
      if (reach > MAX_SPAN || reach > 2 * (covered + grown) + 2 * PAGE) break;
      end = Math.max(end, to);
      covered += grown;
    }
    groups.push(i);
    span.push(end - start);
    for (let g = i; g < j; g++) at[order[g]!] = address[order[g]!]! - start;
    i = j;
  }
  groups.push(n);
  return { order, groups: Int32Array.from(groups), span: Float64Array.from(span), at };
}

function onePerString(n: number, view: DataView, entries: Int32Array): ReadPlan {
  const order = new Int32Array(n);
  const groups = new Int32Array(n + 1);
  const span = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    order[k] = k;
    groups[k + 1] = k + 1;
    span[k] = view.getUint32(entries[k]!, true);
  }
  return { order, groups, span, at: new Float64Array(n) };
}

/**
 * The strings in address order. A chunk's rows usually come from a few blocks, each in row order: the runs of
 * rows close together and ascending, starting at `runs`, are then put in order whole, unless they interleave.
 */
function byAddress(address: Float64Array, runs: number[], order: Int32Array): Int32Array {
  const n = address.length;
  for (let k = 0; k < n; k++) order[k] = k;
  if (runs.length <= 1) return order;
  const bounds = runs.map((from, r) => [from, runs[r + 1] ?? n] as const);
  bounds.sort((a, b) => address[a[0]]! - address[b[0]]!);
  // each run's last string has its highest address
  const apart = bounds.every(([from], r) => r === 0 || address[bounds[r - 1]![1] - 1]! <= address[from]!);
  if (!apart) return order.sort((a, b) => address[a]! - address[b]!);
  let at = 0;
  for (const [from, to] of bounds) for (let k = from; k < to; k++) order[at++] = k;
  return order;
}

/**
 * Copies each string into `out` at `target[k]`. Strings that lie one after the other both in DuckDB's memory and in
 * `out` (consecutive rows of a block) are one piece, planned and copied as one: every byte of a piece is a string's.
 */
export function copyLongStrings(
  data: Uint8Array,
  entries: Int32Array,
  target: Int32Array,
  out: Uint8Array,
  space: PlanSpace = planSpace(entries.length),
): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const { address, length, first } = space;
  let pieces = 0;
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    const high = view.getUint32(e + 12, true);
    if (high >= EXACT_HIGH) return copyOneByOne(data, view, entries, target, out);
    const from = high * 2 ** 32 + view.getUint32(e + 8, true);
    const bytes = view.getUint32(e, true);
    const p = pieces - 1;
    if (
      p >= 0 &&
      from === address[p]! + length[p]! &&
      target[k] === target[first[p]!]! + length[p]! &&
      length[p]! + bytes <= MAX_SPAN
    ) {
      length[p] = length[p]! + bytes;
      continue;
    }
    address[pieces] = from;
    length[pieces] = bytes;
    first[pieces++] = k;
  }
  const plan = planPieces(address.subarray(0, pieces), length.subarray(0, pieces), space);
  const { order, groups, span, at } = plan;
  for (let r = 0; r + 1 < groups.length; r++) {
    const read = duckdb.get_data_from_pointer(
      data.buffer as ArrayBuffer,
      data.byteOffset + entries[first[order[groups[r]!]!]!]! + 8,
      span[r]!,
    );
    for (let g = groups[r]!; g < groups[r + 1]!; g++) {
      const p = order[g]!;
      copy(read, at[p]!, out, target[first[p]!]!, length[p]!);
    }
  }
}

/** Pointers beyond 2^53: a call a string. */
function copyOneByOne(
  data: Uint8Array,
  view: DataView,
  entries: Int32Array,
  target: Int32Array,
  out: Uint8Array,
): void {
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    out.set(
      duckdb.get_data_from_pointer(
        data.buffer as ArrayBuffer,
        data.byteOffset + e + 8,
        view.getUint32(e, true),
      ),
      target[k]!,
    );
  }
}

function copy(source: Uint8Array, from: number, out: Uint8Array, to: number, length: number): void {
  // byte by byte for short pieces: a subarray costs more than copying a few dozen bytes
  if (length <= 64) for (let b = 0; b < length; b++) out[to + b] = source[from + b]!;
  else out.set(source.subarray(from, from + length), to);
}
