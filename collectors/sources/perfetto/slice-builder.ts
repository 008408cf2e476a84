// Slices in growable typed columns (a system trace holds millions): strings as ids into the decoder's
// StringTable, NaN for a null dur/pid/tid, -1 for a null category or track.
import type { SliceColumns } from "./rows";

export class SliceBuilder {
  n = 0;
  private ts = new Float64Array(1024);
  private dur = new Float64Array(1024);
  private pid = new Float64Array(1024);
  private tid = new Float64Array(1024);
  private depth = new Int32Array(1024);
  private name = new Int32Array(1024);
  private category = new Int32Array(1024);
  private track = new Int32Array(1024);

  /** A new row; returns its index (dur can be set later with end()). */
  push(
    ts: number,
    dur: number,
    pid: number,
    tid: number,
    depth: number,
    name: number,
    category: number,
    track: number,
  ) {
    if (this.n === this.ts.length) this.grow();
    const i = this.n++;
    this.ts[i] = ts;
    this.dur[i] = dur;
    this.pid[i] = pid;
    this.tid[i] = tid;
    this.depth[i] = depth;
    this.name[i] = name;
    this.category[i] = category;
    this.track[i] = track;
    return i;
  }

  /** Closes row i at `ts`. */
  end(i: number, ts: number) {
    this.dur[i] = ts - this.ts[i]!;
  }

  /** Sets row i's pid, tid and track once they are known. */
  place(i: number, pid: number, tid: number, track: number) {
    this.pid[i] = pid;
    this.tid[i] = tid;
    this.track[i] = track;
  }

  /** Appends every row of `other` after these; `other` must not be used afterwards (its arrays may be taken). */
  append(other: SliceBuilder) {
    if (this.n === 0) {
      // Nothing here yet: take the other's arrays instead of copying them.
      this.ts = other.ts;
      this.dur = other.dur;
      this.pid = other.pid;
      this.tid = other.tid;
      this.depth = other.depth;
      this.name = other.name;
      this.category = other.category;
      this.track = other.track;
      this.n = other.n;
      return;
    }
    const n = this.n + other.n;
    if (this.ts.length < n) this.grow(n);
    const at = this.n;
    const k = other.n;
    this.ts.set(other.ts.subarray(0, k), at);
    this.dur.set(other.dur.subarray(0, k), at);
    this.pid.set(other.pid.subarray(0, k), at);
    this.tid.set(other.tid.subarray(0, k), at);
    this.depth.set(other.depth.subarray(0, k), at);
    this.name.set(other.name.subarray(0, k), at);
    this.category.set(other.category.subarray(0, k), at);
    this.track.set(other.track.subarray(0, k), at);
    this.n = n;
  }

  private grow(min = 0) {
    const size = Math.max(this.ts.length * 2, min);
    this.ts = widenF64(this.ts, size);
    this.dur = widenF64(this.dur, size);
    this.pid = widenF64(this.pid, size);
    this.tid = widenF64(this.tid, size);
    this.depth = widenI32(this.depth, size);
    this.name = widenI32(this.name, size);
    this.category = widenI32(this.category, size);
    this.track = widenI32(this.track, size);
  }

  /** The rows as columns (views over the builder's arrays; it must not be used afterwards). */
  columns(strings: readonly string[]): SliceColumns {
    const n = this.n;
    return {
      length: n,
      ts: this.ts.subarray(0, n),
      dur: this.dur.subarray(0, n),
      pid: this.pid.subarray(0, n),
      tid: this.tid.subarray(0, n),
      depth: this.depth.subarray(0, n),
      name: this.name.subarray(0, n),
      category: this.category.subarray(0, n),
      track: this.track.subarray(0, n),
      strings,
      names: new Map(),
      pids: new Map(),
    };
  }
}

// A fresh array of `size` with the rows so far copied in.
function widenF64(from: Float64Array, size: number) {
  const to = new Float64Array(size);
  to.set(from);
  return to;
}

function widenI32(from: Int32Array, size: number) {
  const to = new Int32Array(size);
  to.set(from);
  return to;
}
