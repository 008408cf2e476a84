// TrackEvent slices and counters (protos/perfetto/trace/track_event/track_event.proto) on the tracks that
// TrackDescriptors declare (track_descriptor.proto; process and thread descriptors name them). Names and
// categories may be interned per sequence (interned_data.proto event_names 2, event_categories 1).
import {
  DEFAULT_TRACK_NAME,
  SyntheticTracks,
  eventTrack,
  type SequenceThread,
  type TrackShape,
} from "./event-track";
import type { Interned } from "./interned";
import { LEGACY_TYPES, counterDescriptor, legacyAsyncTrack, readLegacy, type Legacy } from "./legacy-event";
import { ProtoReader, WIRE_LEN, WIRE_VARINT } from "./proto-reader";
import type { CounterRow, ProcessRow, ThreadRow } from "./rows";
import { newExtra, readExtraCounter, type ExtraCounterTracks } from "./extra-counters";
import { SliceBuilder } from "./slice-builder";
import type { StringTable } from "./string-table";

export { newInterned, readInterned, type Interned } from "./interned";

interface Track extends TrackShape {
  /** CounterDescriptor.is_incremental: each value adds to the last on its sequence */
  incremental?: boolean;
  /** CounterDescriptor.unit_multiplier */
  multiplier?: number;
}

interface TrackInfo {
  pid: number;
  tid: number;
  track: number;
}

export class TrackEvents {
  /** slices in event order; pid, tid and track are filled by resolve() */
  readonly rows = new SliceBuilder();
  readonly counters: CounterRow[] = [];
  readonly processes = new Map<number, ProcessRow>();
  /** thread descriptors' names by pid and tid: one tid may be a thread of two processes (pid namespaces) */
  readonly threads = new Map<string, ThreadRow>();
  private tracks = new Map<number, Track>();
  private synthetic = new SyntheticTracks(this.tracks);
  /** open slice rows per track uuid, innermost last */
  private stacks = new Map<number, number[]>();
  private sliceTrack: number[] = [];
  private counterTrack: number[] = [];
  private catIids: number[] = [];
  private catTexts: string[] = [];
  private sub = new ProtoReader(new Uint8Array(0), 0, 0);
  private readonly unnamed: number;
  unmatchedEnds = 0;
  missingInterned = 0;
  /** legacy async events with no id to put them on a track (trace processor drops them too) */
  asyncWithoutId = 0;
  /** extra counter values with no track uuid at their index */
  extraWithoutTrack = 0;

  constructor(private readonly strings: StringTable) {
    this.unnamed = strings.text("[unnamed]");
  }

  /** One TrackDescriptor; returns the thread it describes (which becomes its sequence's thread), if any. */
  descriptor(r: ProtoReader): SequenceThread | null {
    let uuid = 0;
    let mergeNone = false;
    const track: Track = { name: null, pid: null, tid: null, parent: null };
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      const wt = t & 7;
      if (f === 1 && wt === WIRE_VARINT) uuid = r.varint();
      else if (f === 5 && wt === WIRE_VARINT) track.parent = r.varint();
      else if ((f === 2 || f === 10 || f === 13) && wt === WIRE_LEN) track.name = r.string();
      else if (f === 3 && wt === WIRE_LEN) this.process(r.message(), track);
      else if (f === 4 && wt === WIRE_LEN) this.thread(r.message(), track);
      else if (f === 8 && wt === WIRE_LEN) counterDescriptor(r.message(), track);
      else if (f === 15 && wt === WIRE_VARINT) mergeNone = r.varint() === 2;
      else r.skip(wt);
    }
    // A uuid described again keeps its first name, or takes the last one with SIBLING_MERGE_BEHAVIOR_NONE; a
    // descriptor without a name never clears one (track_descriptor.proto, on the name field).
    const prev = this.tracks.get(uuid);
    if (prev?.name != null && (track.name === null || !mergeNone)) track.name = prev.name;
    this.tracks.set(uuid, track);
    return track.tid !== null && track.pid !== null ? { pid: track.pid, tid: track.tid } : null;
  }

  private process(m: ProtoReader, track: Track) {
    let pid: number | null = null;
    let name: string | null = null;
    let cmdline: string | null = null;
    while (m.more()) {
      const t = m.tag();
      if (t === 8) pid = m.int64();
      else if (t === 18) cmdline ??= m.string();
      else if (t === 50) name = m.string();
      else m.skip(t & 7);
    }
    if (pid === null) return;
    track.pid = pid;
    track.name ??= name ?? cmdline;
    this.processes.set(pid, { pid, ppid: null, name: name ?? cmdline, uid: null });
  }

  private thread(m: ProtoReader, track: Track) {
    let pid: number | null = null;
    let tid: number | null = null;
    let name: string | null = null;
    while (m.more()) {
      const t = m.tag();
      if (t === 8) pid = m.int64();
      else if (t === 16) tid = m.int64();
      else if (t === 42) name = m.string();
      else m.skip(t & 7);
    }
    if (tid === null) return;
    track.pid = pid;
    track.tid = tid;
    track.name ??= name;
    if (name !== null) this.threads.set(`${pid}|${tid}`, { tid, name, pid });
  }

  /** One TrackEvent at `ts` (trace clock); `defaultTrack` from the sequence's TrackEventDefaults, `thread` the
   * sequence's thread descriptor. */
  event(
    r: ProtoReader,
    ts: number,
    interned: Interned,
    defaultTrack: number | null,
    thread: SequenceThread | null,
    extraDefaults: ExtraCounterTracks | null = null,
  ): void {
    let type = 0;
    let uuid: number | null = null;
    // Name as a string-table id (-1: none given), or an interned iid (-1: none).
    let name = -1;
    let nameIid = -1;
    // Category iids: the first one in a local (nearly every event has one), any more in an array.
    let cat1 = -1;
    const catIids = this.catIids;
    const cats = this.catTexts;
    // Setting an array's length is a runtime call: only when there is something to drop.
    if (catIids.length) catIids.length = 0;
    if (cats.length) cats.length = 0;
    let value: number | null = null;
    let legacy: Legacy | null = null;
    let extra: ExtraCounterTracks | null = null;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      const wt = t & 7;
      if (f === 9 && wt === WIRE_VARINT) type = r.varint();
      else if (f === 11 && wt === WIRE_VARINT) uuid = r.varint();
      else if (f === 23 && wt === WIRE_LEN) name = this.strings.field(r);
      else if (f === 10 && wt === WIRE_VARINT) nameIid = r.varint();
      else if (f === 3 && wt === WIRE_VARINT && cat1 < 0 && catIids.length === 0) cat1 = r.varint();
      else if (f === 3) {
        if (cat1 >= 0) catIids.push(cat1);
        cat1 = -1;
        r.packedVarints(wt, catIids);
      } else if (f === 22 && wt === WIRE_LEN) cats.push(r.string());
      else if (f === 30 && wt === WIRE_VARINT) value = r.int64();
      else if (f === 44 && wt === 1) value = r.double();
      else if (f === 6 && wt === WIRE_LEN) legacy = readLegacy(this.sub.enter(r));
      else if (f === 12 || f === 31 || f === 45 || f === 46)
        readExtraCounter(r, f, wt, (extra ??= newExtra()));
      else r.skip(wt);
    }
    if (extra) this.extraCounters(ts, extra, extraDefaults, interned);
    let track = eventTrack(
      {
        uuid,
        hasType: type !== 0,
        phase: legacy?.phase ?? 0,
        scope: legacy?.scope ?? 0,
        pidOverride: legacy?.pidOverride ?? null,
        tidOverride: legacy?.tidOverride ?? null,
      },
      defaultTrack,
      thread,
      this.synthetic,
    );
    // Old producers write legacy_event phases instead of a type (track_event.proto LegacyEvent, field 6).
    if (type === 0 && legacy) {
      type = LEGACY_TYPES[legacy.phase] ?? 0;
      if (nameIid < 0 && legacy.nameIid !== null) nameIid = legacy.nameIid;
      if (legacy.phase === 88 /* X */) {
        if (name < 0) name = this.name(nameIid, interned);
        this.slice(ts, legacy.durationUs * 1000, name, 0, this.category(interned, cat1), track);
        return;
      }
    }
    if (name < 0) name = this.name(nameIid, interned);
    const cat = this.category(interned, cat1);
    if (legacy && LEGACY_TYPES[legacy.phase] === type) {
      // A legacy async event: on the track its id names, not its thread's.
      const pid = this.pidOf(track);
      const a = legacyAsyncTrack(legacy, this.strings.get(name), this.strings.get(cat), pid);
      if (a === undefined) return void this.asyncWithoutId++;
      if (a !== null)
        track = this.synthetic.key(a.kind, {
          name: this.strings.get(name),
          pid: a.pid,
          tid: null,
          parent: null,
        });
    }
    switch (type) {
      case 1: {
        let stack = this.stacks.get(track);
        if (!stack) this.stacks.set(track, (stack = []));
        stack.push(this.slice(ts, NaN, name, stack.length, cat, track));
        return;
      }
      case 2: {
        const row = this.stacks.get(track)?.pop();
        if (row !== undefined) this.rows.end(row, ts);
        else this.unmatchedEnds++;
        return;
      }
      case 3:
        this.slice(ts, 0, name, this.stacks.get(track)?.length ?? 0, cat, track);
        return;
      case 4:
        if (value !== null) this.counter(ts, track, value, interned);
        return;
      default:
        return;
    }
  }

  private counter(ts: number, track: number, value: number, interned: Interned) {
    const t = this.tracks.get(track);
    if (t?.multiplier !== undefined) value *= t.multiplier;
    // Incremental counters carry deltas: the value is the sequence's running total (trace processor's
    // track_event_tokenizer.cc, IncrementAndGetTrackEventValue).
    if (t?.incremental) interned.totals.set(track, (value += interned.totals.get(track) ?? 0));
    this.counters.push({ ts, pid: null, name: "", value });
    this.counterTrack.push(track);
  }

  /** Counter values riding on an event, each on the track at its index in the event's own uuids, else in the
   * sequence's TrackEventDefaults (track_event.proto extra_counter_values / extra_double_counter_values). */
  private extraCounters(ts: number, e: ExtraCounterTracks, d: ExtraCounterTracks | null, interned: Interned) {
    const ints = e.intTracks.length ? e.intTracks : (d?.intTracks ?? []);
    const doubles = e.doubleTracks.length ? e.doubleTracks : (d?.doubleTracks ?? []);
    e.ints.forEach((v, i) =>
      i < ints.length ? this.counter(ts, ints[i]!, v, interned) : this.extraWithoutTrack++,
    );
    e.doubles.forEach((v, i) =>
      i < doubles.length ? this.counter(ts, doubles[i]!, v, interned) : this.extraWithoutTrack++,
    );
  }

  /** The string id of an interned name; "[unnamed]" when there is none. */
  private name(iid: number, interned: Interned): number {
    if (iid < 0) return this.unnamed;
    const id = interned.nameIds.get(iid);
    if (id !== undefined) return id;
    const name = interned.names.get(iid);
    if (name === undefined) {
      this.missingInterned++;
      return this.unnamed;
    }
    const k = this.strings.text(name);
    interned.nameIds.set(iid, k);
    return k;
  }

  /** `track_event` or `track_event:<categories>` (given ones first, then interned ones) as a string id. */
  private category(interned: Interned, cat1: number): number {
    const iids = this.catIids;
    const cats = this.catTexts;
    const single = cat1 >= 0 && iids.length === 0 && cats.length === 0;
    if (single) {
      const id = interned.categoryIds.get(cat1);
      if (id !== undefined) return id;
    }
    if (cat1 >= 0) iids.push(cat1);
    for (const iid of iids) {
      const c = interned.categories.get(iid);
      if (c === undefined) this.missingInterned++;
      else cats.push(c);
    }
    const id = this.strings.text(`track_event${cats.length ? ":" + cats.join(",") : ""}`);
    if (single && cats.length === 1) interned.categoryIds.set(cat1, id);
    return id;
  }

  private slice(ts: number, dur: number, name: number, depth: number, category: number, track: number) {
    this.sliceTrack.push(track);
    return this.rows.push(ts, dur, NaN, NaN, depth, name, category, -1);
  }

  private pidOf(uuid: number): number | null {
    let t = this.tracks.get(uuid);
    let pid = t?.pid ?? null;
    for (let hop = 0; t && pid === null && t.parent !== null && hop < 8; hop++) {
      t = this.tracks.get(t.parent);
      pid = t?.pid ?? null;
    }
    return pid;
  }

  /** Fills pid, tid and track names once every descriptor has been seen (they may follow the events). */
  resolve(): void {
    // Tracks are few and slices many: each track's pid, tid and name once.
    const known = new Map<number, TrackInfo>();
    // A descriptor track without a name is named by its earliest event (track_event_tracker.cc names it by the
    // event that first uses it, in trace processor's time order).
    const first = new Map<number, number>();
    const { ts, name } = this.rows.rows.cols;
    for (let i = 0; i < this.sliceTrack.length; i++) {
      const uuid = this.sliceTrack[i]!;
      const t = this.tracks.get(uuid);
      // Thread tracks and process tracks (a pid, no parent) are named by their thread and process.
      if (!t || t.name || t.tid !== null || (t.parent === null && t.pid !== null)) continue;
      const k = first.get(uuid);
      if (k === undefined || ts[i]! < ts[k]!) first.set(uuid, i);
    }
    for (let i = 0; i < this.sliceTrack.length; i++) {
      const uuid = this.sliceTrack[i]!;
      let info = known.get(uuid);
      if (!info) {
        const t = this.tracks.get(uuid);
        const threadId = t?.tid ?? null;
        const earliest = first.get(uuid);
        info = {
          pid: this.pidOf(uuid) ?? NaN,
          tid: threadId ?? NaN,
          track:
            earliest !== undefined
              ? name[earliest]!
              : threadId === null
                ? this.strings.text(this.trackName(uuid))
                : -1,
        };
        known.set(uuid, info);
      }
      this.rows.place(i, info.pid, info.tid, info.track);
    }
    this.counters.forEach((row, i) => {
      const uuid = this.counterTrack[i]!;
      row.pid = this.pidOf(uuid);
      row.name = this.trackName(uuid);
    });
  }

  // A fallback process track is named by its process; uuid 0 without a descriptor is the global default track.
  private trackName(uuid: number): string {
    const t = this.tracks.get(uuid);
    if (t?.name) return t.name;
    if (uuid === 0) return DEFAULT_TRACK_NAME;
    if (t && t.pid !== null && t.tid === null) return this.processes.get(t.pid)?.name ?? `process ${t.pid}`;
    return `track ${uuid}`;
  }
}
