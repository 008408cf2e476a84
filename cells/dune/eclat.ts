// Frequent itemsets for DUNE's context rules (§5.4), mined exactly. Items are attribute=value pairs (a missing
// value, "?" or "", is not an item), encoded to ints; each frequent item gets a bitset and a tid-list of its rows;
// itemsets are enumerated depth first (Eclat), a child's tid-list being its parent's filtered through one
// sibling item's bitset, into a prefix tree (count lookups) and a flat list.
import { isMissingValue } from "./similarity";

export type Item = [attribute: string, value: string];

/** The rows as one column of raw item ids per attribute (-1 = missing), with each raw item's attribute, value, count. */
interface EncodedRows {
  n: number;
  attrs: string[];
  attrIndex: Map<string, number>;
  columns: Int32Array[];
  rawAttr: number[];
  rawValue: string[];
  rawCount: number[];
}

interface Node {
  count: number;
  children: Map<number, Node>;
}

export interface FrequentItemsets {
  n: number;
  attrIndex: Map<string, number>;
  /** per frequent item: its attribute's index and its pair */
  itemAttr: number[];
  itemPair: Item[];
  /** every frequent itemset (items ascending by item number) with its row count */
  itemsets: { items: number[]; count: number }[];
  /** the row count of a frequent itemset given in mining order (throws for one not mined) */
  countOf: (items: number[]) => number;
}

function encodeRows(rows: Record<string, string>[]): EncodedRows {
  const n = rows.length;
  const e: EncodedRows = {
    n,
    attrs: [],
    attrIndex: new Map(),
    columns: [],
    rawAttr: [],
    rawValue: [],
    rawCount: [],
  };
  const valueIds: Map<string, number>[] = [];
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    for (const key in row) {
      const value = row[key];
      if (isMissingValue(value)) continue;
      let a = e.attrIndex.get(key);
      if (a === undefined) {
        a = e.attrs.length;
        e.attrIndex.set(key, a);
        e.attrs.push(key);
        e.columns.push(new Int32Array(n).fill(-1));
        valueIds.push(new Map());
      }
      const ids = valueIds[a]!;
      let id = ids.get(value!);
      if (id === undefined) {
        id = e.rawAttr.length;
        ids.set(value!, id);
        e.rawAttr.push(a);
        e.rawValue.push(value!);
        e.rawCount.push(0);
      }
      e.columns[a]![r] = id;
      e.rawCount[id]!++;
    }
  }
  return e;
}

/**
 * Frequent items, numbered by ascending count (Eclat's usual order: small tid-lists get the most extensions), each
 * with a bitset (membership tests) and a tid-list (the rows holding it).
 */
function frequentItems(e: EncodedRows, minCount: number) {
  const frequent = e.rawAttr.map((_, id) => id).filter((id) => e.rawCount[id]! >= minCount);
  frequent.sort((x, y) => e.rawCount[x]! - e.rawCount[y]! || e.rawAttr[x]! - e.rawAttr[y]! || x - y);
  const itemOf = new Int32Array(e.rawAttr.length).fill(-1);
  frequent.forEach((raw, i) => (itemOf[raw] = i));
  const itemAttr = frequent.map((raw) => e.rawAttr[raw]!);
  const itemPair: Item[] = frequent.map((raw) => [e.attrs[e.rawAttr[raw]!]!, e.rawValue[raw]!]);
  const words = (e.n + 31) >>> 5;
  const bits = frequent.map(() => new Int32Array(words));
  const tids = frequent.map((raw) => new Int32Array(e.rawCount[raw]!));
  const fill = new Int32Array(frequent.length);
  for (let r = 0; r < e.n; r++) {
    for (let a = 0; a < e.attrs.length; a++) {
      const raw = e.columns[a]![r]!;
      if (raw < 0) continue;
      const it = itemOf[raw]!;
      if (it < 0) continue;
      bits[it]![r >>> 5]! |= 1 << (r & 31);
      tids[it]![fill[it]!++] = r;
    }
  }
  return { itemAttr, itemPair, bits, tids };
}

/** Every itemset whose count is at least minCount (≥ 1), at most one value per attribute. */
export function frequentItemsets(rows: Record<string, string>[], minCount: number): FrequentItemsets {
  const e = encodeRows(rows);
  const { itemAttr, itemPair, bits, tids } = frequentItems(e, minCount);
  const root: Node = { count: e.n, children: new Map() };
  const itemsets: { items: number[]; count: number }[] = [];
  type Ext = { item: number; tids: Int32Array };
  const scratch = new Int32Array(e.n);
  const grow = (node: Node, prefix: number[], ext: Ext[]) => {
    for (let a = 0; a < ext.length; a++) {
      const x = ext[a]!;
      const child: Node = { count: x.tids.length, children: new Map() };
      node.children.set(x.item, child);
      const items = [...prefix, x.item];
      itemsets.push({ items, count: x.tids.length });
      const next: Ext[] = [];
      const rowsX = x.tids;
      const allowedMisses = rowsX.length - minCount;
      for (let b = a + 1; b < ext.length; b++) {
        const f = ext[b]!;
        if (itemAttr[f.item] === itemAttr[x.item]) continue; // one value per attribute per row
        const bf = bits[f.item]!;
        // Branch-free filter (the bit is unpredictable); every 256 rows, stop once minCount is out of reach.
        let c = 0;
        let i = 0;
        for (; i < rowsX.length; i++) {
          const r = rowsX[i]!;
          scratch[c] = r;
          c += (bf[r >>> 5]! >> (r & 31)) & 1;
          if ((i & 255) === 255 && i + 1 - c > allowedMisses) break;
        }
        if (i === rowsX.length && c >= minCount) next.push({ item: f.item, tids: scratch.slice(0, c) });
      }
      if (next.length > 0) grow(child, items, next);
    }
  };
  grow(
    root,
    [],
    tids.map((t, i) => ({ item: i, tids: t })),
  );
  const countOf = (items: number[]): number => {
    let node: Node | undefined = root;
    for (const it of items) node = node?.children.get(it);
    if (!node) throw new Error(`internal: itemset ${items.join(",")} not mined`);
    return node.count;
  };
  return { n: e.n, attrIndex: e.attrIndex, itemAttr, itemPair, itemsets, countOf };
}
