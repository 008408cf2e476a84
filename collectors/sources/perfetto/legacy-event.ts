// TrackEvent.LegacyEvent (track_event.proto field 6): the Chrome JSON phases old producers write instead of a type,
// and CounterDescriptor (counter_descriptor.proto) read off a TrackDescriptor.
import type { ProtoReader } from "./proto-reader";

export interface Legacy {
  phase: number;
  nameIid: number | null;
  durationUs: number;
  scope: number;
  pidOverride: number | null;
  tidOverride: number | null;
}

// CounterDescriptor (counter_descriptor.proto): unit_multiplier 4, is_incremental 5.
export function counterDescriptor(m: ProtoReader, track: { multiplier?: number; incremental?: boolean }) {
  while (m.more()) {
    const t = m.tag();
    if (t === 32) track.multiplier = m.int64();
    else if (t === 40) track.incremental = m.varint() !== 0;
    else m.skip(t & 7);
  }
}

// LegacyEvent phases (Chrome JSON trace phases): B begin, E end, X complete, I/i/n/R instant.
export const LEGACY_TYPES: Record<number, number> = { 66: 1, 69: 2, 88: 1, 73: 3, 105: 3, 110: 3, 82: 3 };

export function readLegacy(m: ProtoReader): Legacy {
  const l: Legacy = {
    phase: 0,
    nameIid: null,
    durationUs: 0,
    scope: 0,
    pidOverride: null,
    tidOverride: null,
  };
  // name_iid 1, phase 2, duration_us 3, instant_event_scope 14, pid_override 18, tid_override 19
  while (m.more()) {
    const t = m.tag();
    if (t === 8) l.nameIid = m.varint();
    else if (t === 16) l.phase = m.int64();
    else if (t === 24) l.durationUs = m.int64();
    else if (t === 112) l.scope = m.varint();
    else if (t === 144) l.pidOverride = m.int64();
    else if (t === 152) l.tidOverride = m.int64();
    else m.skip(t & 7);
  }
  return l;
}
