// view()'s input protocol: labels in both hosts (stand-in property, or the browser form's <label>), and the
// coercion of `--set name=text` values.
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { coerce, inputLabel } from "../../../workspace/notebook/view-input";

describe("inputLabel", () => {
  it("reads a stand-in's label property (string or node), else a form's <label> text, else nothing", () => {
    const { document } = parseHTML(
      "<form><label> τ (ms) </label><input type=range></form><form><input type=range></form>",
    );
    const [labelled, bare] = [...document.querySelectorAll("form")];
    expect(inputLabel({ label: "min support", value: 0.1 })).toBe("min support");
    expect(inputLabel({ label: document.querySelector("label"), value: 1 })).toBe(" τ (ms) ");
    expect(inputLabel(labelled)).toBe("τ (ms)");
    expect(inputLabel(bare)).toBeUndefined();
    expect(inputLabel(null)).toBeUndefined();
  });
});

describe("coerce", () => {
  it.each([
    ["300", 500, 300],
    ["0.25", 1.5, 0.25],
    ["true", false, true],
    ["weka", "hf6", "weka"],
    [7, 500, 7],
    ["5", null, 5],
    ["true", undefined, true],
    ["null", null, null],
    ["OpenLaw", null, "OpenLaw"],
  ])("coerce(%j) for a current value %j -> %j", (text, current, expected) => {
    expect(coerce(text, current)).toBe(expected);
  });

  it("reads JSON for an input with no value yet: a brush window from --set", () => {
    expect(coerce("[1.5, 2]", null)).toEqual([1.5, 2]);
  });

  it("names the expected type when text does not fit it", () => {
    expect(() => coerce("fast", 500)).toThrow('input expects a number, got "fast"');
    expect(() => coerce(" ", 500)).toThrow("input expects a number");
    expect(() => coerce("yes", true)).toThrow('input expects true or false, got "yes"');
  });
});
