// Context rules (DUNE §5.4): association rules over context attributes plus the outlier label.
// Semantics (exact, no heuristics): items are attribute=value pairs (a missing value, "?" or "", is not an
// item); n = number of rows; an itemset is frequent when its count >= minCount = ceil(minSupport·n)
// (minSupport·n within 1e-9 of an integer counts as that integer, so 0.07·100 is 7, not 8), and minCount >= 1.
// Every rule X ⇒ Y with X, Y non-empty and disjoint, X ∪ Y frequent and count(X∪Y)/count(X) >= minConfidence
// is returned. With consequentAttribute (class-rule mode), Y is a single item of that attribute and X
// holds none. Paper defaults in defaults.ts (DUNE.minSupport, DUNE.minConfidence).
// Differences from Weka 3.6's Apriori: Weka rounds the support count (minSupport·n + 0.5, truncated), keeps
// only the best -N rules (default 10) and lowers the support from an upper bound in -D steps; here the
// thresholds are applied exactly and every qualifying rule is returned.
// Pruning (pruneRedundant): X ⇒ Y is redundant when some X' ⊂ X (proper, non-empty) has X' ⇒ Y with at
// least its confidence; such a rule is also a returned rule, since its support and confidence are no lower.
// `aprioriReport` returns the pruned rules with the rule that made each redundant.
//
// Mining: eclat.ts (frequent itemsets, Eclat). Rules list their items in attribute order.
import { chartSpec, type ChartSpec } from "../common/chart-spec";
import { DUNE } from "./defaults";
import { frequentItemsets, type FrequentItemsets, type Item } from "./eclat";

export type { Item } from "./eclat";
export type Rule = {
  antecedent: Item[];
  consequent: Item[];
  supportCount: number;
  support: number;
  confidence: number;
};

export interface AprioriOptions {
  /** Minimum support, a fraction of all rows; default DUNE.minSupport (defaults.ts, §8.2). */
  minSupport?: number;
  /** Minimum confidence; default DUNE.minConfidence (defaults.ts, §5.4). */
  minConfidence?: number;
  /** Class-rule mode: the consequent is one item of this attribute (e.g. "label"). */
  consequentAttribute?: string;
  /** Drop redundant rules (see above); default false. */
  pruneRedundant?: boolean;
}

export interface AprioriReport {
  /** the thresholds the rules were mined with */
  minSupport: number;
  minConfidence: number;
  rules: Rule[];
  /** Rules removed as redundant, each with the more general rule that covers it. */
  pruned: { rule: Rule; by: Rule }[];
  n: number;
  minCount: number;
  frequentItemsets: number;
}

function minCountFor(minSupport: number, n: number): number {
  const x = minSupport * n;
  const r = Math.round(x);
  return Math.max(1, Math.abs(x - r) <= 1e-9 * Math.max(1, x) ? r : Math.ceil(x));
}

/** A rule over item numbers: antecedent x, consequent y (sorted), count(X ∪ Y) and count(X). */
type ItemRule = { x: number[]; y: number[]; count: number; cx: number };

/** Every rule of the mined itemsets with at least minConfidence (class-rule mode when classAttr >= 0). */
function rulesOf(mined: FrequentItemsets, classAttr: number, minConfidence: number): ItemRule[] {
  const { itemAttr, countOf } = mined;
  const found: ItemRule[] = [];
  const keep = (x: number[], y: number[], count: number) => {
    const cx = countOf(x);
    if (count / cx >= minConfidence) found.push({ x, y, count, cx });
  };
  for (const { items, count } of mined.itemsets) {
    const k = items.length;
    if (k < 2) continue;
    if (classAttr !== -1) {
      const yi = items.findIndex((it) => itemAttr[it] === classAttr);
      if (yi >= 0)
        keep(
          items.filter((_, i) => i !== yi),
          [items[yi]!],
          count,
        );
      continue;
    }
    for (let mask = 1; mask < (1 << k) - 1; mask++) {
      const x: number[] = [];
      const y: number[] = [];
      for (let i = 0; i < k; i++) ((mask >>> i) & 1 ? y : x).push(items[i]!);
      keep(x, y, count);
    }
  }
  return found;
}

// Best first: confidence, then support, then shorter antecedent, then item order.
const ruleOrder = (a: ItemRule, b: ItemRule) =>
  b.count * a.cx - a.count * b.cx ||
  b.count - a.count ||
  a.x.length - b.x.length ||
  cmp(a.x, b.x) ||
  cmp(a.y, b.y);

function checkFraction(name: string, value: number): number {
  if (!(value >= 0 && value <= 1)) throw new Error(`invalid ${name}: ${value} (expected 0..1)`);
  return value;
}

/** Rules and what pruning removed. */
export function aprioriReport(rows: Record<string, string>[], options: AprioriOptions = {}): AprioriReport {
  const minSupport = checkFraction("minSupport", options.minSupport ?? DUNE.minSupport);
  const minConfidence = checkFraction("minConfidence", options.minConfidence ?? DUNE.minConfidence);
  const n = rows.length;
  const minCount = minCountFor(minSupport, n);
  const mined = frequentItemsets(rows, minCount);
  const { itemAttr, itemPair, countOf } = mined;
  const classAttr =
    options.consequentAttribute === undefined ? -1 : (mined.attrIndex.get(options.consequentAttribute) ?? -2);
  const byAttribute = (items: number[]) => [...items].sort((p, q) => itemAttr[p]! - itemAttr[q]!);
  const toRule = (r: ItemRule): Rule => ({
    antecedent: byAttribute(r.x).map((i) => itemPair[i]!),
    consequent: byAttribute(r.y).map((i) => itemPair[i]!),
    supportCount: r.count,
    support: n === 0 ? 0 : r.count / n,
    confidence: r.count / r.cx,
  });
  const kept: ItemRule[] = [];
  const pruned: { rule: ItemRule; by: ItemRule }[] = [];
  for (const r of rulesOf(mined, classAttr, minConfidence)) {
    const by = options.pruneRedundant ? generalisation(r, countOf) : undefined;
    if (by) pruned.push({ rule: r, by });
    else kept.push(r);
  }
  kept.sort(ruleOrder);
  pruned.sort((a, b) => ruleOrder(a.rule, b.rule));
  return {
    minSupport,
    minConfidence,
    rules: kept.map(toRule),
    pruned: pruned.map((p) => ({ rule: toRule(p.rule), by: toRule(p.by) })),
    n,
    minCount,
    frequentItemsets: mined.itemsets.length,
  };
}

function cmp(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The rule X' ⇒ Y (X' ⊂ X, smallest first) whose confidence is at least that of X ⇒ Y, if any. */
function generalisation(r: ItemRule, countOf: (items: number[]) => number): ItemRule | undefined {
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
export function apriori(rows: Record<string, string>[], options: AprioriOptions = {}): Rule[] {
  return aprioriReport(rows, options).rules;
}

export function formatRule(rule: Rule): string {
  const side = (items: Item[]) => items.map(([a, v]) => `${a}=${v}`).join(", ");
  return `{${side(rule.antecedent)}} ⇒ {${side(rule.consequent)}}`;
}

/**
 * Rules as a ranked table (Figure 9): one bar per rule, length = support, colour = confidence. Given the report,
 * the colour scale starts at the confidence it was mined with.
 */
export function aprioriPlot(rules: Rule[] | AprioriReport, options: { top?: number } = {}): ChartSpec {
  const list = Array.isArray(rules) ? rules : rules.rules;
  const floor = Array.isArray(rules) ? DUNE.minConfidence : rules.minConfidence;
  const rows = list.slice(0, options.top ?? 20).map((r, i) => ({
    rank: i + 1,
    rule: formatRule(r),
    support: r.support,
    confidence: r.confidence,
    text: r.confidence.toFixed(2),
  }));
  return chartSpec("aprioriPlot", {
    mark: "barX",
    data: rows,
    x: "support",
    y: "rule",
    fill: "confidence",
    options: { tip: true },
    layout: {
      marginLeft: 320,
      x: { label: "support (fraction of rows)", grid: true },
      y: { label: null, domain: rows.map((r) => r.rule) },
      color: {
        label: "confidence (fraction)",
        scheme: "blues", // no ramp legend: it needs a canvas, absent when publishing from Node
        domain: [Math.min(floor, ...rows.map((r) => r.confidence)), 1],
      },
    },
    over: [
      { mark: "text", data: rows, options: { x: "support", y: "rule", text: "text", dx: 16 } },
      { mark: "ruleX", data: [0] },
    ],
  });
}
