// A thread's calls in the calls table's row order (method-trace-call-rows.ts) walked with a stack of callers
// instead of per-call scratch, when the order they were made in already is that order (the usual case): the
// calls made for exits without entries (AndroScope TraceBridge §V-1) first, outermost first, then the others
// as made, each after its caller. Depths and parent rows come from the walk; the children's sums, one per call
// that has children, from a first walk.
import type { ThreadCalls } from "./method-trace-calls";
import { MASK, PAGE_BITS, type Paged } from "./paged-column";

const PAGE = 1 << PAGE_BITS;

/** A thread's calls in row order, one per step(), with each one's depth, parent row and sum slots. */
export class CallWalk {
  /** the current call: its number, depth, parent's row (-1 none), and its own and its parent's sum slots */
  id = 0;
  depth = 0;
  parentRow = -1;
  sum = -1;
  parentSum = -1;
  /** the calls made for exits without entries, in the order made: each encloses the one before (§V-1) */
  private readonly adopted: number[] = [];
  private row = 0;
  private i = 0;
  /** calls made for exits without entries before call i */
  private epoch = 0;
  private nextSum = 0;
  /** the callers of the current call, outermost first, their sum slots, and the outermost one's depth */
  private readonly callers: number[] = [];
  private readonly callerSums: number[] = [];
  private base = 0;

  /** sum slots needed: one per call made for an exit without entry, one per other call with children */
  readonly slots: number;

  constructor(private readonly t: ThreadCalls) {
    // Page by page (a page's index is its first call's number): this runs over every call of the trace.
    let slots = 0;
    for (let p = 0, first = 0; first < t.count; p++, first += PAGE) {
      const flags = t.flags.pages[p]!;
      const parent = t.parent.pages[p]!;
      const n = Math.min(t.count - first, flags.length);
      for (let j = 0; j < n; j++) {
        if (flags[j]! & 2) (this.adopted.push(first + j), slots++);
        else if (parent[j] === first + j - 1) slots++;
      }
    }
    this.slots = slots;
  }

  /** Back to the first row. */
  reset() {
    this.row = this.i = this.epoch = this.nextSum = this.base = 0;
    this.callers.length = this.callerSums.length = 0;
  }

  /** Moves to the next row's call; false when the calls are not in this order (they then need sorting). */
  step(): boolean {
    const { parent, count } = this.t;
    const k = this.adopted.length;
    if (this.row < k) {
      // Adopting calls, outermost (the last made) first: each one's parent is the one made after it.
      const j = k - 1 - this.row;
      this.id = this.adopted[j]!;
      this.depth = this.row;
      this.sum = this.row;
      this.parentRow = this.parentSum = this.row - 1;
      this.row++;
      return parent.at(this.id) === (j + 1 < k ? this.adopted[j + 1]! : -1);
    }
    const callers = this.callers;
    // Past a call made for an exit without entry, whose making closed every open call.
    while (this.epoch < k && this.adopted[this.epoch] === this.i)
      (this.i++, this.epoch++, (callers.length = this.callerSums.length = 0));
    const i = this.i++;
    const p = parent.pages[i >>> PAGE_BITS]![i & MASK]!;
    if (p < 0 || (this.epoch < k && p === this.adopted[this.epoch])) {
      // An outermost call, or one adopted by the next call made for an exit without entry.
      if (p < 0 && this.epoch < k) return false;
      callers.length = this.callerSums.length = 0;
      this.base = p < 0 ? 0 : k - this.epoch;
      this.parentRow = this.parentSum = p < 0 ? -1 : k - 1 - this.epoch;
    } else {
      while (callers.length && callers[callers.length - 1] !== p) (callers.pop(), this.callerSums.pop());
      if (!callers.length) return false;
      this.parentRow = k + p - this.epoch;
      this.parentSum = this.callerSums[this.callerSums.length - 1]!;
      if (this.parentSum < 0) return false;
    }
    this.id = i;
    this.depth = this.base + callers.length;
    // A call with children is followed by its first child.
    const next = i + 1;
    this.sum = next < count && parent.pages[next >>> PAGE_BITS]![next & MASK] === i ? k + this.nextSum++ : -1;
    callers.push(i);
    this.callerSums.push(this.sum);
    this.row++;
    return true;
  }
}

/** Walks the thread's calls once: whether they are in row order (by entry time, outer calls first, then as
 * made), and if so each slot's sum of its call's children's inclusive times in both clocks, added in the
 * order the children were made. */
export function walkSums(
  t: ThreadCalls,
  walk: CallWalk,
  sum: Paged<Uint32Array | Float64Array>,
  cpu: Paged<Uint32Array | Float64Array>,
): boolean {
  const { enter, exit, cpuInclusive, count } = t;
  sum.zero(walk.slots);
  if (cpuInclusive) cpu.zero(walk.slots);
  walk.reset();
  let lastEnter = 0;
  let lastDepth = 0;
  for (let r = 0; r < count; r++) {
    if (!walk.step()) return false;
    const e = enter.at(walk.id);
    // The order rowOrder sorts into: entry time, then depth, then as made (as the walk's calls of one depth
    // are: the adopting ones differ in depth, the others come as made).
    if (r > 0 && !(lastEnter < e || (lastEnter === e && lastDepth <= walk.depth))) return false;
    lastEnter = e;
    lastDepth = walk.depth;
    if (walk.parentSum < 0) continue;
    sum.add(walk.parentSum, exit.at(walk.id) - e);
    if (cpuInclusive) cpu.add(walk.parentSum, cpuInclusive.at(walk.id));
  }
  walk.reset();
  return true;
}
