// CompactSched (ftrace_event_bundle.proto FtraceEventBundle.CompactSched, field 4): sched_switch and sched_waking as
// parallel packed arrays; timestamps delta-encoded from the first, comms by index into the bundle's intern table.
import { SWITCH, WAKING, type CpuQueue } from "./cpu-queue";
import { WIRE_LEN, type ProtoReader } from "./proto-reader";
import type { StringTable } from "./string-table";

// The packed fields read (ftrace_event_bundle.proto CompactSched), by field number: their slot in `scratch` and
// whether they are int32/int64 (negative values as ten-byte two's complement) rather than unsigned.
const PACKED: Record<number, readonly [slot: number, signed: boolean] | undefined> = {
  1: [1, false], // switch_timestamp
  2: [2, true], // switch_prev_state
  3: [3, true], // switch_next_pid
  6: [4, false], // switch_next_comm_index
  7: [5, false], // waking_timestamp
  8: [6, true], // waking_pid
  11: [7, false], // waking_comm_index
};

/** Reads one CompactSched message into `q`, switches and wakings merged in time; `scratch` holds the eight
 * packed arrays between calls. */
export function readCompactSched(
  r: ProtoReader,
  q: CpuQueue,
  shift: number,
  strings: StringTable,
  scratch: number[][],
): number {
  let events = 0;
  for (const a of scratch) a.length = 0;
  const [intern, swTs, swState, swPid, swComm, wkTs, wkPid, wkComm] = scratch as [
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  while (r.more()) {
    const t = r.tag();
    const wt = t & 7;
    const f = t >>> 3;
    const packed = PACKED[f];
    if (packed) r.packedVarints(wt, scratch[packed[0]]!, packed[1]);
    // intern_table 5: the comms the comm indices point at
    else if (f === 5 && wt === WIRE_LEN) intern.push(strings.field(r));
    else r.skip(wt);
  }
  // Switches and wakings are two sorted runs: merge them so the CPU queue stays in time order.
  let i = 0;
  let j = 0;
  let nextSw = swTs.length ? shift + swTs[0]! : Infinity;
  let nextWk = wkTs.length ? shift + wkTs[0]! : Infinity;
  while (i < swTs.length || j < wkTs.length) {
    if (nextSw <= nextWk) {
      q.push(nextSw, SWITCH, -1, swState[i] ?? 0, swPid[i] ?? 0, -1, intern[swComm[i] ?? -1] ?? -1);
      i++;
      nextSw = i < swTs.length ? nextSw + swTs[i]! : Infinity;
    } else {
      q.push(nextWk, WAKING, wkPid[j] ?? 0, 0, 0, intern[wkComm[j] ?? -1] ?? -1, -1);
      j++;
      nextWk = j < wkTs.length ? nextWk + wkTs[j]! : Infinity;
    }
    events++;
  }
  return events;
}
