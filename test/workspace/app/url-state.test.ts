// The workspace's URL state: notebook and runs written so a reload opens the same thing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  markRun,
  marksParam,
  runsParam,
  runsToWrite,
  withUrlState,
  type RunMarks,
} from "../../../workspace/app/url-state";

describe("withUrlState", () => {
  it.each([
    ["http://h:5173/", { notebook: "frames-overview" }, "http://h:5173/?notebook=frames-overview"],
    [
      "http://h:5173/?notebook=triage&runs=samples/a/",
      { notebook: "frames-overview.md" },
      "http://h:5173/?notebook=frames-overview.md",
    ],
    [
      "http://h:5173/?notebook=triage",
      { notebook: "triage", runs: ["samples/a/", "http://x.org:8080/b/"] },
      "http://h:5173/?notebook=triage&runs=samples/a/,http://x.org:8080/b/",
    ],
    ["http://h/?engine=server&notebook=a", { notebook: "b" }, "http://h/?engine=server&notebook=b"],
    ["http://h/?notebook=a", { notebook: "a", runs: [] }, "http://h/?notebook=a&runs="],
    ["http://h/?notebook=a#top", {}, "http://h/#top"],
  ])("%s with %j is %s", (href, state, expected) => {
    expect(withUrlState(href, state)).toBe(expected);
  });

  it("reads back what it writes (runs with commas and percent signs, notebook names of any text)", () => {
    const run = fc.stringMatching(/^[a-z0-9/:._?&=%#+, -]{1,20}$/);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(run, { maxLength: 5 }), (notebook, runs) => {
        const href = withUrlState("http://h:1/?x=1", { notebook, runs });
        const params = new URL(href).searchParams;
        expect(params.get("notebook")).toBe(notebook);
        expect(params.get("x")).toBe("1");
        expect(runsParam(new URL(href).search)).toEqual(runs.filter(Boolean));
      }),
    );
  });
});

describe("runsParam", () => {
  it("is undefined without runs=, the listed runs with it, empty for runs=", () => {
    expect(runsParam("?notebook=a")).toBeUndefined();
    expect(runsParam("?runs=a/,b/")).toEqual(["a/", "b/"]);
    expect(runsParam("?runs=")).toEqual([]);
    expect(runsParam("?runs=a%2Fb%2F,c")).toEqual(["a/b/", "c"]);
  });
  it("keeps a run whose URL holds a comma whole (written %2C inside the list)", () => {
    const href = withUrlState("http://h/", { runs: ["runs/a,b/", "runs/100%/", "c/"] });
    expect(href).toBe("http://h/?runs=runs/a%252Cb/,runs/100%2525/,c/");
    expect(runsParam(new URL(href).search)).toEqual(["runs/a,b/", "runs/100%/", "c/"]);
  });
});

describe("runsToWrite", () => {
  it("omits runs= when the runs are exactly the notebook's own, in any order, with or without a slash", () => {
    expect(runsToWrite(["samples/b/", "samples/a"], ["samples/a/", "samples/b/"])).toBeUndefined();
    expect(runsToWrite([], [])).toBeUndefined();
  });
  it("lists every loaded URL run otherwise", () => {
    expect(runsToWrite(["samples/a/", "extra/x/"], ["samples/a/"])).toEqual(["samples/a", "extra/x"]);
    expect(runsToWrite(["samples/a/"], ["samples/a/", "samples/b/"])).toEqual(["samples/a"]);
    expect(runsToWrite([], ["samples/a/"])).toEqual([]);
  });
});

describe("run marks (baseline and candidate)", () => {
  it("are written beside the notebook and runs, and dropped once none is marked", () => {
    const marks = { baseline: ["k9-r1", "k9-r2"], candidate: ["k9-upgraded"] };
    expect(withUrlState("http://h/?engine=server", { notebook: "compare", marks })).toBe(
      "http://h/?engine=server&notebook=compare&baseline=k9-r1,k9-r2&candidate=k9-upgraded",
    );
    expect(
      withUrlState("http://h/?notebook=compare&baseline=a&candidate=b", {
        notebook: "compare",
        marks: { baseline: [], candidate: [] },
      }),
    ).toBe("http://h/?notebook=compare");
    expect(withUrlState("http://h/?baseline=a", { notebook: "t" })).toBe("http://h/?notebook=t");
  });

  it("read back what was written, whatever the run ids hold", () => {
    const id = fc.stringMatching(/^[a-z0-9/:._?&=%#+, -]{1,12}$/);
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 6 }), fc.nat(6), (ids, cut) => {
        const marks = { baseline: ids.slice(0, cut), candidate: ids.slice(cut) };
        const href = withUrlState("http://h:1/?x=1", { notebook: "compare", marks });
        expect(marksParam(new URL(href).search)).toEqual(marks);
      }),
    );
  });

  it("keep a run on one side at most, in the order marked", () => {
    let marks: RunMarks = { baseline: [], candidate: [] };
    marks = markRun(marks, "a", "baseline");
    marks = markRun(marks, "b", "candidate");
    marks = markRun(marks, "c", "baseline");
    expect(marks).toEqual({ baseline: ["a", "c"], candidate: ["b"] });
    marks = markRun(marks, "a", "candidate");
    expect(marks).toEqual({ baseline: ["c"], candidate: ["b", "a"] });
    expect(markRun(marks, "b", null)).toEqual({ baseline: ["c"], candidate: ["a"] });
    // a hand-written URL naming a run on both sides: it stays a baseline
    expect(marksParam("?baseline=a,b&candidate=b,c")).toEqual({ baseline: ["a", "b"], candidate: ["c"] });
  });
});
