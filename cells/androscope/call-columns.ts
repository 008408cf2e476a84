// The calls table (bundle/schema.ts "calls") as typed arrays, for the analyses that walk call trees.
// Read from each chunk's buffers without instanceof: tables may come from DuckDB-WASM's own apache-arrow.
import type { Table, Vector } from "apache-arrow";
import { requireColumns } from "../common/require-columns";

export interface CallColumns {
  n: number;
  threadId: Int32Array;
  methodId: Float64Array;
  depth: Int32Array;
  /** row of the caller, -1 for an outermost call (the parent column holds call ids; this is the row) */
  parent: Int32Array;
  enter: Float64Array;
  exit: Float64Array;
  inclusive: Float64Array;
  exclusive: Float64Array;
  cpuInclusive: Float64Array | null;
  cpuExclusive: Float64Array | null;
}

interface ChunkData {
  length: number;
  offset: number;
  values: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number };
  nullBitmap?: Uint8Array;
  nullCount: number;
}

/** Reads the columns every call-tree analysis needs; names the missing one, refuses several runs mixed. */
export function readCallColumns(calls: Table): CallColumns {
  requireColumns(
    calls,
    {
      thread_id: "int32",
      method_id: "int64",
      parent: "int32",
      inclusive: "int64",
      exclusive: "int64",
      call_id: "int32",
      depth: "int32",
      enter: "int64",
      exit: "int64",
    },
    "calls",
  );
  requireSingleRun(calls);
  const col = (name: string) => calls.getChild(name)!;
  const cpuInc = calls.getChild("cpu_inclusive");
  const hasCpu = !!cpuInc && cpuInc.nullCount < calls.numRows;
  return {
    n: calls.numRows,
    threadId: int32Values(col("thread_id")),
    methodId: int64Values(col("method_id")),
    depth: int32Values(col("depth")),
    parent: parentRows(int32Values(col("call_id")), int32Values(col("parent"), -1)),
    enter: int64Values(col("enter")),
    exit: int64Values(col("exit")),
    inclusive: int64Values(col("inclusive")),
    exclusive: int64Values(col("exclusive")),
    cpuInclusive: hasCpu ? int64Values(cpuInc!) : null,
    cpuExclusive: hasCpu ? int64Values(col("cpu_exclusive")) : null,
  };
}

/** Call ids are per run: a table holding several runs' calls would join callers across runs. */
function requireSingleRun(calls: Table): void {
  const runs = calls.getChild("run_id");
  if (!runs || calls.numRows === 0) return;
  const first = runs.get(0);
  for (let i = 1; i < calls.numRows; i++) {
    const r = runs.get(i);
    if (r !== first)
      throw new Error(
        `calls holds several runs (${String(first)}, ${String(r)}): select one run's calls (WHERE run_id = ...)`,
      );
  }
}

/** Int32 values, `nullAs` where null. */
export function int32Values(v: Vector, nullAs = 0): Int32Array {
  const out = new Int32Array(v.length);
  let row = 0;
  for (const d of v.data as unknown as ChunkData[]) {
    const vals = d.values;
    for (let i = 0; i < d.length; i++) out[row + i] = vals[i]!;
    if (d.nullCount > 0 && d.nullBitmap) {
      for (let i = 0; i < d.length; i++) {
        const bit = d.offset + i;
        if (((d.nullBitmap[bit >> 3]! >> (bit & 7)) & 1) === 0) out[row + i] = nullAs;
      }
    }
    row += d.length;
  }
  return out;
}

/** Int64 values as doubles (exact below 2^53 ns, 104 days), from the two 32-bit words; null reads 0. */
export function int64Values(v: Vector): Float64Array {
  const out = new Float64Array(v.length);
  let row = 0;
  for (const d of v.data as unknown as ChunkData[]) {
    const words = new Int32Array(d.values.buffer, d.values.byteOffset, d.length * 2);
    for (let i = 0; i < d.length; i++) out[row + i] = (words[2 * i]! >>> 0) + words[2 * i + 1]! * 4294967296;
    if (d.nullCount > 0 && d.nullBitmap) {
      for (let i = 0; i < d.length; i++) {
        const bit = d.offset + i;
        if (((d.nullBitmap[bit >> 3]! >> (bit & 7)) & 1) === 0) out[row + i] = 0;
      }
    }
    row += d.length;
  }
  return out;
}

/** Parent call ids as row indices: the identity when rows are in call_id order, else through a lookup. */
function parentRows(callId: Int32Array, parentId: Int32Array): Int32Array {
  const n = callId.length;
  let identity = true;
  for (let i = 0; i < n && identity; i++) identity = callId[i] === i;
  if (identity) {
    for (let i = 0; i < n; i++)
      if (parentId[i]! >= n)
        throw new Error(`calls row ${i}: parent ${parentId[i]} is not a call_id of this table`);
    return parentId;
  }
  const rowOf = new Map<number, number>();
  for (let i = 0; i < n; i++) rowOf.set(callId[i]!, i);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = parentId[i]!;
    if (p < 0) out[i] = -1;
    else {
      const row = rowOf.get(p);
      if (row === undefined)
        throw new Error(
          `calls row ${i}: parent ${p} is not a call_id of this table (a filtered table must keep every caller)`,
        );
      out[i] = row;
    }
  }
  return out;
}
