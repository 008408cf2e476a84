import { describe, expect, it } from "vitest";
import { findPlotObject, setPlotFields } from "../../charts/plot-edit";

describe("setPlotFields", () => {
  const src = `// frame times\nplot({mark: "dot", data: frame_times, x: "intended_vsync", y: "ms", fill: "jank", title: "Frame time (ms)"})`;

  it.each([
    // a channel edit drops the title, which named the old chart ("Frame time (ms)" over durations would mislabel it)
    [
      { y: "duration" },
      `plot({mark: "dot", data: frame_times, x: "intended_vsync", y: "duration", fill: "jank"})`,
    ],
    [
      { mark: "line" as const },
      `plot({mark: "line", data: frame_times, x: "intended_vsync", y: "ms", fill: "jank", title: "Frame time (ms)"})`,
    ],
    [{ fill: null }, `plot({mark: "dot", data: frame_times, x: "intended_vsync", y: "ms"})`],
    [
      { fx: "run_id" },
      `plot({mark: "dot", data: frame_times, x: "intended_vsync", y: "ms", fill: "jank", fx: "run_id"})`,
    ],
    [
      { filter: ["ms", ">", 16] as ["ms", ">", number] },
      `plot({mark: "dot", data: frame_times, x: "intended_vsync", y: "ms", fill: "jank", title: "Frame time (ms)", filter: ["ms",">",16]})`,
    ],
  ])("applies %j and keeps the rest of the code", (fields, expected) => {
    expect(setPlotFields(src, fields)).toBe(`// frame times\n${expected}`);
  });

  it("edits the n-th plot call and ignores plot( inside strings and comments", () => {
    const two = `const a = "plot({x: 1})"; // plot({y: 2})\nconst p = plot({mark: "dot", data: d, y: "a"});\nplot({mark: "barY", data: e, y: "b"})`;
    expect(setPlotFields(two, { y: "c" }, 1)).toBe(
      `const a = "plot({x: 1})"; // plot({y: 2})\nconst p = plot({mark: "dot", data: d, y: "a"});\nplot({mark: "barY", data: e, y: "c"})`,
    );
    expect(findPlotObject(two, 2)).toBeUndefined();
  });

  it("replaces a key whose value is an expression, and removes the last field cleanly", () => {
    const s = `plot({data: rows.filter((r) => r.x > 1), mark: "dot", y: yColumn})`;
    expect(setPlotFields(s, { y: "z" })).toBe(
      `plot({data: rows.filter((r) => r.x > 1), mark: "dot", y: "z"})`,
    );
    expect(setPlotFields(s, { y: null })).toBe(`plot({data: rows.filter((r) => r.x > 1), mark: "dot"})`);
  });

  it("keeps the title of a mark or filter edit, and overrides a spread chart's title with null only when the literal had one", () => {
    expect(setPlotFields(`plot({mark: "dot", data: d, y: "a", title: "A"})`, { mark: "line" })).toBe(
      `plot({mark: "line", data: d, y: "a", title: "A"})`,
    );
    expect(setPlotFields(`plot({...jb.x.chartPlot(r), title: "mine", y: "a"})`, { y: "b" })).toBe(
      `plot({...jb.x.chartPlot(r), title: null, y: "b"})`,
    );
    expect(setPlotFields(`plot({...jb.x.chartPlot(r)})`, { y: "b" })).toBe(
      `plot({...jb.x.chartPlot(r), y: "b"})`,
    );
  });

  it("names the problem when there is no plot call", () => {
    expect(() => setPlotFields("1 + 1", { y: "a" })).toThrow(/no plot\(\{\.\.\.\}\) call #1/);
  });
});
