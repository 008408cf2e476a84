import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { makeBundleTable } from "../../../bundle/table-builder";
import { chartOptions } from "../../golden-svg";
import {
  counterSeries,
  counterSeriesPlot,
  heapSeries,
  heapSeriesPlot,
} from "../../../cells/androscope/counter-series";

const MS = 1e6;
// simpleperf stat --interval 10 --per-core: two cores, cycles and instructions every 10 ms
const hpc = makeBundleTable("hpc_samples", "t", {
  ts: [10, 10, 20, 20, 10, 10, 20, 20].map((x) => x * MS),
  cpu: [0, 1, 0, 1, 0, 1, 0, 1],
  counter: [
    "cpu-cycles",
    "cpu-cycles",
    "cpu-cycles",
    "cpu-cycles",
    "instructions",
    "instructions",
    "instructions",
    "instructions",
  ],
  value: Float64Array.from([100, 300, 200, 200, 50, 150, 400, 200]),
});

describe("counterSeries", () => {
  it("sums cores per sample, gives each sample its interval and rate, derives IPC per interval", () => {
    const rows = counterSeries(hpc);
    const pick = (c: string) =>
      rows.filter((r) => r.counter === c).map((r) => [r.cpu, r.start / MS, r.end / MS, r.value, r.rate]);
    // the first interval is as long as the second: (0, 10]
    expect(pick("cpu-cycles")).toEqual([
      [null, 0, 10, 400, 40],
      [null, 10, 20, 400, 40],
    ]);
    expect(pick("instructions")).toEqual([
      [null, 0, 10, 200, 20],
      [null, 10, 20, 600, 60],
    ]);
    expect(pick("IPC")).toEqual([
      [null, 0, 10, 0.5, 0.5],
      [null, 10, 20, 1.5, 1.5],
    ]);
  });

  it("keeps cores apart with perCore, cuts to a window, shifts time, and names what is missing", () => {
    const perCore = counterSeries(hpc, { perCore: true, ipc: null });
    expect(
      perCore.filter((r) => r.counter === "cpu-cycles").map((r) => [r.cpu, r.end / MS, r.value]),
    ).toEqual([
      [0, 10, 100],
      [0, 20, 200],
      [1, 10, 300],
      [1, 20, 200],
    ]);
    expect(perCore.some((r) => r.counter === "IPC")).toBe(false);
    // intervals overlapping [12, 15] ms: only (10, 20]
    expect(counterSeries(hpc, { window: [12 * MS, 15 * MS] }).map((r) => r.end / MS)).toEqual([20, 20, 20]);
    expect(
      counterSeries(hpc, { timeShiftNs: -10 * MS })
        .filter((r) => r.counter === "IPC")
        .map((r) => r.end / MS),
    ).toEqual([0, 10]);
    expect(() => counterSeries(hpc, { window: [2, 1] })).toThrow(/invalid window/);
    expect(() => counterSeries(hpc.select(["ts", "value"]))).toThrow(
      /missing column counter \(utf8\) in hpc_samples/,
    );
  });

  it("draws one counter as steps over its intervals on the window's axis", () => {
    const options = counterSeriesPlot(counterSeries(hpc), "IPC", { window: [0, 20 * MS] });
    expect(options.layout.x).toMatchObject({ domain: [0, 20] });
    const bars = options.data as { x1: number; x2: number; rate: number }[];
    expect(bars.map((b) => [b.x1, b.x2, b.rate])).toEqual([
      [0, 10, 0.5],
      [10, 20, 1.5],
    ]);
    const { document } = parseHTML("<html><body></body></html>");
    expect(
      (Plot.plot({ ...chartOptions(options), document }) as unknown as Element).querySelectorAll("rect")
        .length,
    ).toBeGreaterThanOrEqual(2);
  });
});

describe("heapSeries", () => {
  const heap = makeBundleTable("heap_samples", "t", {
    ts: [0, 10, 20, 30, 0, 30].map((x) => x * MS),
    kind: ["java_heap", "java_heap", "java_heap", "java_heap", "native_heap", "native_heap"],
    value: [1, 2, 3, 4, 10, 20].map((x) => x * 1048576),
  });

  it("keeps the samples in the window and the nearest one on each side, per kind", () => {
    expect(heapSeries(heap).length).toBe(6);
    const inWindow = heapSeries(heap, { window: [12 * MS, 18 * MS] }).map((p) => [p.kind, p.ts / MS]);
    expect(inWindow).toEqual([
      ["java_heap", 10],
      ["java_heap", 20],
      ["native_heap", 0],
      ["native_heap", 30],
    ]);
    expect(heapSeries(heap, { window: [40 * MS, 50 * MS] }).map((p) => p.ts / MS)).toEqual([30, 30]);
    const options = heapSeriesPlot(heapSeries(heap));
    const { document } = parseHTML("<html><body></body></html>");
    expect(
      (Plot.plot({ ...chartOptions(options), document }) as unknown as Element).querySelectorAll("path")
        .length,
    ).toBeGreaterThanOrEqual(2);
    expect(() => heapSeries(hpc)).toThrow(/missing column kind \(utf8\) in heap_samples/);
  });
});
