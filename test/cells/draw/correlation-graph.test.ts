import { describe, expect, it } from "vitest";
import {
  correlationGraph,
  correlationGraphLayout,
  correlationGraphPlot,
  discretize,
  pearson,
} from "../../../cells/draw/correlation-graph";

// Seeded data with three levels: a = k (balanced); b and p copy a's level 80% of the time, else a random
// level; c is noise. A little jitter keeps values distinct; equal-frequency bins then recover the levels
// (up to a few rows at the bin edges), so b ⟂ p | a holds in the discretised data too.
function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}
function data(n: number) {
  const r = rng(7);
  const level = (k: number) => (r() < 0.8 ? k : Math.floor(r() * 3)) + 0.1 * r();
  const k = Array.from({ length: n }, (_, i) => i % 3);
  const a = Float64Array.from(k, (x) => x + 0.1 * r());
  const b = Float64Array.from(k, level);
  const c = Float64Array.from(k, () => Math.floor(r() * 3) + 0.1 * r());
  const p = Float64Array.from(k, level);
  return { a, b, c, p };
}

// BIC of a DAG over discrete columns, written out directly (independent of the search's incremental scores).
function bic(cols: Uint8Array[], arity: number[], parents: number[][]): number {
  const N = cols[0]!.length;
  let total = 0;
  parents.forEach((ps, v) => {
    const counts = new Map<string, Map<number, number>>();
    for (let i = 0; i < N; i++) {
      const key = ps.map((p) => cols[p]![i]).join(",");
      const m = counts.get(key) ?? new Map<number, number>();
      m.set(cols[v]![i]!, (m.get(cols[v]![i]!) ?? 0) + 1);
      counts.set(key, m);
    }
    for (const m of counts.values()) {
      const nj = [...m.values()].reduce((x, y) => x + y, 0);
      for (const c of m.values()) total += c * Math.log(c / nj);
    }
    const q = ps.reduce((x, p) => x * arity[p]!, 1);
    total -= 0.5 * Math.log(N) * q * (arity[v]! - 1);
  });
  return total;
}

describe("pearson and discretize", () => {
  it("computes Pearson's r, 0 for a constant", () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    expect(pearson([1, 2, 3], [5, 5, 5])).toBe(0);
    expect(pearson([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
  });

  it("makes equal-frequency states by rank, ties together, empty states dropped", () => {
    expect(discretize([9, 1, 5, 3, 7, 2, 8, 4, 6], 3)).toEqual({
      states: Uint8Array.from([2, 0, 1, 0, 2, 0, 2, 1, 1]),
      arity: 3,
    });
    expect(discretize([1, 1, 1, 1, 2, 3], 3)).toEqual({
      states: Uint8Array.from([0, 0, 0, 0, 1, 1]),
      arity: 2,
    });
    expect(discretize([4, 4, 4], 3)).toEqual({ states: Uint8Array.from([0, 0, 0]), arity: 1 });
  });
});

describe("correlationGraph (BIC hill climbing)", () => {
  const { a, b, c, p } = data(3000);
  const g = correlationGraph({ a, b, c }, "p", p);

  it("finds p – a – b and leaves the noise feature unconnected", () => {
    const skeleton = g.learnt.map((e) => [e.from, e.to].sort().join("-")).sort();
    expect(skeleton).toEqual(["a-b", "a-p"]);
    expect(g.levels).toEqual({ p: 0, a: 1, b: 2, c: -1 });
  });

  it("roots the graph at the metric, edges pointing away from it with |corr| weights", () => {
    expect(g.learnt.some((e) => e.to === "p")).toBe(false);
    expect(g.edges.map((e) => [e.from, e.to])).toEqual(
      expect.arrayContaining([
        ["p", "a"],
        ["a", "b"],
      ]),
    );
    expect(g.edges).toHaveLength(2);
    const ab = g.edges.find((e) => e.from === "a")!;
    expect(ab.weight).toBeCloseTo(Math.abs(pearson(a, b)), 12);
    expect(g.nodes.find((n) => n.id === "c")!.corr).toBeCloseTo(pearson(c, p), 12);
  });

  it("reports the BIC of the DAG it returns, and no single edge addition or deletion improves it", () => {
    const names = ["p", "a", "b", "c"];
    const disc = [p, a, b, c].map((x) => discretize(x, 3));
    const cols = disc.map((d) => d.states);
    const arity = disc.map((d) => d.arity);
    const parents = names.map((to) => g.learnt.filter((e) => e.to === to).map((e) => names.indexOf(e.from)));
    const best = bic(cols, arity, parents);
    expect(g.bic).toBeCloseTo(best, 6);
    for (let v = 1; v < 4; v++)
      for (let u = 0; u < 4; u++) {
        if (u === v) continue;
        const alt = parents.map((ps) => [...ps]);
        if (alt[v]!.includes(u)) alt[v] = alt[v]!.filter((x) => x !== u);
        else if (!parents[u]!.includes(v)) alt[v]!.push(u);
        else continue;
        expect(bic(cols, arity, alt)).toBeLessThanOrEqual(best + 1e-6);
      }
  });
});

describe("correlationGraphLayout", () => {
  // By hand: the metric m alone in layer 0; a and b (both under m, tied) by name; in layer 2 e hangs under a
  // (row 0) and c under b (row 1), so e comes first though c sorts first by name; d, unconnected, in the last layer.
  const graph = {
    root: "m",
    nodes: [],
    edges: [
      { from: "m", to: "a", weight: 0.5 },
      { from: "m", to: "b", weight: 0.5 },
      { from: "b", to: "c", weight: 0.5 },
      { from: "a", to: "e", weight: 0.5 },
    ],
    levels: { m: 0, a: 1, b: 1, c: 2, e: 2, d: -1 },
    bins: 3,
    maxParents: 3,
    learnt: [],
    bic: 0,
  };

  it("puts one layer per distance, unconnected last, each ordered by its neighbours' rows in the layer before", () => {
    expect(correlationGraphLayout(graph)).toEqual([
      { id: "m", layer: "0", row: 0 },
      { id: "a", layer: "1", row: 0 },
      { id: "b", layer: "1", row: 1 },
      { id: "e", layer: "2", row: 0 },
      { id: "c", layer: "2", row: 1 },
      { id: "d", layer: "not connected", row: 0 },
    ]);
  });

  it("plots every node once, labels cut to fit a layer at the narrowest width, the full name, iv and sig as title", () => {
    const spec = correlationGraphPlot(graph, { a: { iv: 1, sig: 0.5 } });
    expect(spec.layout.x).toMatchObject({ type: "point", domain: ["0", "1", "2", "not connected"] });
    const labels = spec.over!.flatMap((l) => l.data as { id: string; full: string }[]);
    expect(labels.map((n) => n.id).sort()).toEqual(["a", "b", "c", "d", "e", "m"]);
    expect(labels.find((n) => n.id === "a")!.full).toBe("a: iv=1.00, sig=0.50");
    // four layers in 560 - 24 px: 134 px each, less the 12 px gap and 4 px slack, at 10 px per em
    for (const l of spec.over!) expect(l.options!.lineWidth).toBeCloseTo((536 / 4 - 16) / 10, 9);
  });
});
