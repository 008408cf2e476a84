// TrackEvent slices and counters (protos/perfetto/trace/track_event/track_event.proto) on the tracks that
// TrackDescriptors declare (track_descriptor.proto; process and thread descriptors name them). Names and
// categories may be interned per sequence (interned_data.proto event_names 2, event_categories 1).
import { ProtoReader, WIRE_LEN, WIRE_VARINT } from "./proto-reader";
import type { CounterRow, ProcessRow, SliceRow, ThreadRow } from "./rows";

interface Track {
  name: string | null;
  pid: number | null;
  tid: number | null;
  parent: number | null;
}

/** Per-sequence interning tables. */
export interface Interned {
  names: Map<number, string>;
  categories: Map<number, string>;
}

export function newInterned(): Interned {
  return { names: new Map(), categories: new Map() };
}

/** Adds an InternedData message's event names and categories. */
export function readInterned(r: ProtoReader, into: Interned): void {
  while (r.more()) {
    const t = r.tag();
    const f = t >>> 3;
    if ((t & 7) !== WIRE_LEN || (f !== 1 && f !== 2)) {
      r.skip(t & 7);
      continue;
    }
    const m = r.message();
    let iid = 0;
    let name = "";
    while (m.more()) {
      const mt = m.tag();
      if (mt === 8) iid = m.varint();
      else if (mt === 18) name = m.string();
      else m.skip(mt & 7);
    }
    (f === 1 ? into.categories : into.names).set(iid, name);
  }
}

export class TrackEvents {
  readonly slices: SliceRow[] = [];
  readonly counters: CounterRow[] = [];
  readonly processes = new Map<number, ProcessRow>();
  readonly threads = new Map<number, ThreadRow>();
  private tracks = new Map<number, Track>();
  private stacks = new Map<number, SliceRow[]>();
  private sliceTrack: number[] = [];
  private counterTrack: number[] = [];
  unmatchedEnds = 0;
  missingInterned = 0;

  descriptor(r: ProtoReader): void {
    let uuid = 0;
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
      else r.skip(wt);
    }
    this.tracks.set(uuid, track);
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
    if (name !== null) this.threads.set(tid, { tid, name, pid });
  }

  /** One TrackEvent at `ts` (trace clock); `defaultTrack` from the sequence's TrackEventDefaults. */
  event(r: ProtoReader, ts: number, interned: Interned, defaultTrack: number | null): void {
    let type = 0;
    let track = defaultTrack ?? 0;
    let name: string | null = null;
    let nameIid: number | null = null;
    const catIids: number[] = [];
    const cats: string[] = [];
    let value: number | null = null;
    let legacy: Legacy | null = null;
    while (r.more()) {
      const t = r.tag();
      const f = t >>> 3;
      const wt = t & 7;
      if (f === 9 && wt === WIRE_VARINT) type = r.varint();
      else if (f === 11 && wt === WIRE_VARINT) track = r.varint();
      else if (f === 23 && wt === WIRE_LEN) name = r.string();
      else if (f === 10 && wt === WIRE_VARINT) nameIid = r.varint();
      else if (f === 3) r.packedVarints(wt, catIids);
      else if (f === 22 && wt === WIRE_LEN) cats.push(r.string());
      else if (f === 30 && wt === WIRE_VARINT) value = r.int64();
      else if (f === 44 && wt === 1) value = r.double();
      else if (f === 6 && wt === WIRE_LEN) legacy = readLegacy(r.message());
      else r.skip(wt);
    }
    // Old producers write legacy_event phases instead of a type (track_event.proto LegacyEvent, field 6).
    if (type === 0 && legacy) {
      type = LEGACY_TYPES[legacy.phase] ?? 0;
      nameIid ??= legacy.nameIid;
      if (legacy.phase === 88 /* X */) {
        this.slice(
          ts,
          legacy.durationUs * 1000,
          name ?? this.name(nameIid, interned),
          0,
          category(cats, catIids, interned, this),
          track,
        );
        return;
      }
    }
    // track_uuid 0 means the sequence's own (default) track.
    if (track === 0 && defaultTrack !== null) track = defaultTrack;
    name ??= this.name(nameIid, interned);
    const cat = category(cats, catIids, interned, this);
    switch (type) {
      case 1: {
        let stack = this.stacks.get(track);
        if (!stack) this.stacks.set(track, (stack = []));
        const row = this.slice(ts, null, name, stack.length, cat, track);
        stack.push(row);
        return;
      }
      case 2: {
        const row = this.stacks.get(track)?.pop();
        if (row) row.dur = ts - row.ts;
        else this.unmatchedEnds++;
        return;
      }
      case 3:
        this.slice(ts, 0, name, this.stacks.get(track)?.length ?? 0, cat, track);
        return;
      case 4:
        if (value !== null) {
          this.counters.push({ ts, pid: null, name: "", value });
          this.counterTrack.push(track);
        }
        return;
      default:
        return;
    }
  }

  private name(iid: number | null, interned: Interned): string | null {
    if (iid === null) return null;
    const name = interned.names.get(iid);
    if (name === undefined) this.missingInterned++;
    return name ?? null;
  }

  private slice(
    ts: number,
    dur: number | null,
    name: string | null,
    depth: number,
    category: string,
    track: number,
  ) {
    const row: SliceRow = {
      ts,
      dur,
      pid: null,
      tid: null,
      thread_name: null,
      name: name ?? "[unnamed]",
      depth,
      category,
      track: null,
    };
    this.slices.push(row);
    this.sliceTrack.push(track);
    return row;
  }

  /** Fills pid, tid and track names once every descriptor has been seen (they may follow the events). */
  resolve(): void {
    const info = (uuid: number) => {
      let t = this.tracks.get(uuid);
      let pid = t?.pid ?? null;
      for (let hop = 0; t && pid === null && t.parent !== null && hop < 8; hop++) {
        t = this.tracks.get(t.parent);
        pid = t?.pid ?? null;
      }
      return pid;
    };
    this.slices.forEach((row, i) => {
      const uuid = this.sliceTrack[i]!;
      const t = this.tracks.get(uuid);
      row.pid = info(uuid);
      row.tid = t?.tid ?? null;
      if (row.tid === null) row.track = t?.name ?? `track ${uuid}`;
    });
    this.counters.forEach((row, i) => {
      const uuid = this.counterTrack[i]!;
      row.pid = info(uuid);
      row.name = this.tracks.get(uuid)?.name ?? `track ${uuid}`;
    });
  }
}

interface Legacy {
  phase: number;
  nameIid: number | null;
  durationUs: number;
}

// LegacyEvent phases (Chrome JSON trace phases): B begin, E end, X complete, I/i/n/R instant.
const LEGACY_TYPES: Record<number, number> = { 66: 1, 69: 2, 88: 1, 73: 3, 105: 3, 110: 3, 82: 3 };

function readLegacy(m: ProtoReader): Legacy {
  const l: Legacy = { phase: 0, nameIid: null, durationUs: 0 };
  while (m.more()) {
    const t = m.tag();
    if (t === 8) l.nameIid = m.varint();
    else if (t === 16) l.phase = m.int64();
    else if (t === 24) l.durationUs = m.int64();
    else m.skip(t & 7);
  }
  return l;
}

function category(cats: string[], iids: number[], interned: Interned, counter: { missingInterned: number }) {
  for (const iid of iids) {
    const c = interned.categories.get(iid);
    if (c === undefined) counter.missingInterned++;
    else cats.push(c);
  }
  return `track_event${cats.length ? ":" + cats.join(",") : ""}`;
}
