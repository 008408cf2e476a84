import fc from "fast-check";
import type { Table } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import type { ProfileMethod } from "../../../cells/androscope/method-profile";
import {
  differentialProfile,
  ROOT_NAME,
  type DifferentialProfile,
  type ProfileSide,
} from "../../../cells/compare/differential-profile";
import { differentialFlameRows } from "../../../cells/compare/differential-flame-plot";
import { arbitraryCalls, callsTable, HAND_THREADS, type CallSpec } from "../androscope/call-table";
import { fcRuns } from "../../support/fc-runs";
import { readBundleFolder } from "../../../bundle/node-io";
import { methodProfile } from "../../../cells/androscope/method-profile";
import { methodList } from "../../../cells/androscope/trace-names";

const named = (ids: Record<string, number>): ProfileMethod[] =>
  Object.entries(ids).map(([m, id]) => ({ id, className: "p.C", methodName: m, signature: "()V" }));
const key = (m: string) => `p.C.${m} ()V`;

// Baseline: the hand-worked calls (thread 1: A 0..1000 { B 100..110, B 120..125, C 300..900 { B 310..312 } },
// thread 2: C 50..60), 2 frames. Candidate: other method ids for the same names, B recursive, C gone, D new, 1 frame.
const BASE_METHODS = named({ A: 1, B: 2, C: 3 });
const CAND_METHODS = named({ A: 10, B: 20, D: 40 });
const CANDIDATE: Record<number, CallSpec[]> = {
  7: [
    [
      10,
      0,
      1500,
      [
        [20, 100, 600, [[20, 200, 300]]],
        [40, 700, 900],
      ],
    ],
  ],
};

describe("differentialProfile", () => {
  const profile = differentialProfile(
    { calls: callsTable(HAND_THREADS, "base"), methods: BASE_METHODS, frames: 2 },
    { calls: callsTable(CANDIDATE, "cand"), methods: CAND_METHODS, frames: 1 },
  );

  it("matches methods by name across traces and gives per-frame times, worked by hand", () => {
    const rows = Object.fromEntries(profile.methods.map((r) => [r.name, r]));
    expect(profile.per).toBe("frame");
    expect(profile.units).toEqual({ baseline: 2, candidate: 1 });
    expect(profile.runs).toEqual({ baseline: ["base"], candidate: ["cand"] });
    // A: inclusive 1000 / 2 frames; self 1000 - 10 - 5 - 600 = 385, / 2
    expect(rows[key("A")]).toMatchObject({
      baseline: { calls: 0.5, inclusive: 500, self: 192.5 },
      candidate: { calls: 1, inclusive: 1500, self: 800 },
      inclusiveDiff: 1000,
      selfDiff: 607.5,
      inclusiveRatio: 3,
      status: "both",
    });
    // B: baseline 10 + 5 + 2 (the one under C is outermost too); candidate recursive: only the outer 500 counts
    expect(rows[key("B")]).toMatchObject({
      baseline: { calls: 1.5, inclusive: 8.5, self: 8.5 },
      candidate: { calls: 2, inclusive: 500, self: 500 },
      inclusiveDiff: 491.5,
      status: "both",
    });
    // C: 600 on thread 1 (self 598) and 10 on thread 2; gone from the candidate
    expect(rows[key("C")]).toMatchObject({
      baseline: { calls: 1, inclusive: 305, self: 304 },
      candidate: { calls: 0, inclusive: 0, self: 0 },
      inclusiveDiff: -305,
      inclusiveRatio: 0,
      status: "vanished",
    });
    expect(rows[key("D")]).toMatchObject({ inclusiveDiff: 200, inclusiveRatio: null, status: "new" });
    expect(profile.methods.map((r) => r.name)).toEqual(["A", "B", "C", "D"].map(key));
  });

  it("merges both call trees by method path, worked by hand", () => {
    const show = profile.tree.map(
      (n) => `${"  ".repeat(n.depth)}${n.name} ${n.baseline.inclusive}/${n.candidate.inclusive}`,
    );
    expect(show).toEqual([
      `${ROOT_NAME} 505/1500`,
      `  ${key("A")} 500/1500`,
      `    ${key("B")} 7.5/500`,
      `      ${key("B")} 0/100`,
      `    ${key("C")} 300/0`,
      `      ${key("B")} 1/0`,
      `    ${key("D")} 0/200`,
      `  ${key("C")} 5/0`,
    ]);
    expect(profile.tree[2]).toMatchObject({
      parent: 1,
      baseline: { calls: 1, self: 7.5 },
      selfDiff: 400 - 7.5,
    });
  });

  it("sums a side of several runs, each run's callers looked up among its own calls", () => {
    // Two runs whose call ids both start at 0: joined across runs, run b's B would hang under run a's A.
    const a = callsTable({ 1: [[1, 0, 100, [[2, 10, 30]]]] }, "a");
    const b = callsTable(
      {
        1: [
          [2, 0, 50],
          [1, 60, 80],
        ],
      },
      "b",
    );
    const methods = (run: string, ids: [number, string][]) =>
      makeBundleTable("methods", run, {
        method_id: ids.map(([id]) => id),
        class_name: ids.map(() => "p.C"),
        method_name: ids.map(([, m]) => m),
        signature: ids.map(() => "()V"),
      });
    const side: ProfileSide = {
      calls: a.concat(b) as Table,
      methods: methods("a", [
        [1, "A"],
        [2, "B"],
      ]).concat(
        methods("b", [
          [2, "A"],
          [1, "B"],
        ]),
      ) as Table,
    };
    const p = differentialProfile(side, { ...side, runs: ["a"] });
    expect(p.per).toBe("run");
    expect(p.runs).toEqual({ baseline: ["a", "b"], candidate: ["a"] });
    // In run b, id 2 is A (50) and id 1 is B (20): per run over 2 runs, A (100 + 50) / 2, B (20 + 20) / 2.
    const rows = Object.fromEntries(p.methods.map((r) => [r.name, r]));
    expect(rows[key("A")]!.baseline).toEqual({ calls: 1, inclusive: 75, self: 65 });
    expect(rows[key("B")]!.baseline).toEqual({ calls: 1, inclusive: 20, self: 20 });
    expect(rows[key("A")]!.candidate).toEqual({ calls: 1, inclusive: 100, self: 80 });
    expect(p.tree.map((n) => [n.depth, n.name])).toEqual([
      [0, ROOT_NAME],
      [1, key("A")],
      [2, key("B")],
      [1, key("B")],
    ]);
  });

  it.each([
    [{ per: "frame" as const }, {}, "per frame needs baseline.frames"],
    [{ per: "second" as const }, { seconds: 0 }, "baseline.seconds must be a number above 0, got 0"],
    [{ per: "week" as never }, {}, "invalid per: week"],
  ])("refuses %o with a clear message", (options, extra, message) => {
    const side = { calls: callsTable(HAND_THREADS), methods: BASE_METHODS, ...extra };
    expect(() => differentialProfile(side, side, options)).toThrow(message);
  });

  it("names a caller missing from a filtered calls table", () => {
    const calls = callsTable(HAND_THREADS, "r");
    const cut = makeBundleTable("calls", "r", {
      call_id: [2],
      thread_id: [1],
      method_id: [2],
      depth: [1],
      parent: [0],
      enter: [120],
      exit: [125],
      inclusive: [5],
      exclusive: [5],
      synthetic_exit: [false],
    });
    expect(() =>
      differentialProfile({ calls, methods: BASE_METHODS }, { calls: cut, methods: BASE_METHODS }),
    ).toThrow("candidate calls row 0 (run r): parent 0 is not a call_id of that run");
  });
});

/**
 * The reference: per method and per path from the nested specs themselves, no tables, no parent lookups. With a
 * root method, only what runs inside its outermost calls counts, and paths start below them.
 */
function reference(threads: Record<number, CallSpec[]>, names: (id: number) => string, root?: string) {
  type T = { calls: number; inclusive: number; self: number };
  const methods = new Map<string, T>();
  const paths = new Map<string, T>();
  const top: T = { calls: 0, inclusive: 0, self: 0 };
  const bump = (m: Map<string, T>, k: string) => {
    if (!m.has(k)) m.set(k, { calls: 0, inclusive: 0, self: 0 });
    return m.get(k)!;
  };
  // path: the tree path (restarting below a root call); callers: every method on the stack, for recursion
  const walk = (spec: CallSpec, path: string[], callers: string[], inside: boolean) => {
    const [id, enter, exit, kids = []] = spec;
    const name = names(id);
    const inc = exit - enter;
    const self = inc - kids.reduce((s, k) => s + (k[2] - k[1]), 0);
    const starts = !inside && root !== undefined && name === root;
    const counted = inside || starts || root === undefined;
    if (counted) {
      const m = bump(methods, name);
      m.calls++;
      m.self += self;
      if (!callers.includes(name)) m.inclusive += inc;
    }
    const below = [...callers, name];
    if (starts) {
      (top.calls++, (top.inclusive += inc), (top.self += self));
      for (const k of kids) walk(k, [], below, true);
      return;
    }
    if (root === undefined && callers.length === 0) top.inclusive += inc;
    const here = [...path, name];
    if (counted) {
      const p = bump(paths, here.join(" > "));
      (p.calls++, (p.inclusive += inc), (p.self += self));
    }
    // outside a root call, callers above it do not count as recursion inside it
    for (const k of kids) walk(k, counted ? here : [], counted ? below : [], inside);
  };
  for (const tops of Object.values(threads)) for (const t of tops) walk(t, [], [], false);
  return { methods, paths, top };
}

/** The tree's nodes by path from the root ("A > B > B"), the root left out. */
function byPath(p: DifferentialProfile, side: "baseline" | "candidate") {
  const path: string[] = [];
  const out = new Map<string, { calls: number; inclusive: number; self: number }>();
  for (const n of p.tree) {
    path.length = n.depth;
    path[n.depth] = n.name;
    if (n.depth > 0 && n[side].calls > 0) out.set(path.slice(1).join(" > "), n[side]);
  }
  return out;
}

/** The same calls with method ids renumbered (another trace of the same app gives other ids). */
function renumber(threads: Record<number, CallSpec[]>, shift: number): Record<number, CallSpec[]> {
  const re = ([id, a, b, kids = []]: CallSpec): CallSpec => [id + shift, a, b, kids.map(re)];
  return Object.fromEntries(Object.entries(threads).map(([t, tops]) => [t, tops.map(re)]));
}

describe("differentialProfile properties", () => {
  const names = (id: number) => key(`m${id % 100}`);
  const methodsFor = (shift: number) =>
    Array.from({ length: 6 }, (_, i) => ({
      id: i + shift,
      className: "p.C",
      methodName: `m${i}`,
      signature: "()V",
    }));

  it("agrees with the brute-force reference per method and per path, on each side", () => {
    fc.assert(
      fc.property(arbitraryCalls({ methods: 5 }), arbitraryCalls({ methods: 5 }), (x, y) => {
        const p = differentialProfile(
          { calls: callsTable(x, "x"), methods: methodsFor(0) },
          { calls: callsTable(renumber(y, 100), "y"), methods: methodsFor(100) },
        );
        for (const [side, spec] of [
          ["baseline", x],
          ["candidate", y],
        ] as const) {
          const ref = reference(spec, names);
          const rows = new Map(p.methods.filter((r) => r[side].calls > 0).map((r) => [r.name, r[side]]));
          expect(rows).toEqual(ref.methods);
          expect(byPath(p, side)).toEqual(ref.paths);
          expect(p.tree[0]![side].inclusive).toBe(ref.top.inclusive);
        }
      }),
      { numRuns: fcRuns(200), seed: 31 },
    );
  });

  it("agrees with the reference under a root method: its calls are the root, nothing outside them counts", () => {
    fc.assert(
      fc.property(arbitraryCalls({ methods: 3 }), arbitraryCalls({ methods: 3 }), (x, y) => {
        const p = differentialProfile(
          { calls: callsTable(x, "x"), methods: methodsFor(0) },
          { calls: callsTable(y, "y"), methods: methodsFor(0) },
          { root: "p.C.m1" },
        );
        expect(p.tree[0]!.name).toBe("p.C.m1");
        for (const [side, spec] of [
          ["baseline", x],
          ["candidate", y],
        ] as const) {
          const ref = reference(spec, names, key("m1"));
          const rows = new Map(p.methods.filter((r) => r[side].calls > 0).map((r) => [r.name, r[side]]));
          expect(rows).toEqual(ref.methods);
          expect(byPath(p, side)).toEqual(ref.paths);
          expect(p.tree[0]![side]).toEqual(ref.top);
        }
      }),
      { numRuns: fcRuns(200), seed: 35 },
    );
  });

  it("merges a caller's many distinct callees (past the few it scans) as the reference does", () => {
    // A calls 30 methods twice over, in two orders: every callee of A is found again among 30 children.
    const callees = (from: number, order: number[]): CallSpec[] =>
      order.map((m, i): CallSpec => [m, from + 10 * i, from + 10 * i + 5 + (m % 3)]);
    const ids = Array.from({ length: 30 }, (_, i) => i + 2);
    const threads: Record<number, CallSpec[]> = {
      1: [[1, 0, 1000, [...callees(0, ids), ...callees(400, [...ids].reverse())]]],
    };
    const wide = Array.from({ length: 32 }, (_, i) => ({
      id: i,
      className: "p.C",
      methodName: `m${i}`,
      signature: "()V",
    }));
    const p = differentialProfile(
      { calls: callsTable(threads, "x"), methods: wide },
      { calls: callsTable(threads, "y"), methods: wide },
    );
    const ref = reference(threads, (id) => key(`m${id}`));
    expect(byPath(p, "baseline")).toEqual(ref.paths);
    expect(p.tree).toHaveLength(1 + 1 + 30);
    expect(p.tree.filter((n) => n.depth === 2).every((n) => n.baseline.calls === 2)).toBe(true);
  });

  it("sums self times to the root's inclusive time on each side, in the list and in the tree", () => {
    fc.assert(
      fc.property(arbitraryCalls(), arbitraryCalls(), fc.integer({ min: 1, max: 9 }), (x, y, frames) => {
        const p = differentialProfile(
          { calls: callsTable(x, "x"), methods: methodsFor(0), frames },
          { calls: callsTable(y, "y"), methods: methodsFor(0), frames: 10 - frames },
        );
        for (const side of ["baseline", "candidate"] as const) {
          const root = p.tree[0]![side].inclusive;
          const sum = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
          expect(sum(p.methods.map((r) => r[side].self))).toBeCloseTo(root, 6);
          expect(sum(p.tree.map((n) => n[side].self))).toBeCloseTo(root, 6);
        }
      }),
      { numRuns: fcRuns(200), seed: 32 },
    );
  });

  it("gives zero differences for identical sides, and opposite ones when the sides swap", () => {
    fc.assert(
      fc.property(arbitraryCalls(), arbitraryCalls(), (x, y) => {
        const a = { calls: callsTable(x, "x"), methods: methodsFor(0) };
        const b = { calls: callsTable(renumber(y, 100), "y"), methods: methodsFor(100) };
        const same = differentialProfile(a, { ...a });
        for (const r of same.methods) {
          expect([r.inclusiveDiff, r.selfDiff, r.status]).toEqual([0, 0, "both"]);
          expect(r.inclusiveRatio === null || r.inclusiveRatio === 1).toBe(true);
        }
        for (const n of same.tree) expect([n.inclusiveDiff, n.selfDiff]).toEqual([0, 0]);
        const ab = differentialProfile(a, b);
        const ba = new Map(differentialProfile(b, a).methods.map((r) => [r.name, r]));
        for (const r of ab.methods) expect(ba.get(r.name)!.inclusiveDiff + r.inclusiveDiff).toBe(0);
      }),
      { numRuns: fcRuns(100), seed: 33 },
    );
  });

  it("nests every flame rect inside its caller's, whatever width it takes", () => {
    fc.assert(
      fc.property(
        arbitraryCalls(),
        arbitraryCalls(),
        fc.constantFrom("mean", "baseline", "candidate"),
        (x, y, width) => {
          const p = differentialProfile(
            { calls: callsTable(x, "x"), methods: methodsFor(0) },
            { calls: callsTable(y, "y"), methods: methodsFor(0) },
          );
          const rows = differentialFlameRows(p, { width: width as "mean", minShare: 0 });
          const byId = new Map(rows.map((r) => [r.id, r]));
          for (const r of rows) {
            const parent = p.tree[r.id]!.parent;
            if (parent === null) continue;
            const up = byId.get(parent)!;
            expect(r.x1).toBeGreaterThanOrEqual(up.x1 - 1e-9);
            expect(r.x2).toBeLessThanOrEqual(up.x2 + 1e-9);
            expect(r.depth).toBe(up.depth + 1);
          }
        },
      ),
      { numRuns: fcRuns(100), seed: 34 },
    );
  });
});

describe("differentialProfile on the compare notebook's pair", () => {
  it("gives each side's per-method times as AndroScope's method profile of that run, per frame", async () => {
    const runs = await Promise.all(
      ["notebooks/runs/feed-methods-pixel-4a-2.3.0", "workspace/public/samples/feed-methods-pixel-4a"].map(
        readBundleFolder,
      ),
    );
    const sides = runs.map((r) => ({
      calls: r.tables.get("calls")!,
      methods: r.tables.get("methods")!,
      frames: r.tables.get("frames")!.numRows,
    }));
    const p = differentialProfile(sides[0]!, sides[1]!);
    expect(p.units).toEqual({ baseline: 273, candidate: 231 });
    for (const [i, side] of (["baseline", "candidate"] as const).entries()) {
      const own = methodProfile(sides[i]!.calls, methodList(sides[i]!.methods));
      const rows = new Map(p.methods.map((r) => [r.name, r[side]]));
      for (const m of own) {
        const r = rows.get(m.name)!;
        expect([r.calls, r.inclusive, r.self].map((v) => v * sides[i]!.frames)).toEqual([
          expect.closeTo(m.calls, 6),
          expect.closeTo(m.inclusive, 0),
          expect.closeTo(m.exclusive, 0),
        ]);
      }
    }
    // the planted change: the decode left the main thread's frames (it runs on the worker in 2.3.0)
    const decode = p.methods.find((r) => r.name.startsWith("com.example.feed.ImageLoader.loadThumbnail"))!;
    expect(decode.candidate.inclusive / decode.baseline.inclusive).toBeGreaterThan(100);
  });
});
