// The Perfetto importer's typed slice and thread-state columns as bundle tables, and the column helpers
// tracesToTables shares (int64 without a BigInt per row, dictionary-encoded strings).
import type { Table } from "apache-arrow";
import { makeBundleTable, type DictionaryValues } from "../../../bundle/table-builder";
import {
  THREAD_STATE_NAMES,
  lifeAt,
  type SliceColumns,
  type ThreadStateColumns,
  type ThreadsByTid,
} from "./rows";

/** Thread names as a dictionary, and name index and pid per tid: typed tables below 65536, Maps for the rest;
 * a reused tid (several lifetimes) is marked in `reusedBy` and looked up by time through `at`. */
function threadLookup({ names: threadNames, pids, reused }: ThreadsByTid) {
  const names: string[] = [];
  const index = new Map<string, number>();
  const intern = (name: string | null) => {
    if (name === null) return -1;
    let k = index.get(name);
    if (k === undefined) {
      index.set(name, (k = names.length));
      names.push(name);
    }
    return k;
  };
  const nameOf = new Map<number, number>();
  for (const [tid, name] of threadNames) nameOf.set(tid, intern(name));
  const nameBy = new Int32Array(65536).fill(-1);
  const pidBy = new Float64Array(65536).fill(NaN);
  const reusedBy = new Uint8Array(65536);
  for (const [tid, k] of nameOf) if (tid >= 0 && tid < 65536) nameBy[tid] = k;
  for (const [tid, p] of pids) if (tid >= 0 && tid < 65536) pidBy[tid] = p;
  const lives = new Map<number, { from: number[]; name: number[]; pid: number[] }>();
  for (const [tid, l] of reused ?? []) {
    if (tid >= 0 && tid < 65536) reusedBy[tid] = 1;
    lives.set(tid, { from: l.from, name: l.names.map(intern), pid: l.pids.map((p) => p ?? NaN) });
  }
  /** [name index, pid] of a reused tid's row at `ts` (in process `pid` when the row names one), or null when the
   * tid is not reused */
  const at = (tid: number, ts: number, pid = NaN): [number, number] | null => {
    const l = lives.get(tid);
    if (!l) return null;
    const k = lifeAt({ from: l.from, pids: l.pid }, ts, pid);
    return [l.name[k]!, l.pid[k]!];
  };
  return { names, nameOf, nameBy, pidBy, reusedBy, at };
}

export function sliceTable(c: SliceColumns, runId: string): Table {
  const n = c.length;
  const { names, nameOf, nameBy, pidBy, reusedBy, at } = threadLookup(c);
  const threadName = new Int32Array(n);
  const pid = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const tid = c.tid[i]!;
    const p = c.pid[i]!;
    if (tid !== tid) {
      threadName[i] = -1;
      pid[i] = p;
    } else if (tid >= 0 && tid < 65536 && tid === Math.floor(tid) && reusedBy[tid] === 0) {
      threadName[i] = nameBy[tid]!;
      pid[i] = p === p ? p : pidBy[tid]!;
    } else {
      const life = at(tid, c.ts[i]!, p);
      threadName[i] = life ? life[0] : (nameOf.get(tid) ?? -1);
      pid[i] = p === p ? p : life ? life[1] : (c.pids.get(tid) ?? NaN);
    }
  }
  return makeBundleTable(
    "slices",
    runId,
    {
      ts: int64From(c.ts),
      dur: c.dur,
      pid,
      tid: c.tid,
      thread_name: { dictionary: names, indices: threadName },
      name: { dictionary: c.strings, indices: c.name },
      depth: c.depth,
      category: { dictionary: c.strings, indices: c.category },
      track: { dictionary: c.strings, indices: c.track },
    },
    n,
    // Each column has its own buffer: taken over, not copied (name, category and track only read theirs).
    { adopt: true },
  );
}

export function threadStateTable(c: ThreadStateColumns, runId: string): Table {
  const n = c.length;
  const { names, nameOf, nameBy, pidBy, reusedBy, at } = threadLookup(c);
  const threadName = new Int32Array(n);
  const pid = new Float64Array(n);
  const cpu = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const tid = c.tid[i]!;
    if (tid >= 0 && tid < 65536 && reusedBy[tid] === 0) {
      threadName[i] = nameBy[tid]!;
      pid[i] = pidBy[tid]!;
    } else {
      const life = at(tid, c.ts[i]!);
      threadName[i] = life ? life[0] : (nameOf.get(tid) ?? -1);
      pid[i] = life ? life[1] : (c.pids.get(tid) ?? NaN);
    }
    const k = c.cpu[i]!;
    cpu[i] = k < 0 ? NaN : k;
  }
  // Float64Array into an integer column: NaN is null (bundle/table-builder.ts).
  return makeBundleTable(
    "thread_states",
    runId,
    {
      ts: int64From(c.ts),
      dur: c.dur,
      tid: c.tid,
      pid,
      thread_name: { dictionary: names, indices: threadName },
      state: {
        dictionary: THREAD_STATE_NAMES,
        indices: new Int8Array(c.state.buffer, c.state.byteOffset, n),
      },
      cpu,
      // Without sched_blocked_reason both are left to the builder's all-null columns (no array of n nulls).
      ...(c.blockedFunction ? { blocked_function: c.blockedFunction } : {}),
      ...(c.ioWait ? { io_wait: c.ioWait } : {}),
    },
    n,
    // Each column has its own buffer (the builder's arrays or fresh ones): taken over, not copied.
    { adopt: true },
  );
}

/** Columns that go into the table as the rows hold them (nullable numbers, text, booleans), one per key. */
export function plainColumns<R, K extends keyof R & string>(
  rows: readonly R[],
  keys: readonly K[],
): { [P in K]: R[P][] } {
  const out = {} as { [P in K]: R[P][] };
  for (const k of keys) out[k] = rows.map((r) => r[k]);
  return out;
}

// Numbers (null as NaN) by index: TypedArray.from with a map function goes through the iterator protocol.
export function floats(n: number, get: (i: number) => number | null): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = get(i) ?? NaN;
  return out;
}

export function ints(n: number, get: (i: number) => number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = get(i);
  return out;
}

// int64 without a BigInt per row: the two 32-bit halves written through an Int32Array view (little-endian).
export function int64(n: number, get: (i: number) => number): BigInt64Array {
  const out = new BigInt64Array(n);
  const half = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = Math.trunc(get(i));
    const hi = Math.floor(v / 4294967296);
    half[2 * i] = (v - hi * 4294967296) | 0;
    half[2 * i + 1] = hi | 0;
  }
  return out;
}

// int64() over a Float64Array without a call per row.
function int64From(a: Float64Array): BigInt64Array {
  const n = a.length;
  const out = new BigInt64Array(n);
  const half = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const v = Math.trunc(a[i]!);
    const hi = Math.floor(v / 4294967296);
    half[2 * i] = (v - hi * 4294967296) | 0;
    half[2 * i + 1] = hi | 0;
  }
  return out;
}

// A utf8 column as dictionary indices (-1 for null): one Map lookup a row instead of one Arrow string each.
export function dict(n: number, get: (i: number) => string | null): DictionaryValues {
  const index = new Map<string, number>();
  const dictionary: string[] = [];
  const indices = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = get(i);
    if (v === null) {
      indices[i] = -1;
      continue;
    }
    let k = index.get(v);
    if (k === undefined) {
      k = dictionary.length;
      index.set(v, k);
      dictionary.push(v);
    }
    indices[i] = k;
  }
  return { dictionary, indices };
}
