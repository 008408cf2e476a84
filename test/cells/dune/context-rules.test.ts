import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  apriori,
  aprioriPlot,
  aprioriReport,
  formatRule,
  type Rule,
} from "../../../cells/dune/context-rules";

type Row = Record<string, string>;
const missing = (v: string | undefined) => v === undefined || v === "" || v === "?";

// Reference: count every itemset by enumerating each row's item subsets, then split every frequent
// itemset into X ⇒ Y directly. Independent of the bitset/Eclat implementation.
function bruteForce(
  rows: Row[],
  minSupport: number,
  minConfidence: number,
  consequentAttribute?: string,
): Map<string, [number, number]> {
  const n = rows.length;
  const minCount = Math.max(1, Math.ceil(minSupport * n - 1e-9));
  const counts = new Map<string, number>();
  const key = (items: string[]) => [...items].sort().join("&");
  for (const row of rows) {
    const items = Object.entries(row)
      .filter(([, v]) => !missing(v))
      .map(([a, v]) => `${a}=${v}`);
    for (let m = 1; m < 1 << items.length; m++) {
      const k = key(items.filter((_, i) => (m >> i) & 1));
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  const out = new Map<string, [number, number]>();
  for (const [k, c] of counts) {
    const items = k.split("&");
    if (c < minCount || items.length < 2) continue;
    for (let m = 1; m < (1 << items.length) - 1; m++) {
      const y = items.filter((_, i) => (m >> i) & 1);
      const x = items.filter((_, i) => !((m >> i) & 1));
      if (
        consequentAttribute !== undefined &&
        !(y.length === 1 && y[0]!.startsWith(consequentAttribute + "="))
      )
        continue;
      if (consequentAttribute !== undefined && x.some((it) => it.startsWith(consequentAttribute + "=")))
        continue;
      const conf = c / counts.get(key(x))!;
      if (conf >= minConfidence) out.set(`${key(x)} => ${key(y)}`, [c, conf]);
    }
  }
  return out;
}

const asMap = (rules: Rule[]) =>
  new Map(
    rules.map((r) => [
      `${r.antecedent
        .map(([a, v]) => `${a}=${v}`)
        .sort()
        .join("&")} => ${r.consequent
        .map(([a, v]) => `${a}=${v}`)
        .sort()
        .join("&")}`,
      [r.supportCount, r.confidence] as [number, number],
    ]),
  );

// A small repository in the spirit of §8.2: SDK 5.x runs are the outliers.
const small: Row[] = [
  { sdk: "4.3", api: "18", device: "Nexus 7", label: "N" },
  { sdk: "4.3", api: "18", device: "Nexus 4", label: "N" },
  { sdk: "4.4", api: "19", device: "Nexus 5", label: "N" },
  { sdk: "4.4", api: "19", device: "Nexus 7", label: "N" },
  { sdk: "5.0.0", api: "21", device: "Nexus 4", label: "Outlier-" },
  { sdk: "5.0.0", api: "21", device: "Nexus 7", label: "Outlier-" },
  { sdk: "5.1.0", api: "22", device: "Nexus 7", label: "Outlier-" },
  { sdk: "5.1.0", api: "?", device: "Nexus 5", label: "Outlier-" },
  { sdk: "4.4", api: "19", device: "", label: "N" },
  { sdk: "4.3", api: "18", device: "Nexus 5", label: "N" },
];

describe("apriori", () => {
  it("finds the same rules as brute-force enumeration on a small repository", () => {
    for (const [s, c] of [
      [0.1, 0.9],
      [0.2, 0.5],
      [0.3, 1],
    ] as const) {
      expect(asMap(apriori(small, { minSupport: s, minConfidence: c }))).toEqual(bruteForce(small, s, c));
      expect(
        asMap(apriori(small, { minSupport: s, minConfidence: c, consequentAttribute: "label" })),
      ).toEqual(bruteForce(small, s, c, "label"));
    }
  });
  it("learns {sdk=5.0.0} ⇒ {label=Outlier-} with support 0.2 and confidence 1", () => {
    const rules = apriori(small, { minSupport: 0.1, minConfidence: 0.9, consequentAttribute: "label" });
    const r = rules.find((x) => formatRule(x) === "{sdk=5.0.0} ⇒ {label=Outlier-}");
    expect(r).toEqual({
      antecedent: [["sdk", "5.0.0"]],
      consequent: [["label", "Outlier-"]],
      supportCount: 2,
      support: 0.2,
      confidence: 1,
    });
    expect(rules.every((x) => x.consequent.length === 1 && x.consequent[0]![0] === "label")).toBe(true);
  });
  it("treats ? and empty as missing, not as items", () => {
    const rules = apriori(small, { minSupport: 0.1, minConfidence: 0 });
    expect(rules.some((r) => [...r.antecedent, ...r.consequent].some(([, v]) => v === "?" || v === ""))).toBe(
      false,
    );
  });
  it("uses count >= ceil(minSupport·n): 0.07 of 100 rows means 7 rows", () => {
    const rows: Row[] = Array.from({ length: 100 }, (_, i) => ({
      a: i < 7 ? "x" : "y",
      b: i < 7 ? "x" : `v${i}`,
    }));
    const report = aprioriReport(rows, { minSupport: 0.07, minConfidence: 1 });
    expect(report.minCount).toBe(7);
    expect(report.rules.map(formatRule)).toEqual(["{a=x} ⇒ {b=x}", "{b=x} ⇒ {a=x}"]);
    expect(aprioriReport(rows, { minSupport: 0.071, minConfidence: 1 }).rules).toEqual([]);
  });
  it("returns nothing for no rows, and for a consequent attribute that never occurs", () => {
    expect(apriori([], { minSupport: 0.01, minConfidence: 0.9 })).toEqual([]);
    expect(apriori(small, { minSupport: 0.01, minConfidence: 0.5, consequentAttribute: "nope" })).toEqual([]);
  });
  it("prunes redundant rules and reports what it pruned", () => {
    const report = aprioriReport(small, {
      minSupport: 0.1,
      minConfidence: 0.9,
      consequentAttribute: "label",
      pruneRedundant: true,
    });
    const all = apriori(small, { minSupport: 0.1, minConfidence: 0.9, consequentAttribute: "label" });
    expect(report.rules.length + report.pruned.length).toBe(all.length);
    const pruned = report.pruned.map((p) => formatRule(p.rule));
    // {sdk=5.0.0, api=21} ⇒ Outlier- has confidence 1, as does {sdk=5.0.0} ⇒ Outlier-
    expect(pruned).toContain("{sdk=5.0.0, api=21} ⇒ {label=Outlier-}");
    for (const { rule, by } of report.pruned) {
      expect(by.confidence).toBeGreaterThanOrEqual(rule.confidence);
      expect(by.consequent).toEqual(rule.consequent);
      expect(by.antecedent.length).toBeLessThan(rule.antecedent.length);
      expect(by.antecedent.every((it) => rule.antecedent.some((r) => r[0] === it[0] && r[1] === it[1]))).toBe(
        true,
      );
    }
    // kept rules have no generalisation with at least their confidence among all rules
    const key = (items: [string, string][]) =>
      items
        .map((i) => i.join("="))
        .sort()
        .join("&");
    for (const r of report.rules) {
      const covering = all.filter(
        (g) =>
          key(g.consequent) === key(r.consequent) &&
          g.antecedent.length < r.antecedent.length &&
          g.antecedent.every((it) => r.antecedent.some((x) => x[0] === it[0] && x[1] === it[1])) &&
          g.confidence >= r.confidence,
      );
      expect(covering).toEqual([]);
    }
  });
  it("equals brute force on random small datasets, all-rules and class-rule modes (property)", () => {
    const value = fc.constantFrom("a", "b", "c", "?", "");
    const row = fc.record(
      {
        p: value,
        q: value,
        r: fc.constantFrom("a", "b"),
        label: fc.constantFrom("N", "Outlier-", "Outlier+", "?"),
      },
      { requiredKeys: ["r"] },
    );
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 40 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, s, c) => {
          expect(asMap(apriori(rows as Row[], { minSupport: s, minConfidence: c }))).toEqual(
            bruteForce(rows as Row[], s, c),
          );
          expect(
            asMap(apriori(rows as Row[], { minSupport: s, minConfidence: c, consequentAttribute: "label" })),
          ).toEqual(bruteForce(rows as Row[], s, c, "label"));
        },
      ),
      { numRuns: 200 },
    );
  });
  it("prunes exactly the rules that have a more general rule with at least their confidence (property)", () => {
    const value = fc.constantFrom("a", "b", "?");
    const row = fc.record({
      p: value,
      q: value,
      r: fc.constantFrom("a", "b"),
      label: fc.constantFrom("N", "Outlier-"),
    });
    const key = (items: [string, string][]) =>
      items
        .map((i) => i.join("="))
        .sort()
        .join("&");
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 30 }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.constantFrom(undefined, "label"),
        (rows, s, cons) => {
          const opts = { minSupport: s, minConfidence: 0.5, ...(cons ? { consequentAttribute: cons } : {}) };
          const all = apriori(rows, opts);
          const report = aprioriReport(rows, { ...opts, pruneRedundant: true });
          const redundant = (r: Rule) =>
            all.some(
              (g) =>
                key(g.consequent) === key(r.consequent) &&
                g.antecedent.length < r.antecedent.length &&
                g.antecedent.every((it) => r.antecedent.some((x) => x[0] === it[0] && x[1] === it[1])) &&
                g.confidence >= r.confidence,
            );
          const show = (rs: Rule[]) => rs.map(formatRule).sort();
          expect(show(report.rules)).toEqual(show(all.filter((r) => !redundant(r))));
          expect(show(report.pruned.map((x) => x.rule))).toEqual(show(all.filter(redundant)));
        },
      ),
      { numRuns: 150 },
    );
  });
  it("rejects out-of-range thresholds by name", () => {
    expect(() => apriori(small, { minSupport: 2, minConfidence: 0.9 })).toThrow("invalid minSupport: 2");
    expect(() => apriori(small, { minSupport: 0.1, minConfidence: -1 })).toThrow("invalid minConfidence: -1");
  });
  it("plots the top rules as a ranked table", () => {
    const p = aprioriPlot(
      apriori(small, { minSupport: 0.1, minConfidence: 0.9, consequentAttribute: "label" }),
      { top: 3 },
    );
    expect((p.layout.y as { domain: string[] }).domain).toHaveLength(3);
  });
});
