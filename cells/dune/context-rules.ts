// Context rules (DUNE §5.4): association rules over context attributes plus the outlier label.
// Semantics (exact, no heuristics): items are attribute=value pairs (a missing value, "?" or "", is not an
// item); n = number of rows; an itemset is frequent when its count >= minCount = ceil(minSupport·n)
// (minSupport·n within 1e-9 of an integer counts as that integer, so 0.07·100 is 7, not 8), and minCount >= 1.
// Every rule X ⇒ Y with X, Y non-empty and disjoint, X ∪ Y frequent and count(X∪Y)/count(X) >= minConfidence
// is returned. With consequentAttribute (class-rule mode), Y is a single item of that attribute and X
// holds none. Paper defaults minSupport 0.01, minConfidence 0.9 (§8.2).
// Differences from Weka 3.6's Apriori: Weka rounds the support count (minSupport·n + 0.5, truncated), keeps
// only the best -N rules (default 10) and lowers the support from an upper bound in -D steps; here the
// thresholds are applied exactly and every qualifying rule is returned.
// Pruning (pruneRedundant): X ⇒ Y is redundant when some X' ⊂ X (proper, non-empty) has X' ⇒ Y with at
// least its confidence; such a rule is also a returned rule, since its support and confidence are no lower.
// `aprioriReport` returns the pruned rules with the rule that made each redundant.
//
// Mining: items are encoded to ints; each frequent item gets a bitset (Uint32Array) and a tid-list
// (Int32Array) of its rows; itemsets are enumerated depth first (Eclat), a child's tid-list being its
// parent's filtered through one sibling item's bitset. Rules list their items in attribute order.
import * as Plot from "@observablehq/plot";
import { isMissingValue } from "./similarity";

export type Item = [attribute: string, value: string];
export type Rule = {
  antecedent: Item[];
  consequent: Item[];
  supportCount: number;
  support: number;
  confidence: number;
};

export interface AprioriOptions {
  /** Minimum support, a fraction of all rows; paper 0.01 (§8.2). */
  minSupport: number;
  /** Minimum confidence; paper (and Weka) 0.9 (§5.4). */
  minConfidence: number;
  /** Class-rule mode: the consequent is one item of this attribute (e.g. "label"). */
  consequentAttribute?: string;
  /** Drop redundant rules (see above); default false. */
  pruneRedundant?: boolean;
}

export interface AprioriReport {
  rules: Rule[];
  /** Rules removed as redundant, each with the more general rule that covers it. */
  pruned: { rule: Rule; by: Rule }[];
  n: number;
  minCount: number;
  frequentItemsets: number;
}

interface Node {
  count: number;
  children: Map<number, Node>;
}

function minCountFor(minSupport: number, n: number): number {
  const x = minSupport * n;
  const r = Math.round(x);
  return Math.max(1, Math.abs(x - r) <= 1e-9 * Math.max(1, x) ? r : Math.ceil(x));
}

/** Rules and what pruning removed. */
export function aprioriReport(rows: Record<string, string>[], options: AprioriOptions): AprioriReport {
  const { minSupport, minConfidence } = options;
  if (!(minSupport >= 0 && minSupport <= 1))
    throw new Error(`invalid minSupport: ${minSupport} (expected 0..1)`);
  if (!(minConfidence >= 0 && minConfidence <= 1))
    throw new Error(`invalid minConfidence: ${minConfidence} (expected 0..1)`);
  const n = rows.length;
  const minCount = minCountFor(minSupport, n);

  // Encode: one Int32Array column of raw item ids per attribute (-1 = missing).
  const attrIndex = new Map<string, number>();
  const attrs: string[] = [];
  const columns: Int32Array[] = [];
  const valueIds: Map<string, number>[] = [];
  const rawAttr: number[] = [];
  const rawValue: string[] = [];
  const rawCount: number[] = [];
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    for (const key in row) {
      const value = row[key];
      if (isMissingValue(value)) continue;
      let a = attrIndex.get(key);
      if (a === undefined) {
        a = attrs.length;
        attrIndex.set(key, a);
        attrs.push(key);
        columns.push(new Int32Array(n).fill(-1));
        valueIds.push(new Map());
      }
      const ids = valueIds[a]!;
      let id = ids.get(value!);
      if (id === undefined) {
        id = rawAttr.length;
        ids.set(value!, id);
        rawAttr.push(a);
        rawValue.push(value!);
        rawCount.push(0);
      }
      columns[a]![r] = id;
      rawCount[id]!++;
    }
  }
  const classAttr =
    options.consequentAttribute === undefined ? -1 : (attrIndex.get(options.consequentAttribute) ?? -2);

  // Frequent items, numbered by ascending count (Eclat's usual order: small tid-lists get the most
  // extensions), each with a bitset (membership tests) and a tid-list (the rows holding it).
  const frequent = rawAttr.map((_, id) => id).filter((id) => rawCount[id]! >= minCount);
  frequent.sort((x, y) => rawCount[x]! - rawCount[y]! || rawAttr[x]! - rawAttr[y]! || x - y);
  const itemOf = new Int32Array(rawAttr.length).fill(-1);
  frequent.forEach((raw, i) => (itemOf[raw] = i));
  const itemAttr = frequent.map((raw) => rawAttr[raw]!);
  const itemPair: Item[] = frequent.map((raw) => [attrs[rawAttr[raw]!]!, rawValue[raw]!]);
  const words = (n + 31) >>> 5;
  const bits = frequent.map(() => new Int32Array(words));
  const tids = frequent.map((raw) => new Int32Array(rawCount[raw]!));
  const fill = new Int32Array(frequent.length);
  for (let r = 0; r < n; r++) {
    for (let a = 0; a < attrs.length; a++) {
      const raw = columns[a]![r]!;
      if (raw < 0) continue;
      const it = itemOf[raw]!;
      if (it < 0) continue;
      bits[it]![r >>> 5]! |= 1 << (r & 31);
      tids[it]![fill[it]!++] = r;
    }
  }

  // Eclat: enumerate all frequent itemsets depth first into a prefix tree (for count lookups) and a flat
  // list. A child's rows are its parent's rows filtered by the added item's bitset.
  const root: Node = { count: n, children: new Map() };
  const itemsets: { items: number[]; count: number }[] = [];
  type Ext = { item: number; tids: Int32Array };
  const scratch = new Int32Array(n);
  const grow = (node: Node, prefix: number[], ext: Ext[]) => {
    for (let a = 0; a < ext.length; a++) {
      const e = ext[a]!;
      const child: Node = { count: e.tids.length, children: new Map() };
      node.children.set(e.item, child);
      const items = [...prefix, e.item];
      itemsets.push({ items, count: e.tids.length });
      const next: Ext[] = [];
      const rowsE = e.tids;
      const allowedMisses = rowsE.length - minCount;
      for (let b = a + 1; b < ext.length; b++) {
        const f = ext[b]!;
        if (itemAttr[f.item] === itemAttr[e.item]) continue; // one value per attribute per row
        const bf = bits[f.item]!;
        // Branch-free filter (the bit is unpredictable); every 256 rows, stop once minCount is out of reach.
        let c = 0;
        let i = 0;
        for (; i < rowsE.length; i++) {
          const r = rowsE[i]!;
          scratch[c] = r;
          c += (bf[r >>> 5]! >> (r & 31)) & 1;
          if ((i & 255) === 255 && i + 1 - c > allowedMisses) break;
        }
        if (i === rowsE.length && c >= minCount) next.push({ item: f.item, tids: scratch.slice(0, c) });
      }
      if (next.length > 0) grow(child, items, next);
    }
  };
  grow(
    root,
    [],
    frequent.map((_, i) => ({ item: i, tids: tids[i]! })),
  );
  const countOf = (items: number[]): number => {
    let node: Node | undefined = root;
    for (const it of items) node = node?.children.get(it);
    if (!node) throw new Error(`internal: itemset ${items.join(",")} not mined`);
    return node.count;
  };

  // Rules: antecedent/consequent as sorted item lists.
  type R = { x: number[]; y: number[]; count: number; cx: number };
  const found: R[] = [];
  for (const { items, count } of itemsets) {
    const k = items.length;
    if (k < 2) continue;
    if (classAttr !== -1) {
      const yi = items.findIndex((it) => itemAttr[it] === classAttr);
      if (yi < 0) continue;
      const x = items.filter((_, i) => i !== yi);
      const cx = countOf(x);
      if (count / cx >= minConfidence) found.push({ x, y: [items[yi]!], count, cx });
      continue;
    }
    for (let mask = 1; mask < (1 << k) - 1; mask++) {
      const x: number[] = [];
      const y: number[] = [];
      for (let i = 0; i < k; i++) ((mask >>> i) & 1 ? y : x).push(items[i]!);
      const cx = countOf(x);
      if (count / cx >= minConfidence) found.push({ x, y, count, cx });
    }
  }

  const byAttribute = (items: number[]) => [...items].sort((p, q) => itemAttr[p]! - itemAttr[q]!);
  const toRule = (r: R): Rule => ({
    antecedent: byAttribute(r.x).map((i) => itemPair[i]!),
    consequent: byAttribute(r.y).map((i) => itemPair[i]!),
    supportCount: r.count,
    support: n === 0 ? 0 : r.count / n,
    confidence: r.count / r.cx,
  });
  const kept: R[] = [];
  const prunedRaw: { rule: R; by: R }[] = [];
  for (const r of found) {
    const by = options.pruneRedundant ? generalisation(r, countOf) : undefined;
    if (by) prunedRaw.push({ rule: r, by });
    else kept.push(r);
  }
  const order = (a: R, b: R) =>
    b.count * a.cx - a.count * b.cx ||
    b.count - a.count ||
    a.x.length - b.x.length ||
    cmp(a.x, b.x) ||
    cmp(a.y, b.y);
  kept.sort(order);
  prunedRaw.sort((a, b) => order(a.rule, b.rule));
  return {
    rules: kept.map(toRule),
    pruned: prunedRaw.map((p) => ({ rule: toRule(p.rule), by: toRule(p.by) })),
    n,
    minCount,
    frequentItemsets: itemsets.length,
  };
}

function cmp(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The rule X' ⇒ Y (X' ⊂ X, smallest first) whose confidence is at least that of X ⇒ Y, if any. */
function generalisation(
  r: { x: number[]; y: number[]; count: number; cx: number },
  countOf: (items: number[]) => number,
) {
  const k = r.x.length;
  const masks: number[] = [];
  for (let m = 1; m < (1 << k) - 1; m++) masks.push(m);
  masks.sort((a, b) => popcount(a) - popcount(b) || a - b);
  for (const m of masks) {
    const x = r.x.filter((_, i) => (m >>> i) & 1);
    const xy = [...x, ...r.y].sort((a, b) => a - b);
    const cx = countOf(x);
    const count = countOf(xy);
    // count/cx >= r.count/r.cx, in integers
    if (count * r.cx >= r.count * cx) return { x, y: r.y, count, cx };
  }
  return undefined;
}

function popcount(m: number): number {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
}

/** Every qualifying rule, best first (confidence, then support, then shorter antecedent). */
export function apriori(rows: Record<string, string>[], options: AprioriOptions): Rule[] {
  return aprioriReport(rows, options).rules;
}

export function formatRule(rule: Rule): string {
  const side = (items: Item[]) => items.map(([a, v]) => `${a}=${v}`).join(", ");
  return `{${side(rule.antecedent)}} ⇒ {${side(rule.consequent)}}`;
}

/** Rules as a ranked table (Figure 9): one bar per rule, length = support, colour = confidence. */
export function aprioriPlot(rules: Rule[], options: { top?: number } = {}): Plot.PlotOptions {
  const rows = rules
    .slice(0, options.top ?? 20)
    .map((r, i) => ({ rank: i + 1, rule: formatRule(r), support: r.support, confidence: r.confidence }));
  return {
    marginLeft: 320,
    x: { label: "support", grid: true },
    y: { label: null, domain: rows.map((r) => r.rule) },
    color: {
      label: "confidence",
      scheme: "blues", // no ramp legend: it needs a canvas, absent when publishing from Node
      domain: [Math.min(0.9, ...rows.map((r) => r.confidence)), 1],
    },
    marks: [
      Plot.barX(rows, { x: "support", y: "rule", fill: "confidence", tip: true }),
      Plot.text(rows, {
        x: "support",
        y: "rule",
        text: (d: { confidence: number }) => d.confidence.toFixed(2),
        dx: 16,
      }),
      Plot.ruleX([0]),
    ],
  };
}
