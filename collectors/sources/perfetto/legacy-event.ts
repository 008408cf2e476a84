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
  /** async ids: unscoped_id and global_id are trace-wide, local_id is the process's */
  unscopedId: number | null;
  globalId: number | null;
  localId: number | null;
  idScope: string | null;
}

// Names trace processor gives unnamed counter tracks of a built-in type (CounterDescriptor.BuiltinCounterType:
// COUNTER_THREAD_TIME_NS 1, COUNTER_THREAD_INSTRUCTION_COUNT 2).
const BUILTIN_COUNTERS: Record<number, string> = { 1: "thread_time", 2: "thread_instruction_count" };

// CounterDescriptor (counter_descriptor.proto): type 1, unit_multiplier 4, is_incremental 5.
export function counterDescriptor(
  m: ProtoReader,
  track: { name: string | null; multiplier?: number; incremental?: boolean },
) {
  while (m.more()) {
    const t = m.tag();
    if (t === 8) track.name ??= BUILTIN_COUNTERS[m.varint()] ?? null;
    else if (t === 32) track.multiplier = m.int64();
    else if (t === 40) track.incremental = m.varint() !== 0;
    else m.skip(t & 7);
  }
}

// LegacyEvent phases (Chrome JSON trace phases) as track_event types: B begin, E end, X complete, I/i/R instant;
// async b/S begin, e/F end, n and the steps T/p instants (track_event_event_importer.h ParseAsync*Event).
export const LEGACY_TYPES: Record<number, number> = {
  66: 1,
  69: 2,
  88: 1,
  73: 3,
  105: 3,
  82: 3,
  98: 1,
  83: 1,
  101: 2,
  70: 2,
  110: 3,
  84: 3,
  112: 3,
};

// b e n S T p F
const ASYNC_PHASES = new Set([98, 101, 110, 83, 84, 112, 70]);

/** The async track a legacy async event goes on, as trace processor interns it (track_event_event_importer.h
 * ParseTrackAssociationInternal): by its id (a local_id within its process), and by its name for the old S/T/p/F
 * phases or its category for the nestable b/e/n ones (an id_scope replaces either). `kind` keys the track, `pid`
 * is set for a process-scoped one; null for a non-async phase, `undefined` for an async event without a usable
 * id (trace processor drops it). */
export function legacyAsyncTrack(
  l: Legacy,
  name: string,
  category: string,
  pid: number | null,
): { kind: string; pid: number | null } | null | undefined {
  if (!ASYNC_PHASES.has(l.phase)) return null;
  const id = l.unscopedId ?? l.globalId ?? l.localId;
  if (id === null || (l.unscopedId === null && l.globalId === null && pid === null)) return undefined;
  const local = l.unscopedId === null && l.globalId === null;
  const old = l.phase === 83 || l.phase === 84 || l.phase === 112 || l.phase === 70;
  const scope = l.idScope !== null ? `${category}:${l.idScope}` : old ? `n:${name}` : `c:${category}`;
  return { kind: `legacy-async|${id}|${scope}`, pid: local ? pid : null };
}

export function readLegacy(m: ProtoReader): Legacy {
  const l: Legacy = {
    phase: 0,
    nameIid: null,
    durationUs: 0,
    scope: 0,
    pidOverride: null,
    tidOverride: null,
    unscopedId: null,
    globalId: null,
    localId: null,
    idScope: null,
  };
  // name_iid 1, phase 2, duration_us 3, unscoped_id 6, id_scope 7, local_id 10, global_id 11,
  // instant_event_scope 14, pid_override 18, tid_override 19
  while (m.more()) {
    const t = m.tag();
    if (t === 8) l.nameIid = m.varint();
    else if (t === 16) l.phase = m.int64();
    else if (t === 24) l.durationUs = m.int64();
    else if (t === 112) l.scope = m.varint();
    else if (t === 144) l.pidOverride = m.int64();
    else if (t === 152) l.tidOverride = m.int64();
    else if (t === 48) l.unscopedId = m.int64();
    else if (t === 58) l.idScope = m.string();
    else if (t === 80) l.localId = m.int64();
    else if (t === 88) l.globalId = m.int64();
    else m.skip(t & 7);
  }
  return l;
}
