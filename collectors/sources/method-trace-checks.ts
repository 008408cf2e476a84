// Sanity checks on a decoded method trace, for values the format cannot hold: a clock that runs backwards
// on one thread (one flipped byte gives calls with negative durations), and fewer records than the key
// counts (a regular trace cut at a record boundary). Each finding is a warning with a count and the first
// place; the trace is then partial, never "complete".
// Format: AOSP art runtime/trace.cc (per-thread clocks only move forward; FinishTracing writes
// num-method-calls = the records in the data section).
import type { RecordColumns } from "./method-trace-records";

/** Records whose time (either clock) goes back on their thread, counted batch by batch. Per-thread state
 * lives in a slot per id. */
export class ClockCheck {
  /** records whose time is earlier than the previous record's of the same thread (a step back) */
  backwards = 0;
  /** index (among kept records) of the first one, and its thread */
  first = -1;
  firstThread = -1;
  private seen = 0;
  private readonly slotOf = new Int32Array(65536).fill(-1);
  private last1 = new Float64Array(64);
  private last2 = new Float64Array(64);
  private slots = 0;

  /** Checks the records of one batch, which follows the batches checked before. */
  scan(cols: RecordColumns): void {
    const n = cols.n;
    const { threadId, time1, time2 } = cols;
    const slotOf = this.slotOf;
    let { last1, last2, slots, backwards } = this;
    for (let i = 0; i < n; i++) {
      const tid = threadId[i]! & 0xffff;
      let s = slotOf[tid]!;
      if (s < 0) {
        s = slotOf[tid] = slots++;
        if (slots > last1.length) {
          last1 = grown(last1);
          last2 = grown(last2);
        }
        last1[s] = -1;
        last2[s] = -1;
      }
      const t1 = time1[i]!;
      const t2 = time2 ? time2[i]! : 0;
      // A step back from the thread's previous record: one corrupt time gives one or two steps, not a run.
      if (t1 < last1[s]! || t2 < last2[s]!) {
        backwards++;
        if (this.first < 0) ((this.first = this.seen + i), (this.firstThread = threadId[i]!));
      }
      last1[s] = t1;
      last2[s] = t2;
    }
    Object.assign(this, { last1, last2, slots, backwards });
    this.seen += n;
  }
}

function grown(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

/** What the checks need of the whole trace: the clock check, the records read and the ones skipped. */
export interface CheckedCounts {
  clocks: ClockCheck;
  /** records kept */
  n: number;
  /** records skipped (action 3) */
  badActions: number;
}

/**
 * Warnings (and whether the trace is partial) from the clock check and the key's record count.
 * `recordAt(i)` is the byte offset of kept record i when the layout allows computing it, else -1.
 */
export function traceChecks(
  counts: CheckedCounts,
  properties: Record<string, string>,
  recordAt: (i: number) => number,
): { warnings: string[]; partial: boolean } {
  const warnings: string[] = [];
  let partial = false;
  const clocks = counts.clocks;
  if (clocks.backwards) {
    const i = clocks.first;
    const at = recordAt(i);
    warnings.push(
      `${clocks.backwards} records step back in time from the previous record of their thread (impossible: ` +
        `durations through them would be negative), the first is record ${i} on thread ${clocks.firstThread}` +
        `${at >= 0 ? ` at byte ${at}` : ""}; the data is corrupt there`,
    );
    partial = true;
  }
  const declared = properties["num-method-calls"];
  if (declared !== undefined) {
    const expected = /^\d+$/.test(declared) ? Number(declared) : NaN;
    const read = counts.n + counts.badActions;
    if (!Number.isFinite(expected))
      warnings.push(`key line num-method-calls=${JSON.stringify(declared)} is not a count`);
    else if (read < expected) {
      warnings.push(
        `the key says num-method-calls=${expected} but the data holds ${read} records: ${expected - read} are missing (the file is cut)`,
      );
      partial = true;
    } else if (read > expected)
      warnings.push(`the key says num-method-calls=${expected} but the data holds ${read} records`);
  }
  return { warnings, partial };
}

/** How many records name each method id, counted batch by batch; a small direct-mapped cache spares the
 * Map on most records. */
export class MethodCounts {
  private readonly ids = new Float64Array(4096).fill(-1);
  private readonly counts = new Float64Array(4096);
  private readonly spilled = new Map<number, number>();

  add(ids: Float64Array, n: number): void {
    const { ids: cached, counts } = this;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      const slot = (id >>> 2) & 4095;
      if (cached[slot] === id) counts[slot]!++;
      else {
        if (cached[slot]! >= 0) this.spill(cached[slot]!, counts[slot]!);
        cached[slot] = id;
        counts[slot] = 1;
      }
    }
  }

  /** Records whose method id is not in `known`. */
  unknown(known: ReadonlySet<number>): number {
    for (let s = 0; s < 4096; s++) if (this.ids[s]! >= 0) this.spill(this.ids[s]!, this.counts[s]!);
    this.ids.fill(-1);
    let unknown = 0;
    for (const [id, n] of this.spilled) if (!known.has(id)) unknown += n;
    return unknown;
  }

  private spill(id: number, n: number) {
    this.spilled.set(id, (this.spilled.get(id) ?? 0) + n);
  }
}
