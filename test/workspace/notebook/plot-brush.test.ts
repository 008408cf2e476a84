// plot.brushX: a chart that is an input whose value is a dragged x interval (the pixel-to-data part and the
// runtime wiring; the drag itself is the browser's pointer events in jb-output).
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { brushInterval, brushX, isBrushX, plot } from "../../../charts/plot-spec";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";

const chart = {
  x: { domain: [0, 100] },
  width: 540,
  marginLeft: 20,
  marginRight: 20,
  marks: [Plot.dot([10, 50, 90], { x: (d: number) => d })],
};

describe("brushX", () => {
  it("is still Plot options (renders as a chart) and an input with a null value, or the initial interval ordered", () => {
    const b = brushX(chart);
    expect(isBrushX(b)).toBe(true);
    expect(b).toBeInstanceOf(EventTarget);
    expect(b.value).toBeNull();
    expect(brushX(chart, [30, 10]).value).toEqual([10, 30]);
    const { document } = parseHTML("<html><body></body></html>");
    expect((Plot.plot({ ...b, document }) as unknown as Element).querySelectorAll("circle").length).toBe(3);
    expect(plot.brushX).toBe(brushX);
    expect(() => brushX({} as Plot.PlotOptions)).toThrow(/expected Plot options with a marks array/);
  });

  it("turns a drag's pixels into a data interval: ordered, clamped to the domain; a click is null", () => {
    const scale = Plot.scale({ x: { domain: [0, 100], range: [20, 520] } });
    expect(brushInterval(scale, 120, 270)).toEqual([20, 50]);
    expect(brushInterval(scale, 270, 120)).toEqual([20, 50]);
    expect(brushInterval(scale, 0, 600)).toEqual([0, 100]);
    expect(brushInterval(scale, 200, 201)).toBeNull();
    const time = Plot.scale({ x: { type: "utc", domain: [new Date(0), new Date(1000)], range: [0, 100] } });
    expect(brushInterval(time, 10, 50)).toEqual([100, 500]);
    expect(() => brushInterval({}, 0, 50)).toThrow(/cannot be inverted/);
  });

  it("wrapped in view(), drives its dependents: null headless, the interval once set", async () => {
    const nb = parseNotebook(
      "```ts\nconst win = view(plot.brushX({marks: [Plot.dot([1, 2, 3], {x: (d) => d})]}))\n```\n\n```ts\nconst span = win === null ? -1 : win[1] - win[0];\n```\n",
    );
    const rt = new NotebookRuntime({ engine: null });
    rt.load(nb);
    await rt.settled();
    expect(await rt.value("span")).toBe(-1);
    expect(rt.inputs().map((i) => [i.name, i.value])).toEqual([["win", null]]);
    rt.setInput("win", [1.5, 2.75]);
    await rt.settled();
    expect(await rt.value("span")).toBe(1.25);
    rt.dispose();
  });
});
