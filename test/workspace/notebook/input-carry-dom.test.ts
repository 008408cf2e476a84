// @vitest-environment jsdom
// carryInput on the browser's real @observablehq/inputs forms (jsdom): a form has no offers(), so the value is set
// and read back; a select ignores an option it does not have, a range clamps, and then the default is restored.
import * as Inputs from "@observablehq/inputs";
import { describe, expect, it } from "vitest";
import { carryInput } from "../../../workspace/notebook/input-carry";
import type { InputElementLike } from "../../../workspace/notebook/view-input";

type Form = InputElementLike & HTMLFormElement;

describe("carryInput on @observablehq/inputs forms", () => {
  it.each([
    ["select, an option", () => Inputs.select(["a", "b", "c"], { value: "a" }), "c", true, "c"],
    ["select, gone: back to its default", () => Inputs.select(["a", "b"], { value: "b" }), "z", false, "b"],
    ["radio, an option", () => Inputs.radio(["x", "y"]), "y", true, "y"],
    ["radio, gone", () => Inputs.radio(["x", "y"], { value: "x" }), "q", false, "x"],
    [
      "checkbox, options",
      () => Inputs.checkbox(["x", "y", "z"], { value: ["x"] }),
      ["y", "z"],
      true,
      ["y", "z"],
    ],
    ["checkbox, one gone", () => Inputs.checkbox(["x", "y"], { value: ["x"] }), ["y", "q"], false, ["x"]],
    ["range, inside", () => Inputs.range([50, 2000], { value: 500, step: 10 }), 1210, true, 1210],
    [
      "range, outside (it would clamp)",
      () => Inputs.range([50, 2000], { value: 500, step: 10 }),
      3000,
      false,
      500,
    ],
    ["toggle", () => Inputs.toggle({ value: false }), true, true, true],
  ])("%s", (_name, make, chosen, kept, value) => {
    const form = make() as Form;
    expect(carryInput(form, chosen)).toBe(kept);
    expect(form.value).toEqual(value);
  });

  it("the form shows the kept option as selected", () => {
    const form = Inputs.select(["p4a", "p6", "moto"], { value: "p4a" }) as Form;
    carryInput(form, "moto");
    expect(form.querySelector("select")!.selectedOptions[0]!.textContent).toBe("moto");
  });
});
