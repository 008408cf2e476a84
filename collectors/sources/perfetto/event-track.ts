// Which track a TrackEvent lands on when it names no descriptor track, as trace processor chooses
// (src/trace_processor/importers/proto/track_event_event_importer.h ParseInitialTrackAssociation): an explicit
// track_uuid 0 with a real type is the global "Default Track"; events without a uuid, or with a legacy phase, fall
// back to the sequence's thread (its thread descriptor); pid_override / tid_override pick another thread or
// process; a legacy instant ('I', 'i') scoped to the process or globally goes to that process's or the global track.

export interface SequenceThread {
  pid: number;
  tid: number;
}

export interface TrackFields {
  /** the event's track_uuid, or null when it had none */
  uuid: number | null;
  hasType: boolean;
  /** LegacyEvent phase (a char code), 0 when none */
  phase: number;
  /** LegacyEvent.instant_event_scope: 0 unspecified, 1 global, 2 process, 3 thread */
  scope: number;
  pidOverride: number | null;
  tidOverride: number | null;
}

export interface TrackShape {
  name: string | null;
  pid: number | null;
  tid: number | null;
  parent: number | null;
}

export const DEFAULT_TRACK_NAME = "Default Track";
// trace processor's track type for them (importers/common/tracks_common.h kLegacyGlobalInstantsBlueprint).
const GLOBAL_INSTANTS = "legacy_chrome_global_instants";

/** Tracks the fallbacks need, kept in the descriptor tracks' map under negative keys (uuids are unsigned). */
export class SyntheticTracks {
  private keys = new Map<string, number>();

  constructor(private readonly tracks: Map<number, TrackShape>) {}

  key(kind: string, shape: TrackShape): number {
    const id = `${kind}|${shape.pid}|${shape.tid}`;
    let k = this.keys.get(id);
    if (k === undefined) {
      k = -1 - this.keys.size;
      this.keys.set(id, k);
      this.tracks.set(k, shape);
    }
    return k;
  }
}

/** The track key (a descriptor uuid, 0 for the default track, or a synthetic key) of one event. */
export function eventTrack(
  e: TrackFields,
  defaultTrack: number | null,
  thread: SequenceThread | null,
  synthetic: SyntheticTracks,
): number {
  const uuid = e.uuid ?? defaultTrack ?? 0;
  if (uuid !== 0) return uuid;
  const fallback =
    ((e.uuid === null || !e.hasType) && thread !== null) ||
    e.pidOverride !== null ||
    (e.tidOverride !== null && thread !== null);
  let pid: number | null = null;
  let tid: number | null = null;
  if (fallback) {
    pid = e.pidOverride ?? thread!.pid;
    // A pid override without a tid override is a thread of its own in that process: its process track here.
    tid = e.tidOverride ?? (e.pidOverride !== null ? null : thread!.tid);
  }
  if (e.phase === 73 /* I */ || e.phase === 105 /* i */) {
    if (e.scope === 1)
      return synthetic.key("global", { name: GLOBAL_INSTANTS, pid: null, tid: null, parent: null });
    if (e.scope === 2 && pid !== null) tid = null;
  }
  if (pid === null) return 0;
  return synthetic.key(tid === null ? "process" : "thread", { name: null, pid, tid, parent: null });
}
