import { describe, expect, it } from "vitest";
import {
  deviationLabels,
  deviationLabelsPlot,
  regressedEvents,
  type RunWithContext,
} from "../../../cells/dune/deviation-labels";
import { eventPrecisionRecall } from "../../../cells/dune/event-precision-recall";

// §5.3.3 worked example: five history runs (#Fr, Rat, T) all in one cluster, new run T6 = [270, 0.40, 40.3].
const hist: [number, number, number][] = [
  [448, 0.95, 45.3],
  [453, 0.94, 44.5],
  [450, 0.93, 44.9],
  [457, 0.8, 50.3],
  [430, 0.85, 45.7],
];
const run = (
  ctx: Record<string, string>,
  [frames, smoothRatio, meanFrameMs]: [number, number, number],
  events?: RunWithContext["metrics"]["events"],
): RunWithContext => ({
  context: ctx,
  metrics: { frames, smoothRatio, meanFrameMs, ...(events ? { events } : {}) },
});

describe("deviationLabels (coarse)", () => {
  it("flags T6 Outlier- on #frames only, as in the paper (Q1 = 390, Q3 = 454)", () => {
    const r = deviationLabels(
      run({ sdk: "6.0.0" }, [270, 0.4, 40.3]),
      hist.map((m) => run({ sdk: "5.1.0" }, m)),
      { dimensions: ["sdk"] },
    );
    expect(r.members).toEqual([0, 1, 2, 3, 4]);
    const [frames, ratio, time] = r.coarse.metrics;
    expect(frames).toMatchObject({
      metric: "frames",
      q1: 390,
      q3: 454,
      flag: -1,
      label: "Outlier-",
      newValue: 270,
    });
    // by hand: Rat sorted .40 .80 .85 .93 .94 .95 → Q1 = .70, Q3 = .9425, lower fence .33625 > .40? no → N
    expect(ratio!.q1).toBeCloseTo(0.7, 12);
    expect(ratio!.q3).toBeCloseTo(0.9425, 12);
    expect(ratio!.label).toBe("N");
    // T sorted 40.3 44.5 44.9 45.3 45.7 50.3 → Q1 = 43.45, Q3 = 46.85, lower fence 38.35 → N
    expect(time!.q1).toBeCloseTo(43.45, 12);
    expect(time!.label).toBe("N");
    expect(r.coarse.label).toBe("Outlier-");
    expect(r.labels).toEqual(["Outlier-"]);
  });
  it("reads direction per metric: a long frame time is a regression, many frames an optimization", () => {
    const h = hist.map((m) => run({}, m));
    expect(deviationLabels(run({}, [450, 0.94, 90]), h, { dimensions: [] }).coarse.metrics[2]).toMatchObject({
      flag: 1,
      label: "Outlier-",
    });
    const better = deviationLabels(run({}, [700, 0.94, 45]), h, { dimensions: [] });
    expect(better.coarse.metrics[0]).toMatchObject({ flag: 1, label: "Outlier+" });
    expect(better.coarse.label).toBe("Outlier+");
    // a regression wins over an optimization in the run's label
    expect(deviationLabels(run({}, [700, 0.94, 90]), h, { dimensions: [] }).coarse.label).toBe("Outlier-");
  });
  it("compares against the most similar cluster only (Table 1's clusters)", () => {
    // cluster 0 (sdk and cpu shared): 448..452; 300 is far below (hf6 over 9 values: Q1 448.5, Q3 451.5).
    // cluster 1 (nothing shared): 100..500; against those 300 is unremarkable.
    const same = [448, 452, 450, 449, 451, 450, 449, 452].map((f) =>
      run({ sdk: "4.1", cpu: "x86" }, [f, 0.95, 45]),
    );
    const far = [100, 500, 120, 480].map((f) => run({ sdk: "5.0", cpu: "arm" }, [f, 0.95, 45]));
    const history = [...same, ...far];
    const r = deviationLabels(run({ sdk: "4.1", cpu: "x86" }, [300, 0.95, 45]), history, {
      dimensions: ["sdk", "cpu"],
    });
    expect(r.members).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(r.coarse.metrics[0]).toMatchObject({ q1: 448.5, q3: 451.5, label: "Outlier-" });
    const other = deviationLabels(run({ sdk: "4.1", cpu: "x86" }, [300, 0.95, 45]), history, {
      dimensions: ["sdk", "cpu"],
      cluster: 1,
    });
    expect(other.members).toEqual([8, 9, 10, 11]);
    expect(other.coarse.label).toBe("N");
  });
  it("treats a missing metric as N and excludes missing history values", () => {
    const h = [...hist.map((m) => run({}, m)), run({}, [NaN, NaN, NaN])];
    const r = deviationLabels(run({}, [NaN, 0.4, 40.3]), h, { dimensions: [] });
    expect(r.coarse.metrics[0]).toMatchObject({ flag: 0, label: "N" });
    expect(r.coarse.metrics[0]!.values.length).toBe(7);
    expect(r.coarse.metrics[0]!.q1).toBe(439); // hf6 over 430 448 450 453 457: (n+1)/4 = 1.5
    expect(r.coarse.metrics[1]!.label).toBe("N");
  });
  it("rejects an unknown metric by name", () => {
    expect(() =>
      deviationLabels(run({}, [1, 1, 1]), [], { dimensions: [], metrics: ["fps" as never] }),
    ).toThrow("unknown metric: fps");
  });
});

describe("deviationLabels (fine-grained, per UI event)", () => {
  // Figure 4: five history runs and T6 with three events (four buckets); bucket 2 (after E2) regresses.
  const bucket = (frames: number, smoothRatio: number, meanFrameMs: number) => ({
    frames,
    smoothRatio,
    meanFrameMs,
  });
  const history = hist.map((m, i) =>
    run({}, m, [
      bucket(30 + i, 1, 8),
      bucket(100 + i, 0.95, 10),
      bucket(120 + (i % 3), 0.96 - i / 100, 11 + i / 10),
      bucket(200 - i, 0.9, 12),
    ]),
  );
  it("labels E2Outlier- and returns it for precision/recall against the injected jank", () => {
    const t6 = run(
      {},
      [440, 0.9, 46],
      [bucket(32, 1, 8), bucket(102, 0.95, 10), bucket(60, 0.5, 30), bucket(198, 0.9, 12)],
    );
    const r = deviationLabels(t6, history, { dimensions: [] });
    expect(r.events.map((e) => e.label)).toEqual(["N", "N", "Outlier-", "N"]);
    expect(r.labels).toEqual(["N", "E2Outlier-"]);
    expect(regressedEvents(r)).toEqual([2]);
    expect(eventPrecisionRecall(regressedEvents(r), [2])).toMatchObject({ precision: 1, recall: 1 });
  });
  it("ignores history runs that lack a bucket (fewer events)", () => {
    const short = [...history, run({}, [450, 0.9, 45], [bucket(30, 1, 8)])];
    const t6 = run(
      {},
      [440, 0.9, 46],
      [bucket(32, 1, 8), bucket(102, 0.95, 10), bucket(60, 0.5, 30), bucket(198, 0.9, 12)],
    );
    const r = deviationLabels(t6, short, { dimensions: [] });
    expect(r.events[3]!.metrics[0]!.values.length).toBe(7);
    expect(r.events[3]!.label).toBe("N");
    expect(r.labels).toEqual(["N", "E2Outlier-"]);
  });
  it("plots a metric's distribution with the new run and the fences (Figure 8)", () => {
    const r = deviationLabels(
      run({}, [270, 0.4, 40.3]),
      hist.map((m) => run({}, m)),
      { dimensions: [] },
    );
    const p = deviationLabelsPlot(r, { metric: "frames" });
    expect(p.title).toBe("run: frames — new run Outlier-");
    // The five history runs as dots; fences from the six values with the new run (§5.3.3's example: Q1 390,
    // Q3 454, fences 294 and 550); the new run's 270 as a red rule (Outlier-).
    expect((p.data as { value: number }[]).map((d) => d.value)).toEqual([448, 453, 450, 457, 430]);
    expect(p.over!.map((l) => [l.mark, l.data])).toEqual([
      [
        "ruleX",
        [
          { x: 294, what: "Q1 − OF·IQR" },
          { x: 550, what: "Q3 + OF·IQR" },
        ],
      ],
      [
        "text",
        [
          { x: 294, what: "Q1 − OF·IQR" },
          { x: 550, what: "Q3 + OF·IQR" },
        ],
      ],
      ["ruleX", [270]],
    ]);
    expect(p.over![2]!.options).toMatchObject({ stroke: "#d62728" });
    expect(() => deviationLabelsPlot(r, { bucket: 3 })).toThrow("no metric");
  });
});
