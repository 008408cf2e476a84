// Rows kept as parallel typed arrays that double when full: the Perfetto importer's slices, thread states and
// per-CPU event queues reach millions of rows, too many for an object each. Builders hold one as a member rather
// than extend it, so that add() sees a single class in V8.

export type TypedColumn = Float64Array | Int32Array | Uint8Array;

/** How much of the trace has been read (0..1; 0 when unknown, e.g. streamed input), shared by the builders. */
export class ReadProgress {
  done = 0;
}

/** The room to grow to from `capacity` rows: twice that, or, once 1 % of a trace of known size is read, room for
 * the whole trace at the rate so far (plus 15 %): a builder of millions of rows is then copied once or twice
 * rather than at every doubling, and fresh pages are what a big import spends most on (docs/perfetto.md). Rooms
 * never touched are never paged in. */
export function nextCapacity(capacity: number, progress: ReadProgress | null): number {
  const twice = capacity * 2;
  const done = progress ? progress.done : 0;
  if (!(done >= 0.01 && done < 1)) return twice;
  const whole = Math.ceil((capacity / done) * 1.15);
  return whole > twice ? whole : twice;
}

export class GrowableColumns<C extends { [K in keyof C]: TypedColumn }> {
  /** rows in use, at the front of every column */
  n = 0;
  private capacity: number;
  private readonly keys: readonly (keyof C)[];

  /** `cols` holds each column's first array, all of one length; `progress` sizes growth by the trace read. */
  constructor(
    readonly cols: C,
    private readonly progress: ReadProgress | null = null,
  ) {
    this.keys = Object.keys(cols) as (keyof C)[];
    this.capacity = cols[this.keys[0]!]!.length;
  }

  /** The index of a new row at the end; every column doubles first when full (read `cols` after calling this). */
  add(): number {
    if (this.n === this.capacity) this.reserve(this.n + 1);
    return this.n++;
  }

  /** Room for `size` rows at least (twice the present room when that is more), the rows so far kept. */
  reserve(size: number): void {
    if (size <= this.capacity) return;
    const to = Math.max(nextCapacity(this.capacity, this.progress), size);
    for (const k of this.keys) this.cols[k] = widened(this.cols[k], to);
    this.capacity = to;
  }

  /** Appends every row of `other`, which must not be used afterwards: when this holds none, its arrays are taken. */
  append(other: GrowableColumns<C>): void {
    const at = this.n;
    const k = other.n;
    if (at === 0) {
      for (const key of this.keys) this.cols[key] = other.cols[key];
      this.capacity = other.capacity;
    } else {
      this.reserve(at + k);
      for (const key of this.keys) this.cols[key].set(other.cols[key].subarray(0, k), at);
    }
    this.n = at + k;
  }

  /** Drops the rows before `head`, moving the rest to the front. */
  dropFront(head: number): void {
    if (head === 0) return;
    for (const k of this.keys) this.cols[k].copyWithin(0, head, this.n);
    this.n -= head;
  }

  /** The rows in use as views over the arrays (this must not be used afterwards). */
  views(): C {
    const out = {} as C;
    for (const k of this.keys) out[k] = this.cols[k].subarray(0, this.n) as C[keyof C];
    return out;
  }
}

/** A new array of `from`'s type and `size` elements, `from`'s copied to its front. */
export function widened<T extends TypedColumn>(from: T, size: number): T {
  const to = new (from.constructor as new (length: number) => T)(size);
  to.set(from);
  return to;
}
