// Per-sequence interned event names and categories (protos/perfetto/trace/interned_data/interned_data.proto), and
// the running totals of incremental counters, which are sequence state too.
import type { ProtoReader } from "./proto-reader";

/** Per-sequence interning tables; the string-table ids of what events used are cached beside them. */
export interface Interned {
  names: Map<number, string>;
  categories: Map<number, string>;
  nameIds: Map<number, number>;
  /** id of `track_event:<category>` for an event carrying only this one category iid */
  categoryIds: Map<number, number>;
  /** running totals of incremental counter tracks on this sequence, by track uuid (cleared with the state) */
  totals: Map<number, number>;
}

export function newInterned(): Interned {
  return {
    names: new Map(),
    categories: new Map(),
    nameIds: new Map(),
    categoryIds: new Map(),
    totals: new Map(),
  };
}

/** Adds an InternedData message's event names and categories. */
export function readInterned(r: ProtoReader, into: Interned, m: ProtoReader): void {
  // event_categories 1, event_names 2
  for (let f = r.nextLen(1, 2); f !== 0; f = r.nextLen(1, 2)) {
    m.enter(r);
    let iid = 0;
    let name = "";
    while (m.more()) {
      const mt = m.tag();
      if (mt === 8) iid = m.varint();
      else if (mt === 18) name = m.string();
      else m.skip(mt & 7);
    }
    // A redefined iid drops its cached id.
    if (f === 1) {
      into.categories.set(iid, name);
      into.categoryIds.delete(iid);
    } else {
      into.names.set(iid, name);
      into.nameIds.delete(iid);
    }
  }
}
