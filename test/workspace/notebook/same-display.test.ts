// <jb-output> draws a new value only when sameDisplay says it differs from the one shown.
import { describe, expect, it } from "vitest";
import { sameDisplay } from "../../../workspace/notebook/same-display";
import { md } from "../../../workspace/notebook/markdown-value";
import { plot } from "../../../charts/plot-spec";

describe("sameDisplay", () => {
  const rows = () => [
    { run: "a", value: 1.5, flagged: true },
    { run: "b", value: NaN, flagged: false },
  ];
  const f = (): number => 1;
  it.each([
    [
      "the same Markdown text, from two runs of a cell",
      md`| a |\n|---|\n| ${1} |`,
      md`| a |\n|---|\n| ${1} |`,
      true,
    ],
    ["Markdown whose text differs by one number", md`x ${1}`, md`x ${2}`, false],
    [
      "a chart spec over equal rows",
      plot({ mark: "dot", data: rows(), x: "value" }),
      plot({ mark: "dot", data: rows(), x: "value" }),
      true,
    ],
    [
      "a chart spec over rows where one value moved",
      plot({ mark: "dot", data: rows(), x: "value" }),
      plot({
        mark: "dot",
        data: [...rows().slice(0, 1), { run: "b", value: 2, flagged: false }],
        x: "value",
      }),
      false,
    ],
    [
      "a chart spec with one row more",
      plot({ mark: "dot", data: rows(), x: "value" }),
      plot({ mark: "dot", data: [...rows(), rows()[0]], x: "value" }),
      false,
    ],
    ["a key missing on one side", { a: 1, b: undefined }, { a: 1, c: undefined }, false],
    ["equal typed arrays", Float64Array.of(1, 2), Float64Array.of(1, 2), true],
    ["typed arrays of different types", Float64Array.of(1, 2), Float32Array.of(1, 2), false],
    ["equal dates", new Date(5), new Date(5), true],
    ["a function made again (a new closure draws what it computes)", { x: f }, { x: (): number => 1 }, false],
    ["the same function", { x: f }, { x: f }, true],
    ["an input (an EventTarget): identity only", new EventTarget(), new EventTarget(), false],
    ["-0 and 0 (drawn alike, but Object.is tells them apart)", [0], [-0], false],
  ] as const)("%s: %s", (_what, a, b, expected) => {
    expect(sameDisplay(a, b)).toBe(expected);
    expect(sameDisplay(b, a)).toBe(expected);
  });

  it("gives up (says they differ) past its budget rather than compare more than a redraw costs", () => {
    const big = () => Array.from({ length: 300_000 }, (_, k) => ({ k }));
    expect(sameDisplay(big(), big())).toBe(false);
    const small = () => Array.from({ length: 1000 }, (_, k) => ({ k }));
    expect(sameDisplay(small(), small())).toBe(true);
  });

  it("terminates on a cycle", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    const b: Record<string, unknown> = {};
    b.self = b;
    expect(sameDisplay(a, b)).toBe(false);
  });
});
