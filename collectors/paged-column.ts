// A column of per-call state kept in pages (method-trace-calls.ts): it grows a page at a time and is never
// copied whole (its first page doubles from a small one, as there is one column per thread), and holds its
// values in the compact form given (4-byte µs times) until one does not fit.
/** Calls per page of the pairing state: it grows a page at a time, never copied while pairing. */
export const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
export const MASK = PAGE - 1;
/** The first page's first size: a thread of few calls keeps a few KiB, not a full page per column. */
const FIRST = 256;

/** One column of per-call state in pages: method ids and times in 4 bytes (µs) while they fit, which they
 * always do for trace.cc's records (u4 ids, u4 µs), 8 bytes once a value does not. */
export class Paged<T extends Int32Array | Uint32Array | Uint16Array | Float64Array | Uint8Array> {
  pages: T[] = [];
  constructor(
    private make: new (n: number) => T,
    /** what one stored unit stands for (1000: a time stored in µs, read back in ns) */
    private unit = 1,
  ) {}
  /** Makes room for index `i`, the one after the last: a new page, or the first page doubled. */
  grow(i: number) {
    const p = i >>> PAGE_BITS;
    const page = this.pages[p];
    if (!page) this.pages.push(new this.make(p === 0 ? FIRST : PAGE));
    else if ((i & MASK) >= page.length) {
      const bigger = new this.make(Math.min(PAGE, 2 * page.length));
      bigger.set(page as never);
      this.pages[p] = bigger;
    }
  }
  /** Zeroes the column and makes room for `count` values in full pages (a column reused from thread to thread). */
  zero(count: number) {
    while (this.pages.length << PAGE_BITS < count) this.pages.push(new this.make(PAGE));
    for (const page of this.pages) page.fill(0);
  }
  at(i: number): number {
    return this.pages[i >>> PAGE_BITS]![i & MASK]! * this.unit;
  }
  /** Stores `v`, widening the column first when its compact form cannot hold it (read back unequal). */
  set(i: number, v: number) {
    const page = this.pages[i >>> PAGE_BITS]!;
    const u = v / this.unit;
    page[i & MASK] = u;
    if (page[i & MASK] !== u) {
      this.widen();
      this.pages[i >>> PAGE_BITS]![i & MASK] = v;
    }
  }
  add(i: number, v: number) {
    this.set(i, this.at(i) + v);
  }
  /** Stores every value as a float64 from now on. */
  private widen(): void {
    if (this.make === (Float64Array as unknown)) return;
    const unit = this.unit;
    this.pages = this.pages.map((p) => Float64Array.from(p, (v) => v * unit) as T);
    this.make = Float64Array as unknown as new (n: number) => T;
    this.unit = 1;
  }
}
