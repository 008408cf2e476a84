// The golden helpers themselves: a chart Plot warns about fails (Plot's src/warnings.js only logs and draws a
// sign), and goldens are never rewritten under CI.
import * as Plot from "@observablehq/plot";
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { goldenSvgMismatch, renderSvg } from "./golden-svg";
import { updatingGoldens } from "./support/update-golden";

// Digits as strings on x: Plot 0.6.17 guesses an ordinal (point) scale and warns (src/scales.js).
const digits = [
  { x: 1, c: "1" },
  { x: 2, c: "2" },
];
const warned = { marks: [Plot.dot(digits, { x: "c", y: "x" })] };

afterEach(() => vi.unstubAllEnvs());

describe("golden SVGs and Plot's warnings", () => {
  it("a chart Plot warns about fails, with Plot's words", () => {
    const warn = console.warn;
    expect(() => renderSvg(warned)).toThrow(
      /Plot warned while drawing the chart:\n.*x scale are strings that appear to be numbers/,
    );
    expect(console.warn).toBe(warn);
  });

  it("the same chart, saying the strings are categories, draws without a warning", () => {
    const svg = renderSvg({ ...warned, x: { type: "point" } });
    expect(svg).toContain("<circle");
    expect(svg).not.toContain("Please check the console");
  });

  it("a warning fails goldenSvgMismatch too, before anything is compared or written", () => {
    expect(() => goldenSvgMismatch("golden-svg-warned", warned)).toThrow(/Plot warned/);
    expect(existsSync("test/output/golden-svg-warned.svg")).toBe(false);
  });
});

describe("UPDATE_GOLDEN", () => {
  it("rewrites goldens only when set, and never under CI", () => {
    expect(updatingGoldens({})).toBe(false);
    expect(updatingGoldens({ UPDATE_GOLDEN: "1" })).toBe(true);
    expect(updatingGoldens({ UPDATE_GOLDEN: "1", CI: "false" })).toBe(true);
    expect(() => updatingGoldens({ UPDATE_GOLDEN: "1", CI: "true" })).toThrow(
      /UPDATE_GOLDEN is set under CI \(CI=true\)/,
    );
    expect(updatingGoldens({ CI: "true" })).toBe(false);
  });

  it("goldenSvgMismatch refuses it under CI and writes no golden", () => {
    vi.stubEnv("UPDATE_GOLDEN", "1");
    vi.stubEnv("CI", "1");
    expect(() =>
      goldenSvgMismatch("golden-svg-under-ci", { marks: [Plot.dot([{ x: 1 }], { x: "x" })] }),
    ).toThrow(/UPDATE_GOLDEN is set under CI/);
    expect(existsSync("test/golden/golden-svg-under-ci.svg")).toBe(false);
  });
});
