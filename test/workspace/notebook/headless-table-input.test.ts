// @vitest-environment jsdom
// The headless Inputs.table stand-in starts at the value the browser's real @observablehq/inputs table has, for
// each way a notebook may make one (a ranked list whose clicked row drives the next cell, a multi-row picker).
import * as Inputs from "@observablehq/inputs";
import { describe, expect, it } from "vitest";
import { headlessInputs } from "../../../workspace/notebook/headless-inputs";

const rows = [
  { key: "a", x: 1 },
  { key: "b", x: 2 },
  { key: "c", x: 3 },
];

describe("headlessInputs.table", () => {
  it.each([
    ["single choice, nothing chosen", { multiple: false }],
    ["single choice, not required", { multiple: false, required: false }],
    ["single choice, a row chosen", { multiple: false, value: rows[1] }],
    ["several, nothing chosen (every row)", {}],
    ["several, not required (none)", { required: false }],
    ["several, rows chosen", { value: [rows[0], rows[2]] }],
  ])("%s: the real table's value", (_name, options) => {
    const real = (Inputs.table(rows, options) as unknown as { value: unknown }).value;
    const headless = headlessInputs.table(rows, options);
    expect(headless.kind).toBe("table");
    expect([...((Array.isArray(real) ? real : [real]) as unknown[])]).toEqual(
      Array.isArray(headless.value) ? headless.value : [headless.value],
    );
  });
});
