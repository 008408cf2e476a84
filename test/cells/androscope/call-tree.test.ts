import { readFileSync } from "node:fs";
import * as Plot from "@observablehq/plot";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { buildCalls } from "../../../collectors/method-trace-calls";
import { callTree, callTreePlot, type CallTree } from "../../../cells/androscope/call-tree";
import { readMethodTrace } from "../../../collectors/sources/method-trace";
import { chartOptions } from "../../golden-svg";
import { arbitraryCalls, callsTable, flatten, type CallSpec } from "./call-table";

const methods = [1, 2, 3, 4, 5].map((id) => ({
  id,
  className: "p.C",
  methodName: "ABCDE"[id - 1]!,
  signature: "()V",
}));

/** path of method ids from the root -> [calls, inclusive, exclusive] */
function byPath(tree: CallTree): Map<string, [number, number, number]> {
  const path = new Map<number, string>();
  const out = new Map<string, [number, number, number]>();
  for (const n of tree.nodes) {
    const p = n.parent === null ? String(n.methodId) : `${path.get(n.parent)}>${n.methodId}`;
    path.set(n.id, p);
    out.set(p, [n.calls, n.inclusive, n.exclusive]);
  }
  return out;
}

/** Brute force: every descendant of every outermost call of `root`, grouped by its method path. */
function reference(threads: Record<number, CallSpec[]>, root: number, thresholdPercent: number) {
  const calls = flatten(threads);
  const inc = calls.map((c) => c.exit - c.enter);
  const exc = calls.map((c, i) => inc[i]! - calls.reduce((s, d, j) => s + (d.parent === i ? inc[j]! : 0), 0));
  const ancestors = (i: number) => {
    const out: number[] = [];
    for (let p = calls[i]!.parent; p >= 0; p = calls[p]!.parent) out.push(p);
    return out;
  };
  const paths = new Map<string, [number, number, number]>();
  calls.forEach((c, i) => {
    const up = ancestors(i);
    // the nearest outermost call of root among i and its ancestors
    const chain = [i, ...up];
    const rootAt = chain.findIndex(
      (j, k) => calls[j]!.method === root && chain.slice(k + 1).every((a) => calls[a]!.method !== root),
    );
    if (rootAt < 0) return;
    const key = chain
      .slice(0, rootAt + 1)
      .reverse()
      .map((j) => calls[j]!.method)
      .join(">");
    const e = paths.get(key) ?? [0, 0, 0];
    paths.set(key, [e[0] + 1, e[1] + inc[i]!, e[2] + exc[i]!]);
  });
  const total = paths.get(String(root))?.[1] ?? 0;
  const min = (thresholdPercent / 100) * total;
  const visible = new Set(
    [...paths.keys()].filter((p) =>
      p.split(">").every((_, k, a) => k === 0 || paths.get(a.slice(0, k + 1).join(">"))![1] >= min),
    ),
  );
  const critical = [String(root)];
  for (;;) {
    const last = critical[critical.length - 1]!;
    const kids = [...paths].filter(
      ([p]) => p.startsWith(last + ">") && p.split(">").length === last.split(">").length + 1,
    );
    if (!kids.length) break;
    kids.sort((a, b) => b[1][1] - a[1][1] || Number(a[0].split(">").pop()) - Number(b[0].split(">").pop()));
    critical.push(kids[0]![0]);
  }
  return { paths, visible, critical };
}

describe("callTree", () => {
  // Thread 1: A 0..100 { B 10..50 { C 20..30 }, C 60..90 { A 65..85 { B 70..80 } } }; thread 2: A 0..40 { B 5..15 }, B 50..60.
  const threads: Record<number, CallSpec[]> = {
    1: [
      [
        1,
        0,
        100,
        [
          [2, 10, 50, [[3, 20, 30]]],
          [3, 60, 90, [[1, 65, 85, [[2, 70, 80]]]]],
        ],
      ],
    ],
    2: [
      [1, 0, 40, [[2, 5, 15]]],
      [2, 50, 60],
    ],
  };
  const calls = callsTable(threads);

  it("merges every outermost call of the method, recursion as a node inside, worked by hand", () => {
    const t = callTree(calls, methods, 1);
    expect(t.rootCalls).toBe(2);
    expect(t.name).toBe("p.C.A");
    expect(t.nodes.map((n) => [n.depth, n.name, n.calls, n.inclusive, n.exclusive])).toEqual([
      [0, "p.C.A", 2, 140, 140 - 40 - 30 - 10],
      [1, "p.C.B", 2, 50, 40],
      [2, "p.C.C", 1, 10, 10],
      [1, "p.C.C", 1, 30, 10],
      [2, "p.C.A", 1, 20, 10],
      [3, "p.C.B", 1, 10, 10],
    ]);
    expect(t.criticalPath.map((n) => n.name)).toEqual(["p.C.A", "p.C.B", "p.C.C"]);
    expect(t.nodes[1]!.share).toBeCloseTo(50 / 140, 12);
  });

  it("hides subtrees below the threshold share of the root's inclusive time; 100 % keeps the root only", () => {
    const at25 = callTree(calls, methods, 1, { thresholdPercent: 25 });
    // 25 % of 140 = 35: B (50) stays, C under A (30) goes with its subtree; C under B (10) goes
    expect(at25.nodes.filter((n) => n.visible).map((n) => n.name)).toEqual(["p.C.A", "p.C.B"]);
    expect([at25.nodes[0]!.hiddenChildren, at25.nodes[0]!.hiddenInclusive]).toEqual([1, 30]);
    expect([at25.nodes[1]!.hiddenChildren, at25.nodes[1]!.hiddenInclusive]).toEqual([1, 10]);
    expect(
      callTree(calls, methods, 1, { thresholdPercent: 100 }).nodes.filter((n) => n.visible),
    ).toHaveLength(1);
    expect(callTree(calls, methods, 1, { thresholdPercent: 0 }).nodes.every((n) => n.visible)).toBe(true);
  });

  it("filters by thread, sums CPU time with clock cpu, and says what is wrong", () => {
    expect(callTree(calls, methods, 1, { threadId: 2 }).nodes.map((n) => [n.name, n.inclusive])).toEqual([
      ["p.C.A", 40],
      ["p.C.B", 10],
    ]);
    expect(callTree(callsTable(threads, "t", 0.5), methods, 3, { clock: "cpu" }).nodes[0]!.inclusive).toBe(
      20,
    );
    expect(() => callTree(calls, methods, 1, { clock: "cpu" })).toThrow(/clock cpu needs cpu_inclusive/);
    expect(() => callTree(calls, methods, 5)).toThrow(/p\.C\.E has no calls/);
    expect(() => callTree(calls, methods, 3, { threadId: 2 })).toThrow(/no calls on thread 2/);
    expect(() => callTree(calls, methods, 1, { thresholdPercent: 101 })).toThrow(
      /invalid thresholdPercent: 101/,
    );
    expect(() => callTree(calls.select(["thread_id", "method_id"]), methods, 1)).toThrow(
      /missing column parent \(int32\) in calls/,
    );
  });

  it("matches the brute-force merge on random call tables (paths, sums, visibility, critical path)", () => {
    fc.assert(
      fc.property(
        arbitraryCalls({ threads: 3, methods: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 100 }),
        (threads, root, threshold) => {
          const ref = reference(threads, root, threshold);
          if (!ref.paths.size) {
            expect(() => callTree(callsTable(threads), methods, root)).toThrow(/has no calls/);
            return;
          }
          const t = callTree(callsTable(threads), methods, root, { thresholdPercent: threshold });
          expect(byPath(t)).toEqual(ref.paths);
          const pathOf = new Map<number, string>();
          for (const n of t.nodes)
            pathOf.set(
              n.id,
              n.parent === null ? String(n.methodId) : `${pathOf.get(n.parent)}>${n.methodId}`,
            );
          expect(new Set(t.nodes.filter((n) => n.visible).map((n) => pathOf.get(n.id)))).toEqual(ref.visible);
          // the dominant child's inclusive time is the largest (ties may pick either: compare times)
          expect(t.criticalPath.map((n) => n.inclusive)).toEqual(
            ref.critical.map((p) => ref.paths.get(p)![1]),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("callTree on a real trace", () => {
  const trace = readMethodTrace(
    new Uint8Array(readFileSync("test/fixtures/dmtrace/Grigory-Rylov-android-methods-profiler_legacy.trace")),
  );
  const calls = buildCalls(trace);
  const looper = trace.methods.find((m) => m.className === "android.os.Looper" && m.methodName === "loop");

  it("Looper.loop's tree: children never exceed their parent, shares and the critical path hold", () => {
    expect(looper).toBeDefined();
    const t = callTree(calls, trace.methods, looper!.id);
    const byId = new Map(t.nodes.map((n) => [n.id, n]));
    const childSum = new Map<number, number>();
    for (const n of t.nodes) {
      expect(n.exclusive).toBeGreaterThanOrEqual(0);
      expect(n.exclusive).toBeLessThanOrEqual(n.inclusive);
      if (n.parent === null) continue;
      const p = byId.get(n.parent)!;
      expect(n.inclusive).toBeLessThanOrEqual(p.inclusive);
      expect(n.depth).toBe(p.depth + 1);
      childSum.set(n.parent, (childSum.get(n.parent) ?? 0) + n.inclusive);
    }
    // inclusive = exclusive + the children's inclusive, at every node
    for (const n of t.nodes) expect(n.exclusive + (childSum.get(n.id) ?? 0)).toBeCloseTo(n.inclusive, 3);
    // each step of the critical path is the largest child of the previous one
    for (let k = 1; k < t.criticalPath.length; k++) {
      const prev = t.criticalPath[k - 1]!;
      const siblings = t.nodes.filter((n) => n.parent === prev.id);
      expect(t.criticalPath[k]!.inclusive).toBe(Math.max(...siblings.map((s) => s.inclusive)));
    }
    expect(t.nodes.filter((n) => n.parent === t.criticalPath.at(-1)!.id)).toEqual([]);
    // raising the threshold only ever hides nodes
    let shown = t.nodes.length;
    for (const pct of [1, 5, 20, 50]) {
      const at = callTree(calls, trace.methods, looper!.id, { thresholdPercent: pct }).nodes.filter(
        (n) => n.visible,
      );
      expect(at.length).toBeLessThanOrEqual(shown);
      for (const n of at.slice(1))
        expect(n.inclusive).toBeGreaterThanOrEqual((pct / 100) * t.nodes[0]!.inclusive);
      shown = at.length;
    }
  });

  it("draws an icicle: one bar per visible node, each inside its parent's span", () => {
    const t = callTree(calls, trace.methods, looper!.id, { thresholdPercent: 2 });
    const options = callTreePlot(t);
    const bars = options.data as { depth: number; x1: number; x2: number }[];
    expect(bars).toHaveLength(t.nodes.filter((n) => n.visible).length);
    expect(bars[0]).toMatchObject({ depth: 0, x1: 0, x2: t.nodes[0]!.inclusive / 1e6 });
    const { document } = parseHTML("<html><body></body></html>");
    const svg = Plot.plot({ ...chartOptions(options), document }) as unknown as Element;
    expect(svg.querySelectorAll("rect").length).toBeGreaterThanOrEqual(bars.length);
  });
});
