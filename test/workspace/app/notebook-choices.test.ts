import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { notebookChoices, notebookUrl } from "../../../workspace/app/notebook-choices";

const ROOT = join(import.meta.dirname, "../../..");

describe("notebookChoices", () => {
  it("lists every notebook under notebooks/, top-level first, with the title its front matter gives", () => {
    const top = readdirSync(join(ROOT, "notebooks")).filter((f) => f.endsWith(".md"));
    const examples = readdirSync(join(ROOT, "notebooks/examples")).filter((f) => f.endsWith(".md"));
    const choices = notebookChoices();
    expect(choices.map((c) => c.name)).toEqual([
      ...top.map((f) => f.replace(/\.md$/, "")).sort(),
      ...examples.map((f) => f.replace(/\.md$/, "")).sort(),
    ]);
    expect(choices.map((c) => c.folder)).toEqual([...top.map(() => ""), ...examples.map(() => "examples")]);
    // read off the file by hand: notebooks/triage.md's front matter says "title: Triage of the sample runs"
    expect(readFileSync(join(ROOT, "notebooks/triage.md"), "utf8")).toContain(
      "title: Triage of the sample runs",
    );
    expect(choices.find((c) => c.name === "triage")?.title).toBe("Triage of the sample runs");
  });
});

describe("notebookUrl", () => {
  it.each([
    ["http://localhost:5173/", "triage", "http://localhost:5173/?notebook=triage"],
    [
      "http://localhost:5173/?notebook=triage&runs=samples/a/,samples/b/#x",
      "gfxinfo-lab",
      "http://localhost:5173/?notebook=gfxinfo-lab",
    ],
    [
      "http://127.0.0.1:4000/?engine=server&notebook=lab.md",
      "perfetto-frames",
      "http://127.0.0.1:4000/?engine=server&notebook=perfetto-frames",
    ],
  ])("%s + %s -> %s", (href, name, expected) => {
    expect(notebookUrl(href, name)).toBe(expected);
  });
});
