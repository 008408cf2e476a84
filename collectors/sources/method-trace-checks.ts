// Sanity checks on a decoded method trace, for values the format cannot hold: a clock that runs backwards
// on one thread (one flipped byte gives calls with negative durations), and fewer records than the key
// counts (a regular trace cut at a record boundary). Each finding is a warning with a count and the first
// place; the trace is then partial, never "complete".
// Format: AOSP art runtime/trace.cc (per-thread clocks only move forward; FinishTracing writes
// num-method-calls = the records in the data section).
import type { RecordColumns } from "./method-trace-records";

export interface TimeCheck {
  /** records whose time is earlier than the previous record's of the same thread (a step back) */
  backwards: number;
  /** index (among kept records) of the first one */
  first: number;
}

/** Records whose time (either clock) goes back on their thread. Per-thread state lives in a slot per id. */
export function checkThreadClocks(cols: RecordColumns): TimeCheck {
  const n = cols.n;
  const { threadId, time1, time2 } = cols;
  const slotOf = new Int32Array(65536).fill(-1);
  let last1 = new Float64Array(64);
  let last2 = new Float64Array(64);
  let slots = 0;
  let backwards = 0;
  let first = -1;
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
      if (first < 0) first = i;
    }
    last1[s] = t1;
    last2[s] = t2;
  }
  return { backwards, first };
}

function grown(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Warnings (and whether the trace is partial) from the clock check and the key's record count.
 * `recordAt(i)` is the byte offset of kept record i when the layout allows computing it, else -1.
 */
export function traceChecks(
  cols: RecordColumns,
  properties: Record<string, string>,
  recordAt: (i: number) => number,
): { warnings: string[]; partial: boolean } {
  const warnings: string[] = [];
  let partial = false;
  const clocks = checkThreadClocks(cols);
  if (clocks.backwards) {
    const i = clocks.first;
    const at = recordAt(i);
    warnings.push(
      `${clocks.backwards} records step back in time from the previous record of their thread (impossible: ` +
        `durations through them would be negative), the first is record ${i} on thread ${cols.threadId[i]}` +
        `${at >= 0 ? ` at byte ${at}` : ""}; the data is corrupt there`,
    );
    partial = true;
  }
  const declared = properties["num-method-calls"];
  if (declared !== undefined) {
    const expected = /^\d+$/.test(declared) ? Number(declared) : NaN;
    const read = cols.n + cols.badActions;
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
