// Slices in growable typed columns (a system trace holds millions): strings as ids into the decoder's
// StringTable, NaN for a null dur/pid/tid, -1 for a null category or track.
import { GrowableColumns } from "./growable-columns";
import type { SliceArrays, SliceColumns } from "./rows";

export class SliceBuilder extends GrowableColumns<SliceArrays> {
  constructor() {
    const f64 = () => new Float64Array(1024);
    const i32 = () => new Int32Array(1024);
    super({
      ts: f64(),
      dur: f64(),
      pid: f64(),
      tid: f64(),
      depth: i32(),
      name: i32(),
      category: i32(),
      track: i32(),
    });
  }

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
    const i = this.add();
    const c = this.cols;
    c.ts[i] = ts;
    c.dur[i] = dur;
    c.pid[i] = pid;
    c.tid[i] = tid;
    c.depth[i] = depth;
    c.name[i] = name;
    c.category[i] = category;
    c.track[i] = track;
    return i;
  }

  /** Closes row i at `ts`. */
  end(i: number, ts: number) {
    this.cols.dur[i] = ts - this.cols.ts[i]!;
  }

  /** Sets row i's pid, tid and track once they are known. */
  place(i: number, pid: number, tid: number, track: number) {
    const c = this.cols;
    c.pid[i] = pid;
    c.tid[i] = tid;
    c.track[i] = track;
  }

  /** The rows as columns (views over the builder's arrays; it must not be used afterwards). */
  columns(strings: readonly string[]): SliceColumns {
    return { length: this.n, ...this.views(), strings, names: new Map(), pids: new Map() };
  }
}
