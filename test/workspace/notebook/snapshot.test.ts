// A notebook's value snapshot (what the browser and headless runs are compared on) says when it keeps only the
// first 100 items of a list, and how many there were; past a report's depth it says why a value stops.
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { NotebookRuntime } from "../../../workspace/notebook/runtime";
import { snapshotNotebook, snapshotValue } from "../../../workspace/notebook/snapshot";

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("snapshotValue", () => {
  it.each([
    ["an array", upTo(250), { items: upTo(100), total: 250, truncated: "first 100 of 250 items" }],
    [
      "a typed array",
      Int32Array.from(upTo(1500)),
      { typed: upTo(100), total: 1500, truncated: "first 100 of 1,500 items" },
    ],
    [
      "a map",
      new Map(upTo(101).map((i) => [i, -i])),
      { map: upTo(100).map((i) => [i, -i]), total: 101, truncated: "first 100 of 101 items" },
    ],
    ["a set", new Set(upTo(300)), { set: upTo(100), total: 300, truncated: "first 100 of 300 items" }],
  ])("%s over 100 items: the first 100, the count and a marker", (_what, value, expected) => {
    expect(snapshotValue(value)).toEqual(expected);
  });

  it.each([
    ["an array", upTo(100), upTo(100)],
    ["a typed array", Float64Array.from([0.5, 1.5]), { typed: [0.5, 1.5] }],
    ["a set", new Set(["a"]), { set: ["a"] }],
  ])("%s of at most 100 items: all of them, no marker", (_what, value, expected) => {
    expect(snapshotValue(value)).toEqual(expected);
  });

  it("keeps as many items as asked (a report asks for all)", () => {
    expect(snapshotValue(upTo(250), 0, Infinity)).toEqual(upTo(250));
  });

  it("a value nested too deep says so", () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } };
    expect(JSON.stringify(snapshotValue(deep))).toContain("nested more than 6 levels deep");
  });

  it("a cell's eighth display is its value, like its first", async () => {
    const rt = new NotebookRuntime({ engine: null });
    rt.load(parseNotebook("```ts\nfor (let i = 0; i < 8; i++) display([i, [i]]);\n```\n"));
    const snap = await snapshotNotebook(rt);
    expect(snap.cells[0]!.displays).toEqual(upTo(8).map((i) => [i, [i]]));
    rt.dispose();
  });
});
