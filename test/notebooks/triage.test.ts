// notebooks/triage.md headless on the sample runs: its values against the samples' ground_truth.json and against
// brute-force computations straight from DuckDB, and its inputs (τ, the selected group, DUNE's thresholds) driven
// with setInput as the browser's sliders and clicks drive them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlEngine } from "../../workspace/db/engine";
import { runNotebookFile, SAMPLES_DIR, type HeadlessResult } from "../../workspace/node/headless";
import type { TimelineView } from "../../workspace/notebook/timeline-view";
import { appFrameOf, hf6, truth, type GroupRow, type TimelineRow, type UpgradeRow } from "./triage-support";

const ROOT = join(import.meta.dirname, "../..");
const TRIAGE = join(ROOT, "notebooks/triage.md");
const MAIN = "paper-cases-pixel-4a";

const samples: string[] = JSON.parse(readFileSync(join(SAMPLES_DIR, "index.json"), "utf8"));
const lab = samples.filter((s) => s.startsWith("k9-"));
const TRACE = "feed-methods-pixel-4a";
const mainTruth = truth(MAIN);
const culprit = (name: string) => mainTruth.cases.find((c) => c.case === name)!.culprit;

/** The trace's last call exit, ns, from its calls file: the call timeline's window before any zoom ends there. */
const traceEndNs = Math.max(
  ...Array.from(
    tableFromIPC(readFileSync(join(SAMPLES_DIR, TRACE, "calls.arrows")))
      .getChild("exit")!
      .toArray() as BigInt64Array,
    Number,
  ),
);

let r: HeadlessResult;
let engine: SqlEngine;
const value = <T>(name: string) => r.runtime.value(name) as Promise<T>;
async function set(name: string, v: unknown) {
  r.runtime.setInput(name, v);
  await r.runtime.settled(60_000);
}
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await engine.query(sql)).toArray().map((x: { toJSON(): Record<string, unknown> }) => x.toJSON());
}

/** Per context of the main run, brute force: max queuing and max execution time, ms (every task finished). */
async function contextTimes(): Promise<Map<number, { mq: number; me: number; tasks: number[] }>> {
  const out = new Map<number, { mq: number; me: number; tasks: number[] }>();
  for (const t of await rows(
    `SELECT task_id, context_id, scheduled, started, ended FROM tasks WHERE run_id = '${MAIN}'`,
  )) {
    const c = t.context_id as number;
    const e = out.get(c) ?? { mq: -Infinity, me: -Infinity, tasks: [] };
    e.mq = Math.max(e.mq, Number((t.started as bigint) - (t.scheduled as bigint)) / 1e6);
    e.me = Math.max(e.me, Number((t.ended as bigint) - (t.started as bigint)) / 1e6);
    e.tasks.push(Number(t.task_id));
    out.set(c, e);
  }
  return out;
}

beforeAll(async () => {
  r = await runNotebookFile(TRIAGE);
  engine = r.engine;
});
afterAll(() => r?.close());

describe("notebooks/triage.md headless", () => {
  it("runs every cell on the main run and the K-9 lab, with the documented inputs and their defaults", () => {
    expect(r.failedCells.map((c) => `${c.name ?? c.defines.join(",")}: ${c.error}`)).toEqual([]);
    // The notebook's own checks (what the samples must show, section by section) all hold at the defaults.
    expect(r.failedChecks).toEqual([]);
    expect(r.checks).toHaveLength(12);
    expect(r.provenance.runs.map((x) => x.run_id).sort()).toEqual([MAIN, ...lab, TRACE].sort());
    expect(Object.fromEntries(r.provenance.inputs.map((i) => [i.name, i.value]))).toEqual({
      tauMs: 500,
      maxDistance: 2,
      chosenGroup: null,
      outlierFactor: 1.5,
      quartileMethod: "hf6",
      dimensions: ["app_version", "scenario", "cpu_abi", "refresh_hz"],
      weightsRun: "k9-pixel-4a-android12-upgraded",
      minSupport: 0.1,
      minConfidence: 0.9,
      windowNs: [0, traceEndNs],
      treeRoot: "android.view.Choreographer.doFrame",
      treeThreshold: 5,
    });
  });

  it("row counts and the main run's jank share match each run's ground truth", async () => {
    const counts = (await value<{ toArray(): { toJSON(): Record<string, number | string> }[] }>("row_counts"))
      .toArray()
      .map((x) => x.toJSON());
    expect(counts).toHaveLength(2 + lab.length);
    for (const c of counts) {
      const t = truth(String(c.run_id)).counts;
      for (const k of ["frames", "ui_events", "tasks", "contexts", "render_ops"])
        expect([c.run_id, k, c[k]]).toEqual([c.run_id, k, t[k]]);
    }
    expect(await value<number>("jankShare")).toBeCloseTo(
      mainTruth.counts.janky_frames! / mainTruth.counts.frames!,
      12,
    );
  });
});

describe("DiagDroid section", () => {
  it("at τ = 500 ms the OpenLaw, FBReader and Transportr culprits are anomalous groups, with Mq from the raw tasks", async () => {
    const groups = await value<GroupRow[]>("groupRows");
    const contexts = await rows(
      `SELECT context_id, array_to_string(frames, '\n') AS stack FROM contexts WHERE run_id = '${MAIN}'`,
    );
    const times = await contextTimes();
    const report = await value<{ group: number; contextIds: number[] }[]>("groups");
    for (const name of ["openlaw", "fbreader", "transportr"]) {
      const c = culprit(name);
      const ctx = contexts.find((x) => String(x.stack).split("\n").includes(c.context_frame!))!;
      const id = ctx.context_id as number;
      // the culprit's tasks are exactly its context's tasks
      expect(times.get(id)!.tasks.sort((a, b) => a - b)).toEqual(c.task_ids);
      const g = report.find((x) => x.contextIds.includes(id));
      expect(g, `${name}: no anomalous group holds context ${id}`).toBeDefined();
      const row = groups.find((x) => x.group === g!.group)!;
      expect(row.mqMs).toBeCloseTo(times.get(id)!.mq, 6);
      expect(row.mqMs).toBeGreaterThan(500);
      expect(row.tasks).toBe(c.task_ids!.length);
    }
    // the Transportr filter queue is the worst (Mq > 2 s), the plot rows are ranked and carry a group column
    expect(groups[0]!.name).toBe("LocationAdapter.onTextChanged");
    expect(groups.map((g) => g.rank)).toEqual(groups.map((_, i) => i + 1));
  });

  it("moving τ changes exactly which contexts are anomalous (brute force: max(Mq, Me) > τ), and the report", async () => {
    const times = await contextTimes();
    try {
      for (const tau of [100, 280, 500, 1300, 2000, 2400]) {
        await set("tauMs", tau);
        const groups = await value<{ contextIds: number[] }[]>("groups");
        const expected = [...times]
          .filter(([, t]) => Math.max(t.mq, t.me) > tau)
          .map(([c]) => c)
          .sort((a, b) => a - b);
        expect([tau, groups.flatMap((g) => g.contextIds).sort((a, b) => a - b)]).toEqual([tau, expected]);
        const rowsAtTau = await value<GroupRow[]>("groupRows");
        expect(rowsAtTau).toHaveLength(groups.length);
        const report = await value<string>("report");
        if (expected.length) expect(report).toContain(`cases of queuing time ≥ ${tau}ms`);
        else expect(report).toContain(`every queuing and execution time is ≤ ${tau}ms`);
        // the report's "max queuing time" lines are the plot's Mq values, one per group (the report orders
        // them by issue, a waiting group before the group it waited behind: anomaly-issues.test.ts)
        const byValue = (a: number, b: number) => a - b;
        expect(
          [...report.matchAll(/max queuing time: ([\d.]+)ms/g)].map((m) => Number(m[1])).sort(byValue),
        ).toEqual(rowsAtTau.map((g) => Number(g.mqMs.toFixed(2))).sort(byValue));
      }
      // named cases: at 1300 ms OpenLaw's and FBReader's queues (~1.2 s) drop out, Transportr's (2.4 s) stays
      await set("tauMs", 1300);
      const names = (await value<GroupRow[]>("groupRows")).map((g) => g.name);
      expect(names).toContain("LocationAdapter.onTextChanged");
      expect(names).not.toContain("LawListFragment.onListItemClick");
      expect(names).not.toContain("ZLAndroidImageLoader.startImageLoading");
    } finally {
      await set("tauMs", 500);
    }
  });

  it("the timeline shows every anomalous group with no selection, and only the chosen group's tasks once one is chosen", async () => {
    const groups = await value<GroupRow[]>("groupRows");
    const all = await value<TimelineRow[]>("timelineRows");
    expect(new Set(all.map((t) => t.group))).toEqual(new Set(groups.map((g) => g.group)));
    const times = await contextTimes();
    try {
      for (const name of ["openlaw", "fbreader", "transportr"]) {
        const c = culprit(name);
        const group = groups.find((g) => g.name === appFrameOf(c.context_frame!))!.group;
        await set("chosenGroup", group);
        expect(await value<number>("chosenGroup")).toBe(group);
        const shown = await value<TimelineRow[]>("timelineRows");
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.every((t) => t.group === group)).toBe(true);
        expect([...new Set(shown.map((t) => Number(t.taskId)))].sort((a, b) => a - b)).toEqual(c.task_ids);
        // every task has a running span; queued spans last as long as the raw queuing, the longest being Mq
        expect(shown.filter((t) => t.phase === "running")).toHaveLength(c.task_ids!.length);
        const longestQueue = Math.max(0, ...shown.filter((t) => t.phase === "queued").map((t) => t.ms));
        const ctx = [...times].find(([, t]) => t.tasks.includes(c.task_ids![0]!))![1];
        expect(longestQueue).toBeCloseTo(ctx.mq, 6);
      }
    } finally {
      await set("chosenGroup", null);
    }
    expect(new Set((await value<TimelineRow[]>("timelineRows")).map((t) => t.group))).toEqual(
      new Set(groups.map((g) => g.group)),
    );
  });
});

describe("DUNE section", () => {
  const upgraded = lab.filter((run) => truth(run).cases[0]!.culprit.regressed);
  const baseline = lab.filter((run) => !truth(run).cases[0]!.culprit.regressed);

  it("flags every upgraded K-9 run Outlier- on frames, smooth ratio and mean frame time, with hf6 fences checked by hand", async () => {
    expect(upgraded).toHaveLength(4);
    const meanMs = new Map(
      (
        await rows(
          `SELECT run_id, avg(duration) / 1e6 AS ms, count(*)::INTEGER AS n FROM frames WHERE run_id LIKE 'k9-%' GROUP BY run_id`,
        )
      ).map((x) => [x.run_id as string, x]),
    );
    const table = await value<UpgradeRow[]>("upgradeRows");
    expect(new Set(table.map((t) => t.run))).toEqual(new Set(upgraded));
    for (const run of upgraded) {
      const mine = (m: string) => table.find((t) => t.run === run && t.metric === m)!;
      for (const m of ["frames", "smoothRatio", "meanFrameMs"])
        expect([run, m, mine(m).label]).toEqual([run, m, "Outlier-"]);
      expect(mine("frames").value).toBe(truth(run).counts.frames);
      expect(mine("smoothRatio").value).toBeCloseTo(
        1 - truth(run).counts.janky_frames! / truth(run).counts.frames!,
        12,
      );
      const mean = mine("meanFrameMs");
      expect(mean.value).toBeCloseTo(meanMs.get(run)!.ms as number, 9);
      // the comparison set: the twelve baseline runs plus the new one (§5.3.3)
      expect(mean.comparedWith).toBe(baseline.length);
      const values = [...baseline.map((b) => meanMs.get(b)!.ms as number), mean.value];
      const q1 = hf6(values, 0.25);
      const q3 = hf6(values, 0.75);
      expect(mean.q1).toBeCloseTo(q1, 9);
      expect(mean.q3).toBeCloseTo(q3, 9);
      expect(mean.upperFence).toBeCloseTo(q3 + 1.5 * (q3 - q1), 9);
      expect(mean.value).toBeGreaterThan(mean.upperFence);
    }
  });

  it("labels: baseline runs N, upgraded runs Outlier- in the buckets of the 'click message_list_item' events", async () => {
    const labels = await value<{ run: string; label: string; labels: string }[]>("labels");
    for (const run of baseline) expect(labels.find((l) => l.run === run)!.labels).toBe("N");
    const events = await rows(
      `SELECT seq, kind, target FROM ui_events WHERE run_id = '${upgraded[0]}' ORDER BY seq`,
    );
    for (const run of upgraded) {
      const l = labels.find((x) => x.run === run)!;
      expect(l.label).toBe("Outlier-");
      const buckets = l.labels
        .split(", ")
        .filter((x) => x.startsWith("E"))
        .map((x) => Number(/^E(\d+)/.exec(x)![1]));
      expect(buckets.length).toBeGreaterThan(0);
      // bucket k starts at event k (1-based, seq k - 1): the regressed event of the ground truth
      for (const k of buckets)
        expect(`${events[k - 1]!.kind} ${events[k - 1]!.target}`).toBe(truth(run).cases[0]!.culprit.event);
    }
  });

  it("context rules find {os=upgraded} ⇒ {label=Outlier-}; min support above its 0.25 removes it", async () => {
    const rule = "{os=upgraded} ⇒ {label=Outlier-}";
    let rules = await value<{ rule: string; support: number; confidence: number }[]>("ruleRows");
    expect(rules.find((x) => x.rule === rule)).toEqual({ rule, support: 4 / 16, confidence: 1 });
    try {
      await set("minSupport", 0.3);
      rules = await value("ruleRows");
      expect(rules.map((x) => x.rule)).not.toContain(rule);
      expect(rules.map((x) => x.rule)).toContain("{os=baseline} ⇒ {label=N}");
    } finally {
      await set("minSupport", 0.1);
    }
  });

  it("the thresholds move the flags: OF = 5 clears mean frame time; device_model shrinks the set to 4 values (hf6 flags nothing, weka does)", async () => {
    try {
      await set("outlierFactor", 5);
      let table = await value<UpgradeRow[]>("upgradeRows");
      for (const t of table.filter((x) => x.metric === "meanFrameMs")) {
        expect(t.upperFence).toBeCloseTo(t.q3 + 5 * (t.q3 - t.q1), 9);
        expect([t.run, t.label]).toEqual([t.run, t.value > t.upperFence ? "Outlier-" : "N"]);
        expect(t.label).toBe("N");
      }
      // frames: the baseline's IQR is 0, so any OF flags the shorter runs
      for (const t of table.filter((x) => x.metric === "frames")) expect(t.label).toBe("Outlier-");
      await set("outlierFactor", 1.5);

      await set("dimensions", ["app_version", "scenario", "cpu_abi", "refresh_hz", "device_model"]);
      table = await value<UpgradeRow[]>("upgradeRows");
      expect(new Set(table.map((t) => t.comparedWith))).toEqual(new Set([3]));
      expect(table.every((t) => t.label === "N")).toBe(true);
      await set("quartileMethod", "weka");
      table = await value<UpgradeRow[]>("upgradeRows");
      for (const run of upgraded)
        for (const m of ["frames", "smoothRatio"])
          expect(table.find((t) => t.run === run && t.metric === m)!.label).toBe("Outlier-");
    } finally {
      await set("outlierFactor", 1.5);
      await set("quartileMethod", "hf6");
      await set("dimensions", ["app_version", "scenario", "cpu_abi", "refresh_hz"]);
    }
  });
});

describe("DRAW section", () => {
  it("FaceQ's covered GridView background ranks among the three worst RES and shows no pixel", async () => {
    const ranking = await value<{ viewId: number; utility: number; cost: number; res: number }[]>("ranking");
    const faceq = culprit("faceq");
    const at = ranking.findIndex((v) => v.viewId === faceq.view_id);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(3);
    expect(ranking[at]!.utility).toBe(0);
    // RES = (U + 1) / C, with C the view's rendering seconds: never more than its raw op time from SQL
    const [raw] = await rows(
      `SELECT sum(dur) / 1e9 AS s FROM render_ops WHERE run_id = '${MAIN}' AND view_id = ${faceq.view_id}`,
    );
    expect(ranking[at]!.cost).toBeLessThanOrEqual((raw!.s as number) + 1e-12);
    expect(ranking[at]!.res).toBeCloseTo(1 / ranking[at]!.cost, 9);
  });

  it("PicsPlay's hidden submenus show no pixel; overdraw covers every frame of the trace", async () => {
    const ranking = await value<{ viewId: number; utility: number; layoutFile: string | null }[]>("ranking");
    const hidden = culprit("picsplay").hidden_submenus!;
    for (const s of hidden) {
      // the submenu's views (its layout file): nothing of them is ever visible
      const views = ranking.filter((v) => v.layoutFile === s.layout_file);
      expect(views.length).toBeGreaterThan(0);
      expect(views.every((v) => v.utility === 0)).toBe(true);
    }
    const overdraw = await value<{ frame: number; maxDepth: number }[]>("overdrawRows");
    const [frames] = await rows(
      `SELECT count(DISTINCT frame)::INTEGER AS n FROM render_ops WHERE run_id = '${MAIN}'`,
    );
    expect(overdraw).toHaveLength(frames!.n as number);
    expect((await value<{ maxDepth: number }>("deepest")).maxDepth).toBe(
      Math.max(...overdraw.map((o) => o.maxDepth)),
    );
  });
});

interface CriticalRow {
  depth: number;
  method: string;
  calls: number;
  inclusiveMs: number;
  share: number;
  ipc: number;
}

describe("AndroScope section", () => {
  const traceTruth = JSON.parse(readFileSync(join(SAMPLES_DIR, TRACE, "ground_truth.json"), "utf8")) as {
    counts: Record<string, number>;
    cases: { culprit: { root: string; method: string; ipc: Record<string, number> } }[];
  };
  const culpritOf = traceTruth.cases[0]!.culprit;
  const named = (method: string) =>
    `SELECT c.* FROM calls c JOIN methods m ON m.run_id = c.run_id AND m.method_id = c.method_id WHERE c.run_id = '${TRACE}' AND m.class_name || '.' || m.method_name = '${method}'`;

  it("every late frame decoded a thumbnail on the main thread, and the decode ends doFrame's critical path", async () => {
    expect(await value<number>("traceLate")).toBe(traceTruth.counts.janky_frames);
    expect(await value<number>("lateDecoded")).toBe(traceTruth.counts.janky_frames);
    expect(await value<number>("onTimeDecoded")).toBe(0);
    const path = await value<CriticalRow[]>("criticalRows");
    expect(path[0]!.method).toBe(culpritOf.root);
    expect(path.at(-1)!.method).toBe(culpritOf.method);
    // the leaf merges every decode: its calls and time are the decode calls' straight from SQL
    const [decodes] = await rows(
      `SELECT count(*)::INTEGER AS n, sum(inclusive)::DOUBLE / 1e6 AS ms FROM (${named(culpritOf.method)})`,
    );
    expect(path.at(-1)!.calls).toBe(traceTruth.counts.decodes);
    expect(path.at(-1)!.calls).toBe(decodes!.n);
    expect(path.at(-1)!.inclusiveMs).toBeCloseTo(decodes!.ms as number, 6);
    // shares fall along the path; the decode's IPC is close to what the generator ran it at, and above layout's
    for (let k = 1; k < path.length; k++) expect(path[k]!.share).toBeLessThanOrEqual(path[k - 1]!.share);
    expect(Math.abs(path.at(-1)!.ipc - culpritOf.ipc[culpritOf.method]!)).toBeLessThan(0.2);
  });

  it("the threshold hides subtrees below its share of doFrame's time", async () => {
    try {
      await set("treeThreshold", 40);
      const tree = await value<{ nodes: { visible: boolean; share: number }[] }>("tree");
      const shown = tree.nodes.filter((n) => n.visible);
      expect(shown.every((n) => n.share >= 0.4)).toBe(true);
      // and nothing at or above it is hidden (an ancestor never has less time than its callee)
      expect(tree.nodes.filter((n) => !n.visible && n.share >= 0.4)).toEqual([]);
      expect(shown.length).toBeLessThan(tree.nodes.length);
    } finally {
      await set("treeThreshold", 5);
    }
  });

  it("a window set on the timeline cuts its boxes, the counters and the profile to it (brute force from SQL)", async () => {
    const [t0, t1] = [900, 1000];
    try {
      const [a, b] = [t0 * 1e6, t1 * 1e6];
      await set("windowNs", [a, b]);
      expect(await value<number[]>("windowNs")).toEqual([a, b]);
      // the timeline's boxes for the window account for every main-thread call overlapping it once
      const timeline = await value<TimelineView>("traceTimeline");
      await timeline.load([a, b], timeline.plotWidth);
      const [visible] = await rows(
        `SELECT count(*)::INTEGER AS n FROM calls c JOIN threads t ON t.run_id = c.run_id AND t.thread_id = c.thread_id WHERE c.run_id = '${TRACE}' AND t.name = 'main' AND c.enter < ${b} AND (c.exit > ${a} OR (c.exit = c.enter AND c.enter >= ${a}))`,
      );
      const main = timeline.loaded!.boxes.filter((x) => x.track.startsWith("main "));
      expect(main.reduce((n, x) => n + x.count, 0)).toBe(visible!.n);
      expect(main.every((x) => x.end > a && x.start < b)).toBe(true);
      // the profile's doFrame: the calls overlapping the window, their time cut to it
      const profile = await value<{ name: string; calls: number; inclusive: number }[]>("profile");
      const doFrame = profile.find((p) => p.name.startsWith("android.view.Choreographer.doFrame "))!;
      const [cut] = await rows(
        `SELECT count(*)::INTEGER AS n, sum(least(exit, ${b}) - greatest(enter, ${a}))::DOUBLE AS ns FROM (${named("android.view.Choreographer.doFrame")}) WHERE enter < ${b} AND exit > ${a}`,
      );
      expect([doFrame.calls, doFrame.inclusive]).toEqual([cut!.n, cut!.ns]);
      // counted cycles in the window: each 10 ms interval's count times the share of it inside the window
      const counters = await value<{ totals: Record<string, { counted: number; attributed: number }> }>(
        "windowCounters",
      );
      const [cycles] = await rows(
        `SELECT sum(value * greatest(0, least(ts, ${b}) - greatest(ts - 10000000, ${a})) / 10000000) AS v FROM hpc_samples WHERE run_id = '${TRACE}' AND counter = 'cpu-cycles'`,
      );
      expect(counters.totals["cpu-cycles"]!.counted).toBeCloseTo(cycles!.v as number, 0);
      expect(counters.totals["cpu-cycles"]!.attributed).toBeLessThanOrEqual(
        counters.totals["cpu-cycles"]!.counted,
      );
      // the counter and heap views show only the window (and the heap's neighbours on each side)
      const series = await value<{ start: number; end: number }[]>("counterRows");
      expect(series.length).toBeGreaterThan(0);
      expect(series.every((s) => s.end > a && s.start < b)).toBe(true);
      const heap = await value<{ ts: number }[]>("heapPoints");
      expect(heap.filter((p) => p.ts < a || p.ts > b).length).toBeLessThanOrEqual(4);
    } finally {
      await set("windowNs", null);
    }
    expect(await value<number[]>("windowNs")).toEqual([0, traceEndNs]);
  });
});
