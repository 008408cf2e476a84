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

/** Reads one CompactSched message into `s`: times made absolute (plus `shift`), comm indices made string ids
 * (-1: none), and missing trailing fields filled in; returns the events read. mergeCompactSched() queues them. */
export function readCompactSched(
  r: ProtoReader,
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
  // Timestamps are deltas from the previous one (the first from zero), summed in the order they come.
  absolute(swTs, shift);
  absolute(wkTs, shift);
  const nSw = swTs.n;
  const nWk = wkTs.n;
  padded(swState, nSw, 0);
  padded(swPid, nSw, 0);
  commIds(swComm, nSw, s);
  padded(wkPid, nWk, 0);
  commIds(wkComm, nWk, s);
  return nSw + nWk;
}

function absolute(c: VarintColumn, shift: number) {
  const v = c.values;
  let t = shift;
  for (let i = 0; i < c.n; i++) v[i] = t = t + v[i]!;
}

// A field shorter than the timestamps reads as `fill` past its end.
function padded(c: VarintColumn, n: number, fill: number) {
  while (c.n < n) c.push(fill);
}

// Comm indices to string ids in place: an index past the intern table, or a missing one, is no comm (-1).
function commIds(c: VarintColumn, n: number, s: CompactScratch) {
  const { intern, internN } = s;
  const v = c.values;
  const have = Math.min(c.n, n);
  for (let i = 0; i < have; i++) {
    const k = v[i]!;
    v[i] = k < internN ? intern[k]! : -1;
  }
  c.n = have;
  padded(c, n, -1);
}

/** Appends to `q` the bundle's events (`plain`) and the compact_sched ones read into `s`, merged in time: on ties
 * the bundle's events first, then switches, then wakings. */
export function mergeCompactSched(q: CpuQueue, plain: CpuQueue, s: CompactScratch): void {
  const np = plain.n;
  const nSw = s.swTs.n;
  const nWk = s.wkTs.n;
  const at = q.rows.n;
  const total = at + np + nSw + nWk;
  q.rows.reserve(total);
  const { ts, kind, tid, a, b, s1, s2 } = q.rows.cols;
  const { ts: pTs, kind: pKind, tid: pTid, a: pA, b: pB, s1: pS1, s2: pS2 } = plain.rows.cols;
  const swT = s.swTs.values;
  const swState = s.swState.values;
  const swPid = s.swPid.values;
  const swComm = s.swComm.values;
  const wkT = s.wkTs.values;
  const wkPid = s.wkPid.values;
  const wkComm = s.wkComm.values;
  let i = 0;
  let j = 0;
  let l = 0;
  for (let k = at; k < total; k++) {
    if (i < np && (j >= nSw || pTs[i]! <= swT[j]!) && (l >= nWk || pTs[i]! <= wkT[l]!)) {
      ts[k] = pTs[i]!;
      kind[k] = pKind[i]!;
      tid[k] = pTid[i]!;
      a[k] = pA[i]!;
      b[k] = pB[i]!;
      s1[k] = pS1[i]!;
      s2[k] = pS2[i]!;
      i++;
    } else if (j < nSw && (l >= nWk || swT[j]! <= wkT[l]!)) {
      // compact_sched has no prev_pid (-1: the CPU's last switched-to tid) nor prev_comm.
      ts[k] = swT[j]!;
      kind[k] = SWITCH;
      tid[k] = -1;
      a[k] = swState[j]!;
      b[k] = swPid[j]!;
      s1[k] = -1;
      s2[k] = swComm[j]!;
      j++;
    } else {
      ts[k] = wkT[l]!;
      kind[k] = WAKING;
      tid[k] = wkPid[l]!;
      a[k] = 0;
      b[k] = 0;
      s1[k] = wkComm[l]!;
      s2[k] = -1;
      l++;
    }
  }
  q.rows.n = total;
  // Compact times only grow (unsigned deltas): each list's newest is its last.
  const newest = Math.max(plain.last, nSw ? swT[nSw - 1]! : -Infinity, nWk ? wkT[nWk - 1]! : -Infinity);
  if (newest > q.last) q.last = newest;
}
