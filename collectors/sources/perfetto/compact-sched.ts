// CompactSched (ftrace_event_bundle.proto FtraceEventBundle.CompactSched, field 4): sched_switch and sched_waking as
// parallel packed arrays; timestamps delta-encoded from the first, comms by index into the bundle's intern table.
import { SWITCH, WAKING, type CpuQueue } from "./cpu-queue";
import { WIRE_LEN, type ProtoReader } from "./proto-reader";
import type { StringTable } from "./string-table";

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
    switch (t >>> 3) {
      case 5:
        if (wt !== WIRE_LEN) r.skip(wt);
        else intern.push(strings.field(r));
        break;
      case 1:
        r.packedVarints(wt, swTs);
        break;
      case 2:
        r.packedVarints(wt, swState, true);
        break;
      case 3:
        r.packedVarints(wt, swPid, true);
        break;
      case 6:
        r.packedVarints(wt, swComm);
        break;
      case 7:
        r.packedVarints(wt, wkTs);
        break;
      case 8:
        r.packedVarints(wt, wkPid, true);
        break;
      case 11:
        r.packedVarints(wt, wkComm);
        break;
      default:
        r.skip(wt);
    }
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
