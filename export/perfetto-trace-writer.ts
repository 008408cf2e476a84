// Writes a Perfetto trace of TrackEvents (protos/perfetto/trace/trace_packet.proto, track_event/*.proto) on
// tracks that TrackDescriptors declare: process and thread tracks, named tracks, counter tracks. Slices that
// overlap without nesting go to sibling lanes of the same name (Perfetto UI shows same-named siblings as one
// track); events leave sorted by time, each track's begins and ends in stack order.
import { ProtoWriter } from "./proto-writer";

// Field numbers: trace.proto Trace.packet 1; TracePacket timestamp 8, clock_snapshot 6,
// trusted_packet_sequence_id 10, track_event 11, interned_data 12, sequence_flags 13, track_descriptor 60.
const PACKET = 1;
const P = {
  timestamp: 8,
  clockSnapshot: 6,
  sequenceId: 10,
  trackEvent: 11,
  interned: 12,
  sequenceFlags: 13,
  trackDescriptor: 60,
};
// TrackEvent: category_iids 3, debug_annotations 4, type 9, name_iid 10, track_uuid 11, double_counter_value 44,
// flow_ids 47, terminating_flow_ids 48. Type: SLICE_BEGIN 1, SLICE_END 2, INSTANT 3, COUNTER 4.
const E = {
  categoryIid: 3,
  args: 4,
  type: 9,
  nameIid: 10,
  track: 11,
  doubleValue: 44,
  flows: 47,
  terminating: 48,
};
// InternedData (interned_data.proto): event_categories 1, event_names 2, each an {iid 1, name 2}.
const INTERNED_CATEGORIES = 1;
const INTERNED_NAMES = 2;
const BEGIN = 1;
const END = 2;
const INSTANT = 3;
const COUNTER = 4;
const SEQ_INCREMENTAL_STATE_CLEARED = 1;
const SEQ_NEEDS_INCREMENTAL_STATE = 2;
// clock_snapshot.proto BuiltinClock: MONOTONIC 3, BOOTTIME 6 (the trace's default clock).
const CLOCK_MONOTONIC = 3;
const CLOCK_BOOTTIME = 6;

export type ArgValue = string | number | bigint | boolean | null;

export interface SpanInput {
  ts: number;
  /** null: still open when the trace ended */
  dur: number | null;
  name: string;
  category?: string;
  args?: Record<string, ArgValue>;
  /** flows that start at this slice's begin (TrackEvent.flow_ids) */
  flowOut?: number[];
  /** flows that end at this slice's begin (TrackEvent.terminating_flow_ids) */
  flowIn?: number[];
}

interface Track {
  uuid: number;
  parent: number | null;
  name: string | null;
  pid?: number;
  tid?: number;
  kind: "process" | "thread" | "named" | "counter";
  spans: SpanInput[];
  counts: { ts: number; value: number }[];
}

interface Ev {
  ts: number;
  type: number;
  track: number;
  span: SpanInput | null;
  value: number;
}

export class PerfettoTraceWriter {
  private tracks: Track[] = [];
  private processes = new Map<number, number>();
  private threads = new Map<number, number>();
  // Names and categories are interned per sequence, as TrackEvent producers do: each string is written once.
  private names = new Map<string, number>();
  private categories = new Map<string, number>();

  constructor(private readonly sequenceId = 1) {}

  private add(t: Omit<Track, "uuid" | "spans" | "counts">): number {
    const uuid = this.tracks.length + 1;
    this.tracks.push({ ...t, uuid, spans: [], counts: [] });
    return uuid;
  }

  processTrack(pid: number, name: string | null): number {
    let uuid = this.processes.get(pid);
    if (uuid === undefined)
      this.processes.set(pid, (uuid = this.add({ kind: "process", parent: null, name, pid })));
    return uuid;
  }

  threadTrack(pid: number | null, tid: number, name: string | null): number {
    let uuid = this.threads.get(tid);
    if (uuid === undefined) {
      const t = { kind: "thread" as const, parent: null, name, tid, ...(pid === null ? {} : { pid }) };
      this.threads.set(tid, (uuid = this.add(t)));
    }
    return uuid;
  }

  /** A named track for slices, top level or under a process or another named track. */
  track(name: string, parent: number | null = null): number {
    return this.add({ kind: "named", parent, name });
  }

  counterTrack(name: string, parent: number | null = null): number {
    return this.add({ kind: "counter", parent, name });
  }

  slice(track: number, span: SpanInput): void {
    this.tracks[track - 1]!.spans.push(span);
  }

  counter(track: number, ts: number, value: number): void {
    this.tracks[track - 1]!.counts.push({ ts, value });
  }

  /** The whole trace. */
  finish(): Uint8Array {
    const lists: Ev[][] = [];
    for (const t of [...this.tracks]) {
      if (t.kind === "counter") {
        const sorted = [...t.counts].sort((a, b) => a.ts - b.ts);
        lists.push(
          sorted.map((c) => ({ ts: c.ts, type: COUNTER, track: t.uuid, span: null, value: c.value })),
        );
      } else for (const lane of this.lanes(t)) lists.push(stackOrder(lane.uuid, lane.spans));
    }
    const w = new ProtoWriter(1 << 20);
    const first = Math.min(...lists.filter((l) => l.length).map((l) => l[0]!.ts), Number.POSITIVE_INFINITY);
    this.preamble(w, Number.isFinite(first) ? first : 0);
    for (const e of mergeByTime(lists)) this.event(w, e);
    return w.finish();
  }

  // Spans sorted by start (longer first on ties) and packed into the first lane where they nest or follow;
  // lane 0 is the track itself, others are same-named children of its parent.
  private lanes(t: Track): { uuid: number; spans: SpanInput[] }[] {
    const order = (a: SpanInput, b: SpanInput) => a.ts - b.ts || end(b) - end(a);
    // Bundles usually arrive in time order already; sorting a million spans again costs seconds.
    const sorted = t.spans.every((s, i) => i === 0 || order(t.spans[i - 1]!, s) <= 0);
    const spans = sorted ? t.spans : [...t.spans].sort(order);
    const lanes: { uuid: number; spans: SpanInput[]; stack: number[] }[] = [];
    for (const s of spans) {
      let lane = lanes.find((l) => {
        while (l.stack.length && l.stack[l.stack.length - 1]! <= s.ts) l.stack.pop();
        return l.stack.length === 0 || end(s) <= l.stack[l.stack.length - 1]!;
      });
      if (!lane) {
        const uuid =
          lanes.length === 0 ? t.uuid : this.add({ kind: "named", parent: t.parent, name: t.name });
        lanes.push((lane = { uuid, spans: [], stack: [] }));
      }
      lane.spans.push(s);
      lane.stack.push(end(s));
    }
    return lanes;
  }

  private preamble(w: ProtoWriter, t0: number) {
    // The run's CLOCK_MONOTONIC is written as the trace clock; the snapshot says BOOTTIME = MONOTONIC here.
    w.begin(PACKET)
      .varint(P.sequenceId, this.sequenceId)
      .varint(P.sequenceFlags, SEQ_INCREMENTAL_STATE_CLEARED);
    w.begin(P.clockSnapshot);
    for (const id of [CLOCK_BOOTTIME, CLOCK_MONOTONIC]) w.begin(1).varint(1, id).varint(2, t0).end();
    w.varint(2, CLOCK_BOOTTIME).end().end();
    for (const t of this.tracks) {
      w.begin(PACKET).varint(P.sequenceId, this.sequenceId).begin(P.trackDescriptor).varint(1, t.uuid);
      if (t.parent !== null) w.varint(5, t.parent);
      if (t.kind === "process") {
        w.begin(3).varint(1, t.pid!);
        if (t.name !== null) w.string(6, t.name);
        w.end();
      } else if (t.kind === "thread") {
        w.begin(4);
        if (t.pid !== undefined) w.varint(1, t.pid);
        w.varint(2, t.tid!);
        if (t.name !== null) w.string(5, t.name);
        w.end();
      } else {
        if (t.name !== null) w.string(2, t.name);
        if (t.kind === "counter") w.begin(8).end();
      }
      w.end().end();
    }
  }

  private event(w: ProtoWriter, e: Ev) {
    const s = e.type === END ? null : e.span;
    w.begin(PACKET).varint(P.timestamp, e.ts).varint(P.sequenceId, this.sequenceId);
    w.varint(P.sequenceFlags, SEQ_NEEDS_INCREMENTAL_STATE);
    const name = s ? this.intern(this.names, s.name) : null;
    const cat = s?.category ? this.intern(this.categories, s.category) : null;
    if ((name && name.fresh) || (cat && cat.fresh)) {
      w.begin(P.interned);
      if (cat?.fresh) w.begin(INTERNED_CATEGORIES).varint(1, cat.iid).string(2, s!.category!).end();
      if (name?.fresh) w.begin(INTERNED_NAMES).varint(1, name.iid).string(2, s!.name).end();
      w.end();
    }
    w.begin(P.trackEvent).varint(E.type, e.type).varint(E.track, e.track);
    if (e.type === COUNTER) w.double(E.doubleValue, e.value);
    if (s) {
      if (cat) w.varint(E.categoryIid, cat.iid);
      w.varint(E.nameIid, name!.iid);
      for (const k in s.args) {
        const v = s.args[k];
        if (v === null || v === undefined) continue;
        w.begin(E.args).string(10, k);
        if (typeof v === "string") w.string(6, v);
        else if (typeof v === "boolean") w.varint(2, v);
        else if (typeof v === "bigint" || Number.isInteger(v)) w.varint(4, v);
        else w.double(5, v);
        w.end();
      }
      if (s.flowOut) for (const f of s.flowOut) w.fixed64(E.flows, f);
      if (s.flowIn) for (const f of s.flowIn) w.fixed64(E.terminating, f);
    }
    w.end().end();
  }

  private intern(table: Map<string, number>, value: string): { iid: number; fresh: boolean } {
    const iid = table.get(value);
    if (iid !== undefined) return { iid, fresh: false };
    table.set(value, table.size + 1);
    return { iid: table.size, fresh: true };
  }
}

function end(s: SpanInput): number {
  return s.dur === null ? Number.POSITIVE_INFINITY : s.ts + s.dur;
}

// One lane's begins and ends: spans arrive sorted and nested, so a stack gives each end its place.
function stackOrder(track: number, spans: SpanInput[]): Ev[] {
  const out: Ev[] = [];
  const stack: SpanInput[] = [];
  const close = (until: number) => {
    while (stack.length && end(stack[stack.length - 1]!) <= until) {
      const s = stack.pop()!;
      out.push({ ts: end(s), type: END, track, span: s, value: 0 });
    }
  };
  for (const s of spans) {
    close(s.ts);
    if (s.dur === 0) out.push({ ts: s.ts, type: INSTANT, track, span: s, value: 0 });
    else {
      out.push({ ts: s.ts, type: BEGIN, track, span: s, value: 0 });
      stack.push(s);
    }
  }
  close(Number.MAX_VALUE);
  return out;
}

// k-way merge of time-sorted lists; equal times keep each list's own order.
function* mergeByTime(lists: Ev[][]): Generator<Ev> {
  const heap: { list: Ev[]; i: number }[] = lists.filter((l) => l.length).map((list) => ({ list, i: 0 }));
  const key = (h: { list: Ev[]; i: number }) => h.list[h.i]!.ts;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && key(heap[l]!) < key(heap[m]!)) m = l;
      if (r < heap.length && key(heap[r]!) < key(heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0]!;
    yield top.list[top.i++]!;
    if (top.i === top.list.length) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    down(0);
  }
}
