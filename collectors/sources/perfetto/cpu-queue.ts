// The ftrace events of one CPU, in time order, as typed columns (kinds below), until they are replayed.

export const PRINT_BEGIN = 1;
export const PRINT_END = 2;
export const PRINT_OTHER = 3;
export const SWITCH = 4;
export const WAKING = 5;
export const RENAME = 6;

/** One CPU's events in typed columns; strings are ids into the decoder's StringTable (-1: none). */
export class CpuQueue {
  n = 0;
  /** events before head are replayed */
  head = 0;
  /** newest timestamp ever pushed */
  last = -Infinity;
  /** tid this CPU last switched to (compact_sched's missing prev_pid) */
  running = 0;
  ts = new Float64Array(256);
  kind = new Uint8Array(256);
  tid = new Int32Array(256);
  a = new Float64Array(256);
  b = new Int32Array(256);
  s1 = new Int32Array(256);
  s2 = new Int32Array(256);

  push(ts: number, kind: number, tid: number, a: number, b: number, s1: number, s2: number) {
    if (this.n === this.ts.length) this.grow();
    const i = this.n++;
    this.ts[i] = ts;
    if (ts > this.last) this.last = ts;
    this.kind[i] = kind;
    this.tid[i] = tid;
    this.a[i] = a;
    this.b[i] = b;
    this.s1[i] = s1;
    this.s2[i] = s2;
  }

  /** Drops the replayed events, moving the rest to the front. */
  compact() {
    const h = this.head;
    if (h === 0) return;
    const n = this.n;
    for (const a of [this.ts, this.kind, this.tid, this.a, this.b, this.s1, this.s2]) a.copyWithin(0, h, n);
    this.n = n - h;
    this.head = 0;
  }

  /** Appends event i of `from`. */
  copy(from: CpuQueue, i: number) {
    this.push(from.ts[i]!, from.kind[i]!, from.tid[i]!, from.a[i]!, from.b[i]!, from.s1[i]!, from.s2[i]!);
  }

  private grow() {
    const size = this.ts.length * 2;
    const widen = <T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T => (to.set(from), to);
    this.ts = widen(this.ts, new Float64Array(size));
    this.kind = widen(this.kind, new Uint8Array(size));
    this.tid = widen(this.tid, new Int32Array(size));
    this.a = widen(this.a, new Float64Array(size));
    this.b = widen(this.b, new Int32Array(size));
    this.s1 = widen(this.s1, new Int32Array(size));
    this.s2 = widen(this.s2, new Int32Array(size));
  }
}
