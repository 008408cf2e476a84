// diagdroidDependencyChanges (DiagDroid §4.1, Definition 3): on a pair of one-run sides worked by
// hand, each edge's share of the tasks a group's waits queued behind and the queuing time it caused per second;
// and on the OpenLaw case, whose bug puts LawSectionList on the serial executor behind UpdateLawList.
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { casePairs } from "../../../bench/compare/case-pairs";
import { readSides } from "../../../bench/compare/read-sides";
import { compareRuns } from "../../../cells/compare/compare-runs";
import { tasksTable, type T } from "../diagdroid/tasks-fixture";

// two groups far apart in their contexts (no shared frame): X loads, Y syncs
const X = ["com.app.Feed.load", "com.app.Feed.onResume", "android.app.Activity.performResume"];
const Y = ["com.app.Sync.run", "com.app.Sync.schedule", "android.os.Handler.dispatchMessage"];
const contexts = (run: string) => makeBundleTable("contexts", run, { context_id: [1, 2], frames: [X, Y] });
const x = { ctx: 1, cls: "LoadTask" };
const y = { ctx: 2, cls: "SyncTask" };

// one interaction's tasks, and the same again a second later (two buckets a side for the block bootstrap)
const twice = (rows: T[]): T[] => [
  ...rows,
  ...rows.map((r) => ({ ...r, id: r.id + 10, s: r.s + 1000, b: r.b! + 1000, e: r.e! + 1000 })),
];
// A: X's one wait is behind a running Y (90 ms); Y's second task waits behind its first (130 ms)
const a: T[] = twice([
  { id: 1, ...y, s: 0, b: 0, e: 100 },
  { id: 2, ...x, s: 10, b: 100, e: 150 },
  { id: 3, ...y, s: 160, b: 160, e: 300 },
  { id: 4, ...y, s: 170, b: 300, e: 310 },
]);
// B: X's first wait as in A; its second (130 ms) is behind the running Y and the pending X: half each. Y never waits.
const b: T[] = twice([
  { id: 1, ...y, s: 0, b: 0, e: 100 },
  { id: 2, ...x, s: 10, b: 100, e: 150 },
  { id: 3, ...x, s: 20, b: 150, e: 200 },
  { id: 4, ...y, s: 250, b: 250, e: 310 },
]);

describe("DiagDroid queuing dependencies compared", () => {
  const c = compareRuns(
    {
      tasks: tasksTable(a, "a").concat(tasksTable(b, "b")),
      contexts: contexts("a").concat(contexts("b")),
    },
    { a: ["a"], b: ["b"] },
  );
  const LOAD = "LoadTask from com.app.Feed.load";
  const SYNC = "SyncTask from com.app.Sync.run";
  const row = (g: string, h: string, m: "share" | "queued") =>
    c.rows.find((r) => r.key === `diagdroid:${g} behind ${h}:${m}`);

  it("gives each edge its share of the tasks ahead of the group's waits, worked by hand", () => {
    // X behind Y: A's waits all Y; B's waits 1 and 1/2 in each interaction
    expect(row(LOAD, SYNC, "share")).toMatchObject({ a: 1, b: 0.75, scale: "difference", status: "ok" });
    // X behind X appears: 0 in A's waits, 1/2 of B's second in each interaction
    expect(row(LOAD, LOAD, "share")).toMatchObject({ a: 0, b: 0.25, status: "ok" });
    // Y behind Y vanishes: Y waits once in A, never in B
    expect(row(SYNC, SYNC, "share")).toMatchObject({ a: 1, status: "vanished" });
    // Y never waited behind X on either side: no edge
    expect(row(SYNC, LOAD, "share")).toBeUndefined();
  });

  it("splits each wait's queuing time among the groups ahead, per second of the run (both span 1.31 s)", () => {
    const near = (r: ReturnType<typeof row>, av: number, bv: number) => {
      expect(r!.a).toBeCloseTo(av, 9);
      expect(r!.b).toBeCloseTo(bv, 9);
    };
    near(row(LOAD, SYNC, "queued"), (2 * 90) / 1.31, (2 * (90 + 130 / 2)) / 1.31);
    near(row(LOAD, LOAD, "queued"), 0, (2 * (130 / 2)) / 1.31);
    near(row(SYNC, SYNC, "queued"), (2 * 130) / 1.31, 0);
    // the new edge is a regression against zero (no run-to-run allowance: nothing scales into something)
    expect(row(LOAD, LOAD, "queued")!.direction).toBe("regression");
    expect(row(LOAD, LOAD, "queued")!.change).toBe(Infinity);
  });

  it("tests each edge like every other row: effect size, interval, adjusted p", () => {
    for (const r of c.rows.filter((r) => r.subject.includes(" behind ") && r.status === "ok")) {
      expect(r.method, r.key).not.toBe("none");
      expect(Number.isFinite(r.q), r.key).toBe(true);
      expect(r.q, r.key).toBeGreaterThanOrEqual(r.p);
      expect(Number.isNaN(r.delta), r.key).toBe(false);
      if (Number.isFinite(r.change)) expect(r.ci[0], r.key).toBeLessThanOrEqual(r.ci[1]);
    }
    // X behind Y's share fell (1 → 0.75): δ over the waits, B's {1, ½, 1, ½} against A's {1, 1}: −4/8
    expect(row(LOAD, SYNC, "share")!.delta).toBe(-0.5);
  });

  it("leaves out an edge holding under 0.5 % of both sides' queuing time", () => {
    const z = { ctx: 3, cls: "PingTask" };
    const Z = ["com.app.Ping.send", "com.app.Ping.loop", "java.lang.Thread.run"];
    const three = (run: string) =>
      makeBundleTable("contexts", run, { context_id: [1, 2, 3], frames: [X, Y, Z] });
    // X waits 990 ms behind Y on one unit and `ms` behind Z on another, in two interactions a side
    const rows = (ms: number) =>
      twice([
        { id: 1, ...y, s: 0, b: 0, e: 1000 },
        { id: 2, ...x, s: 10, b: 1000, e: 1001 },
        { id: 3, ...z, unit: "Handler@2", s: 0, b: 0, e: 100 },
        { id: 4, ...x, unit: "Handler@2", s: 100 - ms, b: 100, e: 101 },
      ]);
    const edges = (ms: number) =>
      compareRuns(
        {
          tasks: tasksTable(rows(ms), "a").concat(tasksTable(rows(ms), "b")),
          contexts: three("a").concat(three("b")),
        },
        { a: ["a"], b: ["b"] },
      )
        .rows.filter((r) => r.measure === "queuing time behind them per second")
        .map((r) => r.subject)
        .sort();
    // 4 of 994 ms is 0.40 %, 6 of 996 ms 0.60 %
    expect(edges(4)).toEqual([`${LOAD} behind ${SYNC}`]);
    expect(edges(6)).toEqual([`${LOAD} behind PingTask from com.app.Ping.send`, `${LOAD} behind ${SYNC}`]);
  });

  it("leaves the edges out when the tasks table has no execution units", () => {
    const bare = (t: T[], run: string) => {
      const full = tasksTable(t, run);
      return full.select(["run_id", "context_id", "scheduled", "started", "ended", "task_class"]);
    };
    const plain = compareRuns(
      { tasks: bare(a, "a").concat(bare(b, "b")), contexts: contexts("a").concat(contexts("b")) },
      { a: ["a"], b: ["b"] },
    );
    expect(plain.rows.some((r) => r.subject.includes(" behind "))).toBe(false);
    expect(plain.rows.some((r) => r.key === `diagdroid:${LOAD}:mq`)).toBe(true);
  });
});

describe("the OpenLaw case: the bug puts LawSectionList behind UpdateLawList", () => {
  it("lists the new edge, from nothing in the healthy run to the planted queuing in the buggy one", async () => {
    const pair = casePairs().find((p) => p.notebook === "diagdroid-1-openlaw.md")!;
    const { sides, tables } = await readSides(pair.healthy, pair.buggy);
    const { rows } = compareRuns(tables, sides);
    const edge = (m: string) =>
      rows.find(
        (r) =>
          r.analysis === "diagdroid" &&
          r.subject.startsWith("de.jdsoft.law.data.LawSectionList from ") &&
          // UpdateLawList's context is one frame from LawSectionList's: one group (DiagDroid §4.2, Figure 10)
          r.subject.includes(" behind de.jdsoft.law.data.UpdateLawList in its own group") &&
          r.measure === m,
      );
    const queued = edge("queuing time behind them per second")!;
    expect(queued, rows.map((r) => r.key).join("\n")).toBeDefined();
    expect(queued.a).toBe(0);
    expect(queued.b).toBeGreaterThan(0);
    expect(queued.direction).toBe("regression");
    // in the healthy run LawSectionList never waits (its own pool of 5): the share is new
    expect(edge("share of the tasks its waits queued behind")!.status).toBe("new");
  }, 60_000);
});
