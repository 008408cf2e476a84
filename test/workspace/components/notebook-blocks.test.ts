// @vitest-environment jsdom
// notebook-blocks.ts: where the notebook is cut into sections (each input cell sticks within its own), and which
// cells count as input cells.
import { describe, expect, it } from "vitest";
import { parseNotebook } from "../../../workspace/notebook/format";
import { isInputCell, sections } from "../../../workspace/components/notebook-blocks";
import type { CellState } from "../../../workspace/notebook/runtime";

describe("sections", () => {
  it.each([
    ["no heading: one section", "Intro.\n\n```ts\n1\n```\n", [[0, 2]]],
    [
      "cut before each ## and ### prose block, not at # or ####",
      "# Title\n\n```ts\n1\n```\n\n## Two\n\n```ts\n2\n```\n\n#### Four\n\n```ts\n4\n```\n\n### Three\n\n```ts\n3\n```\n",
      [
        [0, 2],
        [2, 6],
        [6, 8],
      ],
    ],
    ["a heading first: no empty section before it", "## Two\n\n```ts\n2\n```\n", [[0, 2]]],
    [
      "a heading inside a paragraph's block counts",
      "```ts\n1\n```\n\nText.\n## Later\n\n```ts\n2\n```\n",
      [
        [0, 1],
        [1, 3],
      ],
    ],
  ])("%s", (_what, text, expected) => {
    expect(sections(parseNotebook(text).blocks)).toEqual(expected);
  });
});

describe("isInputCell", () => {
  const input = Object.assign(new EventTarget(), { value: 5 });
  const state = (displays: unknown[]) => ({ displays }) as unknown as CellState;
  it.each([
    ["only an input", [input], true],
    ["two inputs", [input, input], true],
    ["an input and a value", [input, 3], false],
    ["nothing shown", [], false],
    ["a table-like value", [{ numRows: 1, schema: { fields: [] }, getChild() {} }], false],
  ])("%s", (_what, displays, expected) => {
    expect(isInputCell(state(displays))).toBe(expected);
  });
  it("no state yet", () => expect(isInputCell(undefined)).toBe(false));
});
