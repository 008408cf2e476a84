// The ftrace events of one CPU, in time order, as typed columns (kinds below), until they are replayed.
import { GrowableColumns } from "./growable-columns";

export const PRINT_BEGIN = 1;
export const PRINT_END = 2;
export const PRINT_OTHER = 3;
export const SWITCH = 4;
export const WAKING = 5;
export const RENAME = 6;
export const NEWTASK = 7;
export const FREE = 8;

/** An event's columns; a, b, s1 and s2 hold what its kind carries (ftrace-events.ts pushes them). */
interface CpuEvents {
  ts: Float64Array;
  kind: Uint8Array;
  tid: Int32Array;
  a: Float64Array;
  b: Int32Array;
  s1: Int32Array;
  s2: Int32Array;
}

/** One CPU's events in typed columns; strings are ids into the decoder's StringTable (-1: none). */
export class CpuQueue {
  readonly rows: GrowableColumns<CpuEvents>;
  /** events before head are replayed */
  head = 0;
  /** newest timestamp ever pushed */
  last = -Infinity;
  /** tid this CPU last switched to (compact_sched's missing prev_pid) */
  running = 0;

  /** events pushed, replayed or not */
  get n() {
    return this.rows.n;
  }

  constructor() {
    const f64 = () => new Float64Array(256);
    const i32 = () => new Int32Array(256);
    this.rows = new GrowableColumns<CpuEvents>({
      ts: f64(),
      kind: new Uint8Array(256),
      tid: i32(),
      a: f64(),
      b: i32(),
      s1: i32(),
      s2: i32(),
    });
  }

  push(ts: number, kind: number, tid: number, a: number, b: number, s1: number, s2: number) {
    this.fill(this.add(ts), kind, tid, a, b, s1, s2);
  }

  /** A new event's row, its time set (the caller fills the rest with fill()). */
  add(ts: number): number {
    const i = this.rows.add();
    this.rows.cols.ts[i] = ts;
    if (ts > this.last) this.last = ts;
    return i;
  }

  /** Row i's fields but its time. */
  fill(i: number, kind: number, tid: number, a: number, b: number, s1: number, s2: number) {
    const c = this.rows.cols;
    c.kind[i] = kind;
    c.tid[i] = tid;
    c.a[i] = a;
    c.b[i] = b;
    c.s1[i] = s1;
    c.s2[i] = s2;
  }

  /** Drops the replayed events, moving the rest to the front. */
  compact() {
    this.rows.dropFront(this.head);
    this.head = 0;
  }
}
