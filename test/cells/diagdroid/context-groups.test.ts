// contextGroups against a brute-force single-linkage reference (all pairs, union-find) on random stacks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextGroups } from "../../../cells/diagdroid/context-groups";
import { editDistance } from "../../../cells/diagdroid/edit-distance";

function reference(contexts: readonly (readonly string[])[], k: number): number[] {
  const parent = contexts.map((_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
  for (let i = 0; i < contexts.length; i++)
    for (let j = i + 1; j < contexts.length; j++)
      if (editDistance(contexts[i]!, contexts[j]!) <= k) parent[find(j)] = find(i);
  const ids = new Map<number, number>();
  return contexts.map((_, i) => {
    const r = find(i);
    if (!ids.has(r)) ids.set(r, ids.size);
    return ids.get(r)!;
  });
}

// Stacks as edited copies of a few bases (so groups are non-trivial), over a small frame vocabulary.
const frame = fc.constantFrom("f0", "f1", "f2", "f3", "f4", "f5");
const edit = fc.tuple(fc.constantFrom("ins", "del", "sub"), fc.nat(), frame);
const contextsArb = fc
  .tuple(fc.array(fc.array(frame, { maxLength: 16 }), { minLength: 1, maxLength: 3 }))
  .chain(([bases]) =>
    fc.array(
      fc.tuple(fc.nat({ max: bases.length - 1 }), fc.array(edit, { maxLength: 4 })).map(([b, edits]) => {
        const s = [...bases[b]!];
        for (const [op, at, f] of edits) {
          const p = at % (s.length + 1);
          if (op === "ins") s.splice(p, 0, f);
          else if (op === "del") s.splice(p, 1);
          else if (p < s.length) s[p] = f;
        }
        return s;
      }),
      { maxLength: 30 },
    ),
  );

describe("contextGroups", () => {
  it("matches brute-force single linkage on random stacks, k = 0..4", () => {
    fc.assert(
      fc.property(contextsArb, fc.integer({ min: 0, max: 4 }), (contexts, k) => {
        expect(Array.from(contextGroups(contexts, k))).toEqual(reference(contexts, k));
      }),
      { numRuns: 400 },
    );
  });

  it("matches brute force on depth-40 stacks from a large vocabulary (the filter's common case)", () => {
    const deep = fc.array(
      fc.array(
        fc.integer({ min: 0, max: 60 }).map((x) => `m${x}`),
        { minLength: 36, maxLength: 42 },
      ),
      {
        minLength: 2,
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(deep, fc.integer({ min: 1, max: 6 }), (bases, k) => {
        // Near copies of each base, so some pairs sit right at the bound.
        const contexts = bases.flatMap((b, i) => [
          b,
          [...b.slice(0, i % 5), "x", ...b.slice((i % 5) + 1)],
          b.slice(2),
        ]);
        expect(Array.from(contextGroups(contexts, k))).toEqual(reference(contexts, k));
      }),
      { numRuns: 100 },
    );
  });

  it("chains: a–b and b–c within the bound link a and c, though a–c is far apart", () => {
    const a = ["p", "q", "r", "s", "t", "u"];
    const b = ["p", "q", "X", "Y", "t", "u"]; // 2 substitutions from a
    const c = ["p", "q", "X", "Y", "Z", "W"]; // 2 from b, 4 from a
    const d = ["k", "l", "m", "n", "o", "v"]; // far from all
    expect(editDistance(a, c)).toBe(4);
    expect(Array.from(contextGroups([d, a, c, b], 2))).toEqual([0, 1, 1, 1]);
    // Without b the chain is broken.
    expect(Array.from(contextGroups([d, a, c], 2))).toEqual([0, 1, 2]);
  });

  it("numbers groups by first appearance; identical contexts share a group at distance 0", () => {
    expect(Array.from(contextGroups([["b"], ["a"], ["b"], [], ["a"]], 0))).toEqual([0, 1, 0, 2, 1]);
  });

  it("rejects a negative or fractional maxDistance", () => {
    expect(() => contextGroups([["a"]], -1)).toThrow(/maxDistance must be a non-negative integer, got -1/);
    expect(() => contextGroups([["a"]], 1.5)).toThrow(/got 1.5/);
  });
});
