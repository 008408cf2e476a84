// CompactSched (ftrace_event_bundle.proto FtraceEventBundle.CompactSched, field 4): sched_switch and sched_waking as
// parallel packed arrays; timestamps delta-encoded from the first, comms by index into the bundle's intern table.
import { SWITCH, WAKING, type CpuQueue } from "./cpu-queue";
import { VarintColumn, WIRE_LEN, packedInto, type ProtoReader } from "./proto-reader";
import type { StringTable } from "./string-table";

/** compact_sched's packed arrays and intern table, reused from bundle to bundle. */
export class CompactScratch {
  readonly swTs = new VarintColumn();
  readonly swState = new VarintColumn();
  readonly swPid = new VarintColumn();
  readonly swComm = new VarintColumn();
  readonly wkTs = new VarintColumn();
  readonly wkPid = new VarintColumn();
  readonly wkComm = new VarintColumn();
  intern = new Int32Array(64);
  internN = 0;
}

/** Reads one CompactSched message into `q`, switches and wakings merged in time. */
export function readCompactSched(
  r: ProtoReader,
  q: CpuQueue,
  shift: number,
  strings: StringTable,
  s: CompactScratch,
): number {
  const { swTs, swState, swPid, swComm, wkTs, wkPid, wkComm } = s;
  swTs.n = swState.n = swPid.n = swComm.n = wkTs.n = wkPid.n = wkComm.n = 0;
  s.internN = 0;
  while (r.more()) {
    const t = r.tag();
    const wt = t & 7;
    // The packed fields read, by number; int32/int64 ones (negative values as ten-byte two's complement) signed.
    switch (t >>> 3) {
      case 1: // switch_timestamp
        packedInto(r, wt, swTs, false);
        break;
      case 2: // switch_prev_state
        packedInto(r, wt, swState, true);
        break;
      case 3: // switch_next_pid
        packedInto(r, wt, swPid, true);
        break;
      case 6: // switch_next_comm_index
        packedInto(r, wt, swComm, false);
        break;
      case 7: // waking_timestamp
        packedInto(r, wt, wkTs, false);
        break;
      case 8: // waking_pid
        packedInto(r, wt, wkPid, true);
        break;
      case 11: // waking_comm_index
        packedInto(r, wt, wkComm, false);
        break;
      case 5: // intern_table: the comms the comm indices point at
        if (wt === WIRE_LEN) {
          if (s.internN === s.intern.length) {
            const next = new Int32Array(s.internN * 2);
            next.set(s.intern);
            s.intern = next;
          }
          s.intern[s.internN++] = strings.field(r);
        } else r.skip(wt);
        break;
      default:
        r.skip(wt);
    }
  }
  const intern = s.intern;
  const internN = s.internN;
  // A comm index past the table (or a missing one) is no comm.
  const comm = (c: VarintColumn, i: number) => {
    if (i >= c.n) return -1;
    const k = c.values[i]!;
    return k < internN ? intern[k]! : -1;
  };
  // Switches and wakings are two sorted runs: merge them so the CPU queue stays in time order.
  const nSw = swTs.n;
  const nWk = wkTs.n;
  const swT = swTs.values;
  const wkT = wkTs.values;
  let i = 0;
  let j = 0;
  let nextSw = nSw ? shift + swT[0]! : Infinity;
  let nextWk = nWk ? shift + wkT[0]! : Infinity;
  q.rows.reserve(q.rows.n + nSw + nWk);
  while (i < nSw || j < nWk) {
    if (nextSw <= nextWk) {
      q.push(
        nextSw,
        SWITCH,
        -1,
        i < swState.n ? swState.values[i]! : 0,
        i < swPid.n ? swPid.values[i]! : 0,
        -1,
        comm(swComm, i),
      );
      i++;
      nextSw = i < nSw ? nextSw + swT[i]! : Infinity;
    } else {
      q.push(nextWk, WAKING, j < wkPid.n ? wkPid.values[j]! : 0, 0, 0, comm(wkComm, j), -1);
      j++;
      nextWk = j < nWk ? nextWk + wkT[j]! : Infinity;
    }
  }
  return nSw + nWk;
}
