// Clock conversion through the trace's ClockSnapshots (protos/perfetto/trace/clock_snapshot.proto; builtin ids:
// MONOTONIC 3, BOOTTIME 6, the default trace clock). Every timestamp is first brought to BOOTTIME, then to
// CLOCK_MONOTONIC with the snapshot nearest in time, the way trace processor's ClockTracker picks one.
import { ProtoReader } from "./proto-reader";

export const CLOCK_MONOTONIC = 3;
export const CLOCK_BOOTTIME = 6;
const JITTER_NS = 1_000_000;

const NAMES: Record<number, string> = {
  1: "REALTIME",
  2: "REALTIME_COARSE",
  3: "MONOTONIC",
  4: "MONOTONIC_COARSE",
  5: "MONOTONIC_RAW",
  6: "BOOTTIME",
};

export function clockName(id: number): string {
  return NAMES[id] ?? `clock ${id}`;
}

export interface ClockConversion {
  /** source clock of the trace's timestamps */
  source: string;
  /** MONOTONIC - BOOTTIME applied, ns (the first snapshot's; `offsets` lists each distinct one) */
  offsetNs: number;
  offsets: number[];
  snapshots: number;
  /** false when no snapshot held both clocks and timestamps stayed in BOOTTIME */
  converted: boolean;
}

export class ClockSnapshots {
  private snaps: Map<number, number>[] = [];
  /** the clock of packets that name none (ClockSnapshot.primary_trace_clock, BOOTTIME unless a snapshot says) */
  primary = CLOCK_BOOTTIME;

  /** Reads one ClockSnapshot message. */
  add(r: ProtoReader): void {
    const clocks = new Map<number, number>();
    while (r.more()) {
      const t = r.tag();
      if (t === 16) {
        this.primary = r.varint() || CLOCK_BOOTTIME;
        continue;
      }
      if (t !== ((1 << 3) | 2)) {
        r.skip(t & 7);
        continue;
      }
      const c = r.message();
      let id = 0;
      let ts = 0;
      let multiplier = 1;
      while (c.more()) {
        const ct = c.tag();
        if (ct === 8) id = c.varint();
        else if (ct === 16) ts = c.varint();
        else if (ct === 32) multiplier = c.varint() || 1;
        else c.skip(ct & 7);
      }
      clocks.set(id, ts * multiplier);
    }
    if (clocks.size) this.snaps.push(clocks);
  }

  get count(): number {
    return this.snaps.length;
  }

  /** `ts` of clock `id` in BOOTTIME, or null when no snapshot relates the two clocks. */
  toBoot(id: number, ts: number): number | null {
    if (id === CLOCK_BOOTTIME) return ts;
    let best: number | null = null;
    let bestDist = Infinity;
    for (const s of this.snaps) {
      const c = s.get(id);
      const b = s.get(CLOCK_BOOTTIME);
      if (c === undefined || b === undefined) continue;
      const d = Math.abs(ts - c);
      if (d < bestDist) {
        bestDist = d;
        best = ts - c + b;
      }
    }
    return best;
  }

  /** The BOOTTIME -> MONOTONIC mapping: pairs (boot ts, offset) sorted by boot ts. */
  conversion(): { convert: (boot: number) => number; info: ClockConversion } {
    const pairs: [number, number][] = [];
    for (const s of this.snaps) {
      const b = s.get(CLOCK_BOOTTIME);
      const m = s.get(CLOCK_MONOTONIC);
      if (b !== undefined && m !== undefined) pairs.push([b, m - b]);
    }
    pairs.sort((x, y) => x[0] - y[0]);
    // Each snapshot reads its clocks one after the other, so offsets jitter by ~100 ns; only a change over 1 ms
    // (the device slept) is a new offset.
    const offsets: number[] = [];
    for (const [, off] of pairs) if (!offsets.some((o) => Math.abs(o - off) <= JITTER_NS)) offsets.push(off);
    const info: ClockConversion = {
      source: "BOOTTIME",
      offsetNs: pairs[0]?.[1] ?? 0,
      offsets,
      snapshots: this.snaps.length,
      converted: pairs.length > 0,
    };
    if (offsets.length <= 1) {
      const off = offsets[0] ?? 0;
      return { convert: (t) => t + off, info };
    }
    // Suspend moves BOOTTIME ahead of MONOTONIC: use the snapshot nearest each timestamp.
    const at = pairs.map((p) => p[0]);
    return {
      convert: (t) => {
        let lo = 0;
        let hi = at.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (at[mid]! < t) lo = mid + 1;
          else hi = mid;
        }
        const j = lo > 0 && Math.abs(at[lo - 1]! - t) <= Math.abs(at[lo]! - t) ? lo - 1 : lo;
        return t + pairs[j]![1];
      },
      info,
    };
  }
}
