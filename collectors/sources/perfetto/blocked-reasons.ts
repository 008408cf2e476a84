// sched_blocked_reason (FtraceEvent field 18, protos/perfetto/trace/ftrace/sched.proto): the kernel function an
// uninterruptible sleep waited in and whether it was I/O. As trace processor's ThreadStateTracker::PushBlockedReason
// does, each event lands on its thread's last blocked (D) interval begun before it; the caller address is named from
// the sequence's interned kernel_symbols (InternedData field 26), and stays null when the trace does not name it.
import { THREAD_STATE_NAMES, type ThreadStateColumns } from "./rows";
import type { ProtoReader } from "./proto-reader";

const UNINTERRUPTIBLE = THREAD_STATE_NAMES.indexOf("uninterruptible");

export class BlockedReasons {
  private ts: number[] = [];
  private tid: number[] = [];
  private fn: (string | null)[] = [];
  private io: (boolean | null)[] = [];
  /** kernel symbol names by iid of the ftrace bundle's sequence (set by the decoder before each bundle) */
  symbols: Map<number, string> = new Map();

  /** One SchedBlockedReasonFtraceEvent at boot time `ts`. */
  event(r: ProtoReader, ts: number): void {
    let pid = 0;
    let caller: number | null = null;
    let io: boolean | null = null;
    while (r.more()) {
      const t = r.tag();
      if (t === 8) pid = r.int64();
      else if (t === 16) caller = r.varint();
      else if (t === 24) io = r.varint() !== 0;
      else r.skip(t & 7);
    }
    this.ts.push(ts);
    this.tid.push(pid);
    this.fn.push(caller === null ? null : (this.symbols.get(caller) ?? null));
    this.io.push(io);
  }

  get count(): number {
    return this.ts.length;
  }

  /** Sets blocked_function and io_wait on `c` (times already converted by `convert`, as these will be). */
  apply(c: ThreadStateColumns, convert: (t: number) => number): void {
    if (!this.ts.length) return;
    // Each thread's D intervals in time order.
    const byTid = new Map<number, number[]>();
    for (let i = 0; i < c.length; i++)
      if (c.state[i] === UNINTERRUPTIBLE) {
        let list = byTid.get(c.tid[i]!);
        if (!list) byTid.set(c.tid[i]!, (list = []));
        list.push(i);
      }
    for (const list of byTid.values()) list.sort((a, b) => c.ts[a]! - c.ts[b]!);
    const fn: (string | null)[] = new Array<string | null>(c.length).fill(null);
    const io: (boolean | null)[] = new Array<boolean | null>(c.length).fill(null);
    for (let k = 0; k < this.ts.length; k++) {
      const list = byTid.get(this.tid[k]!);
      if (!list) continue;
      const ts = convert(this.ts[k]!);
      // The last D interval that began at or before the event.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (c.ts[list[mid]!]! <= ts) lo = mid + 1;
        else hi = mid;
      }
      if (lo === 0) continue;
      const row = list[lo - 1]!;
      if (this.io[k] !== null) io[row] = this.io[k]!;
      if (this.fn[k] !== null) fn[row] = this.fn[k]!;
    }
    c.blockedFunction = fn;
    c.ioWait = io;
  }
}

/** Kernel symbol names from one InternedData message (field 26, InternedString: iid 1, str 2). */
export function readKernelSymbols(r: ProtoReader, into: Map<number, string>): void {
  while (r.more()) {
    const t = r.tag();
    if (t !== ((26 << 3) | 2)) {
      r.skip(t & 7);
      continue;
    }
    const m = r.message();
    let iid = 0;
    let str = "";
    while (m.more()) {
      const mt = m.tag();
      if (mt === 8) iid = m.varint();
      else if (mt === 18) str = m.string();
      else m.skip(mt & 7);
    }
    into.set(iid, str);
  }
}
