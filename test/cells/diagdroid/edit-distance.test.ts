// editDistance and the bounded variant against an independent recursive Levenshtein over frames.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance, editDistance } from "../../../cells/diagdroid/edit-distance";

// Reference: the textbook recursion, memoised (independent of the row-based DP under test).
function reference(a: readonly string[], b: readonly string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length) return b.length - j;
    if (j === b.length) return a.length - i;
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const v = Math.min(go(i + 1, j) + 1, go(i, j + 1) + 1, go(i + 1, j + 1) + (a[i] === b[j] ? 0 : 1));
    memo.set(key, v);
    return v;
  };
  return go(0, 0);
}

const stack = fc.array(fc.constantFrom("a.A.run", "b.B.call", "c.C.exec", "d.D.post"), { maxLength: 14 });
const intern = (s: readonly string[]) => Int32Array.from(s, (f) => f.charCodeAt(0));

describe("editDistance", () => {
  it.each([
    [[], [], 0],
    [["x"], [], 1],
    [["a", "b", "c"], ["a", "b", "c"], 0],
    [["a", "b", "c"], ["a", "c"], 1],
    [["a", "b", "c"], ["a", "x", "c"], 1],
    [["a", "b", "c"], ["c", "b", "a"], 2],
    // Frames are whole symbols: one changed line number is one substitution, not a few characters.
    [["AsyncTask.execute(AsyncTask.java:534)", "f"], ["AsyncTask.execute(AsyncTask.java:539)", "f"], 1],
  ])("%j vs %j = %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it("equals the recursive reference on random stacks", () => {
    fc.assert(
      fc.property(stack, stack, (a, b) => editDistance(a, b) === reference(a, b)),
      { numRuns: 300 },
    );
  });

  it("bounded variant: exact when ≤ k, k + 1 otherwise", () => {
    fc.assert(
      fc.property(stack, stack, fc.integer({ min: 0, max: 5 }), (a, b, k) => {
        const d = reference(a, b);
        const got = boundedEditDistance(intern(a), 0, a.length, intern(b), 0, b.length, k);
        return got === (d <= k ? d : k + 1);
      }),
      { numRuns: 500 },
    );
  });
});
