import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterMembers, similarityWeights, similarityWeightsPlot } from "../../../cells/dune/similarity";

const dims = ["version", "sdk", "manufacturer", "model", "cpu", "network"];
// Figure 2 / §5.3.1: T1 and T4 as printed; T2 and T3 chosen to give Table 1's degrees (1 and sqrt 3).
const t4 = { version: "v1.2", sdk: "4.1", manufacturer: "lg", model: "G4", cpu: "x86", network: "wifi" };
const history = [
  { version: "v1", sdk: "4.1", manufacturer: "samsung", model: "S3", cpu: "x86", network: "wifi" },
  { version: "v1", sdk: "5.0", manufacturer: "htc", model: "One", cpu: "arm", network: "wifi" },
  { version: "v1", sdk: "4.4", manufacturer: "lg", model: "G4", cpu: "x86", network: "3g" },
];

describe("similarityWeights", () => {
  it("reproduces Table 1: degrees 1.73, 1, 1.73 and weights 0.39, 0.22, 0.39", () => {
    const r = similarityWeights(t4, history, dims);
    expect(Array.from(r.degree, (d) => +d.toFixed(2))).toEqual([1.73, 1, 1.73]);
    expect(Array.from(r.weight, (w) => +w.toFixed(2))).toEqual([0.39, 0.22, 0.39]);
    // w(T1) = 1.73 / (1.73 + 1 + 1.73) exactly as the paper computes it
    expect(r.weight[0]).toBeCloseTo(Math.sqrt(3) / (2 * Math.sqrt(3) + 1), 12);
    expect(Array.from(r.cluster)).toEqual([0, 1, 0]);
    expect(clusterMembers(r)).toEqual([0, 2]);
    expect(clusterMembers(r, 1)).toEqual([1]);
  });
  it("never shares a missing attribute (absent, empty or ?) on either side", () => {
    const target = { sdk: "4.1", cpu: "x86", network: "?" };
    const runs: Record<string, string>[] = [
      { sdk: "4.1", cpu: "x86", network: "?" }, // "?" = "?" is not a shared property
      { sdk: "4.1", network: "" },
      {},
      { sdk: "4.1", cpu: "x86", network: "wifi" },
    ];
    const r = similarityWeights(target, runs, ["sdk", "cpu", "network", "model"]);
    expect(Array.from(r.degree)).toEqual([Math.SQRT2, 1, 0, Math.SQRT2]);
    expect(Array.from(r.cluster)).toEqual([0, 1, 2, 0]);
  });
  it("gives uniform weights when nothing is shared, and empty arrays for no history", () => {
    const r = similarityWeights({ a: "1" }, [{ a: "2" }, { b: "1" }], ["a"]);
    expect(Array.from(r.weight)).toEqual([0.5, 0.5]);
    expect(Array.from(r.cluster)).toEqual([0, 0]);
    const e = similarityWeights({ a: "1" }, [], ["a"]);
    expect(e.weight.length + e.degree.length + e.cluster.length).toBe(0);
  });
  it("weights sum to 1 and clusters rank degrees, most similar first (property)", () => {
    const row = fc.record({
      a: fc.constantFrom("x", "y", ""),
      b: fc.constantFrom("x", "y"),
      c: fc.constantFrom("x", "y", "?"),
    });
    fc.assert(
      fc.property(row, fc.array(row, { minLength: 1, maxLength: 20 }), (target, hist) => {
        const r = similarityWeights(target, hist, ["a", "b", "c"]);
        expect(r.weight.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
        for (let i = 0; i < hist.length; i++)
          for (let j = 0; j < hist.length; j++) {
            if (r.degree[i]! > r.degree[j]!) expect(r.cluster[i]).toBeLessThan(r.cluster[j]!);
            if (r.degree[i] === r.degree[j]) expect(r.cluster[i]).toBe(r.cluster[j]);
          }
        expect(Math.min(...r.cluster)).toBe(0);
      }),
    );
  });
  it("plot has one bar per history run", () => {
    const p = similarityWeightsPlot(similarityWeights(t4, history, dims));
    expect([p.mark, p.x, p.y, (p.data as unknown[]).length]).toEqual([
      "barY",
      "run",
      "weight",
      history.length,
    ]);
  });
});
