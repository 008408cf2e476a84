import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { significanceScores, type CorrelationGraph } from "../../../cells/draw/significance";

// A graph matching Figure 4's printed numbers: f2.iv = 2.62, f4.iv = 1.54, w12 = 0.6, w14 = 0.7,
// corr(f1, p) = 0.7, corr(f2, p) = 0.9. The edges into f2 and f4 are chosen so their iv come out at
// the printed values: f4 = 1 + 1·0.54; f3 = 1 + 1·0.8; f2 = 1 + 1·0.9 + 1.8·0.4 = 2.62.
const figure4: CorrelationGraph = {
  root: "p",
  nodes: [
    { id: "f1", corr: 0.7 },
    { id: "f2", corr: 0.9 },
    { id: "f3", corr: 0.8 },
    { id: "f4", corr: 0.54 },
    { id: "f5", corr: -0.3 },
    { id: "f6", corr: 0.2 },
  ],
  edges: [
    { from: "p", to: "f2", weight: 0.9 },
    { from: "p", to: "f3", weight: 0.8 },
    { from: "p", to: "f4", weight: 0.54 },
    { from: "f3", to: "f2", weight: 0.4 },
    { from: "f2", to: "f1", weight: 0.6 },
    { from: "f4", to: "f1", weight: 0.7 },
    { from: "f3", to: "f5", weight: 0.5 },
    { from: "f4", to: "f6", weight: 0.3 },
  ],
};

const node = (id: string, corr: number) => ({ id, corr });
const edge = (from: string, to: string, weight: number) => ({ from, to, weight });

describe("significanceScores (Algorithm 1)", () => {
  it("reproduces the paper's worked numbers on Figure 4", () => {
    const s = significanceScores(figure4);
    expect(s.p!.iv).toBe(1);
    expect(s.f4!.iv).toBeCloseTo(1.54, 12);
    expect(s.f2!.iv).toBeCloseTo(2.62, 12);
    expect(s.f1!.iv).toBeCloseTo(1 + 2.62 * 0.6 + 1.54 * 0.7, 12);
    expect(s.f1!.iv.toFixed(2)).toBe("3.65");
    expect(s.f1!.sig).toBeCloseTo(0.7 + 1, 12); // f1 holds max(iv)
    expect(s.f2!.sig).toBeCloseTo(0.9 + 2.62 / 3.65, 12);
    expect(s.f5!.sig).toBeCloseTo(0.3 + 1.9 / 3.65, 12); // |corr|
  });

  it("is independent of the order edges and nodes are listed in", () => {
    const reversed = { ...figure4, nodes: [...figure4.nodes].reverse(), edges: [...figure4.edges].reverse() };
    const a = significanceScores(figure4);
    const b = significanceScores(reversed);
    for (const id of Object.keys(a)) expect(b[id]!.iv).toBeCloseTo(a[id]!.iv, 12);
  });

  it("gives unreachable nodes iv 0 and ignores unreachable parents", () => {
    const s = significanceScores({
      root: "p",
      nodes: [node("a", 0.5), node("lone", 0.4)],
      edges: [edge("p", "a", 0.5), edge("lone", "a", 0.9)],
    });
    expect(s.lone).toEqual({ iv: 0, sig: 0.4 });
    expect(s.a!.iv).toBeCloseTo(1.5, 12);
    expect(s.a!.sig).toBeCloseTo(1.5, 12);
  });

  it("rejects cycles, unknown nodes and edges into the root", () => {
    const cyc = {
      root: "p",
      nodes: [node("a", 0), node("b", 0)],
      edges: [edge("p", "a", 1), edge("a", "b", 1), edge("b", "a", 1)],
    };
    expect(() => significanceScores(cyc)).toThrow(/cycle among a, b/);
    expect(() => significanceScores({ root: "p", nodes: [], edges: [edge("p", "x", 1)] })).toThrow(
      /unknown node x/,
    );
    expect(() =>
      significanceScores({ root: "p", nodes: [node("a", 0)], edges: [edge("a", "p", 1)] }),
    ).toThrow(/into the root/);
  });

  it("equals the recursive definition iv(f) = 1 + Σ iv(parent)·w on random DAGs", () => {
    const dag = fc.integer({ min: 1, max: 9 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        corr: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
        // edges only from lower to higher index (node 0 is the root): acyclic by construction
        edges: fc.uniqueArray(
          fc
            .tuple(
              fc.integer({ min: 0, max: n }),
              fc.integer({ min: 0, max: n }),
              fc.double({ min: 0, max: 1, noNaN: true }),
            )
            .filter(([a, b]) => a < b),
          { selector: ([a, b]) => `${a}-${b}` },
        ),
      }),
    );
    fc.assert(
      fc.property(dag, ({ n, corr, edges }) => {
        const id = (i: number) => (i === 0 ? "p" : `f${i}`);
        const graph: CorrelationGraph = {
          root: "p",
          nodes: corr.map((c, i) => ({ id: id(i + 1), corr: c })),
          edges: edges.map(([a, b, w]) => ({ from: id(a), to: id(b), weight: w })),
        };
        const reach = new Set([0]);
        for (let i = 1; i <= n; i++) if (edges.some(([a, b]) => b === i && reach.has(a))) reach.add(i);
        const iv: number[] = [1];
        for (let i = 1; i <= n; i++)
          iv[i] = reach.has(i)
            ? 1 + edges.filter(([a, b]) => b === i && reach.has(a)).reduce((s, [a, , w]) => s + iv[a]! * w, 0)
            : 0;
        const max = Math.max(...iv);
        const s = significanceScores(graph);
        for (let i = 1; i <= n; i++) {
          expect(s[id(i)]!.iv).toBeCloseTo(iv[i]!, 9);
          expect(s[id(i)]!.sig).toBeCloseTo(Math.abs(corr[i - 1]!) + iv[i]! / max, 9);
        }
      }),
      { numRuns: 300 },
    );
  });
});
