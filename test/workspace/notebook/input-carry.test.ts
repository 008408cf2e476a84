// A choice survives the re-run of the cell that made its input (input-carry.ts, the runtime's adoptInput): a
// selectable plot keeps its chosen mark, a brush its window (clipped), a picker its option, while the new input
// still offers them; otherwise the new input starts at its default. Expected values are worked out by hand from
// the tiny data sets below.
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { headlessInputs } from "../../../workspace/notebook/headless-inputs";
import { carryInput } from "../../../workspace/notebook/input-carry";
import {
  brushDomain,
  brushWindowOn,
  brushX,
  plot,
  plotSpecToOptions,
  type PlotSpec,
} from "../../../charts/plot-spec";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";
import { sameValue, type InputElementLike } from "../../../workspace/notebook/view-input";

const nbOf = (...sources: string[]) =>
  parseNotebook(sources.map((s) => "```ts\n" + s + "\n```\n").join("\n"));

async function start(...sources: string[]) {
  const rt = new NotebookRuntime({ engine: null });
  rt.load(nbOf(...sources));
  await rt.settled();
  const runsOf = (name: string) => rt.states().find((s) => s.defines.includes(name))!.runs;
  const set = async (name: string, value: unknown) => {
    rt.setInput(name, value);
    await rt.settled();
  };
  return { rt, runsOf, set };
}

describe("a selectable plot whose cell re-runs", () => {
  // Groups 1, 2, 3 with worst times 50, 20, 5 ms; a group is shown when its time exceeds tau.
  const sources = [
    "const tau = view(Inputs.range([0, 100], {value: 10}));",
    "const rows = [{g: 1, v: 50}, {g: 2, v: 20}, {g: 3, v: 5}].filter((r) => r.v > tau);",
    "const chosen = view(plot({mark: 'barX', data: rows, x: 'v', y: 'g', select: 'g'}));",
    "const shown = (chosen == null ? rows : rows.filter((r) => r.g === chosen)).map((r) => r.g);",
  ];

  it("keeps the chosen group while it is still drawn, and the dependents see it", async () => {
    const { rt, runsOf, set } = await start(...sources);
    expect(await rt.value("shown")).toEqual([1, 2]);
    await set("chosen", 2);
    expect(await rt.value("shown")).toEqual([2]);
    await set("tau", 15); // rows 1 and 2 still exceed 15
    expect(runsOf("chosen")).toBe(2); // the plot cell re-ran: a fresh plot, yet the choice stayed
    expect(await rt.value("chosen")).toBe(2);
    expect(await rt.value("shown")).toEqual([2]);
    expect(rt.inputs().find((i) => i.name === "chosen")!.value).toBe(2);
    rt.dispose();
  });

  it("drops the choice to null when its group disappears, and does not bring it back later", async () => {
    const { rt, runsOf, set } = await start(...sources);
    await set("chosen", 2);
    await set("tau", 30); // only group 1 (50 ms) is left
    expect(runsOf("chosen")).toBe(2);
    expect(await rt.value("chosen")).toBeNull();
    expect(await rt.value("shown")).toEqual([1]);
    await set("tau", 10); // group 2 is back, but nobody chose it on the plot that is shown now
    expect(await rt.value("chosen")).toBeNull();
    expect(await rt.value("shown")).toEqual([1, 2]);
    rt.dispose();
  });

  it("the displayed plot carries the kept value and outlines exactly the chosen bar", async () => {
    const { rt, set } = await start(...sources);
    await set("chosen", 1);
    await set("tau", 15);
    const spec = rt.states().find((s) => s.defines.includes("chosen"))!.displays[0] as PlotSpec & {
      value: unknown;
    };
    expect(spec.value).toBe(1);
    const { document } = parseHTML("<html><body></body></html>");
    const svg = Plot.plot({ ...plotSpecToOptions(spec), document }) as unknown as Element;
    const bars = [...svg.querySelectorAll("g[aria-label='bar']:not(.jb-selected) rect")];
    const outlined = [...svg.querySelectorAll("g.jb-selected rect")];
    expect(bars.length).toBe(2);
    expect(outlined.length).toBe(1);
    // the outline sits on group 1's bar: the wider one (50 ms against 20 ms)
    const widths = bars.map((b) => Number(b.getAttribute("width")));
    expect(Number(outlined[0]!.getAttribute("width"))).toBe(Math.max(...widths));
    expect(outlined[0]!.getAttribute("y")).toBe(bars[widths.indexOf(Math.max(...widths))]!.getAttribute("y"));
    rt.dispose();
  });
});

describe("a brush whose chart re-runs", () => {
  // The chart's dots run from 0 to hi: its x extent is [0, hi].
  const sources = [
    "const hi = view(Inputs.range([0, 100], {value: 100, step: 10}));",
    "const win = view(plot.brushX({marks: [Plot.dot(Array.from({length: hi / 10 + 1}, (_, i) => i * 10), {x: (d) => d})]}));",
    "const width = win === null ? null : win[1] - win[0];",
  ];

  it("keeps a window inside the new extent, clips one that sticks out, and drops one outside it", async () => {
    const { rt, runsOf, set } = await start(...sources);
    await set("win", [40, 80]);
    await set("hi", 90);
    expect(runsOf("win")).toBe(2);
    expect(await rt.value("win")).toEqual([40, 80]);
    await set("hi", 60);
    expect(await rt.value("win")).toEqual([40, 60]); // clipped to the chart's [0, 60]
    expect(await rt.value("width")).toBe(20);
    await set("hi", 30);
    expect(await rt.value("win")).toBeNull(); // [40, 60] misses [0, 30]
    expect(await rt.value("width")).toBeNull();
    rt.dispose();
  });
});

describe("an Inputs picker whose options are rebuilt (DUNE's upgraded-run pick)", () => {
  const sources = [
    "const of = view(Inputs.range([0.5, 5], {value: 1.5, step: 0.1}));",
    "const upgraded = ['p4a', 'p6', 'moto', 'sam'].filter((r, i) => of < 3 || i % 2 === 0);",
    "const pick = view(Inputs.select(upgraded, {value: 'p4a'}));",
    "const first = view(Inputs.radio(upgraded));",
  ];

  it("keeps the picked run while it is an option, else the cell's default", async () => {
    const { rt, runsOf, set } = await start(...sources);
    await set("pick", "moto");
    await set("of", 2);
    expect(runsOf("pick")).toBe(2);
    expect(await rt.value("pick")).toBe("moto");
    await set("pick", "p6");
    await set("of", 4); // the options are now p4a and moto
    expect(await rt.value("pick")).toBe("p4a");
    rt.dispose();
  });

  it("a picker nobody chose follows its cell's new default; once chosen, it stays", async () => {
    const { rt, set } = await start(
      "const order = view(Inputs.radio(['asc', 'desc'], {value: 'asc'}));",
      "const items = order === 'asc' ? [1, 2, 3] : [3, 2, 1];",
      "const top = view(Inputs.select(items));",
    );
    expect(await rt.value("top")).toBe(1);
    await set("order", "desc");
    expect(await rt.value("top")).toBe(3); // the default (first option) of the new list
    await set("top", 2);
    await set("order", "asc");
    expect(await rt.value("top")).toBe(2);
    rt.dispose();
  });
});

describe("carryInput", () => {
  it.each([
    ["select, an option", headlessInputs.select(["a", "b"]), "b", true, "b"],
    ["select, gone", headlessInputs.select(["a", "b"]), "z", false, "a"],
    [
      "select multiple, all options",
      headlessInputs.select(["a", "b", "c"], { multiple: true }),
      ["c", "a"],
      true,
      ["c", "a"],
    ],
    [
      "select multiple, one gone",
      headlessInputs.select(["a", "b"], { multiple: true }),
      ["a", "z"],
      false,
      [],
    ],
    ["checkbox, options", headlessInputs.checkbox(["x", "y"], { value: ["x"] }), ["y"], true, ["y"]],
    ["radio, cleared", headlessInputs.radio(["x", "y"], { value: "x" }), null, true, null],
    ["range, inside", headlessInputs.range([50, 2000], { value: 500 }), 1210, true, 1210],
    ["range, outside", headlessInputs.range([50, 2000], { value: 500 }), 3000, false, 500],
    ["toggle", headlessInputs.toggle(), true, true, true],
    ["text", headlessInputs.text({ value: "a" }), "abc", true, "abc"],
    ["search (rows are never carried)", headlessInputs.search([{ a: 1 }]), [{ a: 1 }], false, [{ a: 1 }]],
  ])("%s", (_name, input, chosen, kept, value) => {
    expect(carryInput(input, chosen)).toBe(kept);
    expect(input.value).toEqual(value);
  });

  it("a plot keeps a value a bigint column has as a number, and refuses one no row has", () => {
    const data = [{ g: 7n }, { g: 8n }];
    const p = plot({ mark: "dot", data, x: "g", select: "g" }) as ReturnType<typeof plot> & InputElementLike;
    expect(carryInput(p, 8)).toBe(true);
    expect(p.value).toBe(8);
    const q = plot({ mark: "dot", data, x: "g", select: "g", filter: ["g", "<", 8] }) as ReturnType<
      typeof plot
    > &
      InputElementLike;
    expect(carryInput(q, 8)).toBe(false); // filtered out: no mark for it is drawn
    expect(q.value).toBeNull();
  });

  it("a brush refuses what is not a window", () => {
    const b = brushX({ marks: [Plot.dot([0, 10], { x: (d: number) => d })] });
    expect(carryInput(b, "x")).toBe(false);
    expect(carryInput(b, [1, 2, 3])).toBe(false);
    expect(b.value).toBeNull();
    expect(carryInput(b, [2, 4])).toBe(true);
    expect(b.value).toEqual([2, 4]);
  });
});

describe("brushDomain and brushWindowOn", () => {
  it("reads an explicit x domain, else the marks' x values (x1/x2, stacks, dates)", () => {
    expect(
      brushDomain({ x: { domain: [100, 5] }, marks: [Plot.dot([1000], { x: (d: number) => d })] }),
    ).toEqual([5, 100]);
    expect(
      brushDomain({
        marks: [
          Plot.rectX(
            [
              { a: 5, b: 9 },
              { a: 2, b: 3 },
            ],
            { x1: "a", x2: "b", y: 1 },
          ),
          Plot.frame(),
        ],
      }),
    ).toEqual([2, 9]);
    // stacked bars: 3 then 4 on the same y make x run 0..7
    expect(
      brushDomain({
        marks: [
          Plot.barX(
            [
              { v: 3, k: "a" },
              { v: 4, k: "a" },
            ],
            { x: "v", y: "k" },
          ),
        ],
      }),
    ).toEqual([0, 7]);
    expect(
      brushDomain({ marks: [[Plot.tickX([new Date(100), new Date(40)], { x: (d: Date) => d })], null] }),
    ).toEqual([40, 100]);
    expect(brushDomain({ marks: [Plot.ruleY([0])] })).toBeNull();
  });

  it.each([
    [
      [40, 80],
      [0, 100],
      [40, 80],
    ],
    [
      [80, 40],
      [0, 60],
      [40, 60],
    ],
    [
      [-10, 200],
      [0, 60],
      [0, 60],
    ],
    [[40, 60], [0, 30], null],
    [[30, 40], [0, 30], null],
    [
      [20, 20],
      [0, 30],
      [20, 20],
    ],
    [[40, 60], null, [40, 60]],
  ])("window %j on extent %j -> %j", (window, domain, expected) => {
    expect(brushWindowOn(window as [number, number], domain as [number, number] | null)).toEqual(expected);
  });
});

describe("sameValue", () => {
  it.each([
    [5, 5, true],
    [5n, 5, true],
    [5, "5", false],
    [NaN, NaN, true],
    [null, undefined, false],
    [new Date(3), new Date(3), true],
    [[1, 2], [1, 2], true],
    [[1, 2], [2, 1], false],
    [{ a: 1 }, { a: 1 }, false],
  ])("sameValue(%s, %s) -> %s", (a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
  });
});
