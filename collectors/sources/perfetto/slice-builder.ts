// Slices in growable typed columns (a system trace holds millions): strings as ids into the decoder's
// StringTable, NaN for a null dur/pid/tid, -1 for a null category or track.
import { GrowableColumns, type ReadProgress } from "./growable-columns";
import type { SliceArrays, SliceColumns } from "./rows";

export class SliceBuilder {
  readonly rows: GrowableColumns<SliceArrays>;

  constructor(progress: ReadProgress | null = null) {
    const f64 = () => new Float64Array(1024);
    const i32 = () => new Int32Array(1024);
    this.rows = new GrowableColumns<SliceArrays>(
      {
        ts: f64(),
        dur: f64(),
        pid: f64(),
        tid: f64(),
        depth: i32(),
        name: i32(),
        category: i32(),
        track: i32(),
      },
      progress,
    );
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
    const i = this.rows.add();
    const c = this.rows.cols;
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
    const c = this.rows.cols;
    c.dur[i] = ts - c.ts[i]!;
  }

  /** Sets row i's pid, tid and track once they are known. */
  place(i: number, pid: number, tid: number, track: number) {
    const c = this.rows.cols;
    c.pid[i] = pid;
    c.tid[i] = tid;
    c.track[i] = track;
  }

  /** Appends every row of `other`, which must not be used afterwards (its arrays may be taken). */
  append(other: SliceBuilder) {
    this.rows.append(other.rows);
  }

  /** The rows as columns (views over the builder's arrays; it must not be used afterwards). */
  columns(strings: readonly string[]): SliceColumns {
    return { length: this.rows.n, ...this.rows.views(), strings, names: new Map(), pids: new Map() };
  }
}
