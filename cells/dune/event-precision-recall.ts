// Precision and recall of flagged UI events against the events known to be janky (DUNE §8.4, after Foo et al.):
//   precision = 1 − false positives / events flagged,   recall = janky events detected / expected janky events.
// Undefined ratios are NaN: precision when nothing was flagged, recall when no event was expected to be janky.
import { chartSpec, type ChartSpec } from "../common/chart-spec";

export interface EventPrecisionRecall {
  truePositives: number[];
  falsePositives: number[];
  missed: number[];
  precision: number;
  recall: number;
}

export function eventPrecisionRecall(
  flagged: Iterable<number>,
  janky: Iterable<number>,
): EventPrecisionRecall {
  const f = [...new Set(flagged)].sort((a, b) => a - b);
  const j = new Set(janky);
  const truePositives = f.filter((e) => j.has(e));
  const falsePositives = f.filter((e) => !j.has(e));
  const missed = [...j].filter((e) => !f.includes(e)).sort((a, b) => a - b);
  return {
    truePositives,
    falsePositives,
    missed,
    precision: f.length === 0 ? NaN : 1 - falsePositives.length / f.length,
    recall: j.size === 0 ? NaN : truePositives.length / j.size,
  };
}

/** Table 3 as a chart: precision and recall per test run. */
export function eventPrecisionRecallPlot(
  results: EventPrecisionRecall[],
  options: { labels?: string[] } = {},
): ChartSpec {
  const rows = results.flatMap((r, i) => {
    const test = options.labels?.[i] ?? `T${i + 1}`;
    return [
      { test, measure: "precision", value: r.precision },
      { test, measure: "recall", value: r.recall },
    ];
  });
  return chartSpec("eventPrecisionRecallPlot", {
    mark: "dot",
    data: rows,
    x: "test",
    y: "value",
    fill: "measure",
    options: { r: 4 },
    layout: {
      x: { label: null, domain: rows.filter((r) => r.measure === "precision").map((r) => r.test) },
      y: { domain: [0, 1], grid: true, label: "precision or recall (fraction)" },
      color: { legend: true },
    },
    over: [{ mark: "lineY", data: rows, options: { x: "test", y: "value", stroke: "measure" } }],
  });
}
